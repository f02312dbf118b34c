"""plugin/pkg/scheduler/core: the generic scheduling algorithm and the HTTP extender."""

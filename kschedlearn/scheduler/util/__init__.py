"""plugin/pkg/scheduler/util."""

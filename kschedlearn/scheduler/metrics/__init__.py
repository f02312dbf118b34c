"""plugin/pkg/scheduler/metrics."""

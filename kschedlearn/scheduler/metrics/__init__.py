"""plugin/pkg/scheduler/metrics: the scheduler's latency histograms.

Go: package ``metrics``, plugin/pkg/scheduler/metrics
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/metrics
"""

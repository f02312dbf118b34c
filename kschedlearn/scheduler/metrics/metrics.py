"""The scheduler's three latency histograms (microseconds), in Prometheus form.

Go: plugin/pkg/scheduler/metrics/metrics.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/metrics/metrics.go

Differs from Go: Go registers package-level collectors with the global Prometheus registry; here
each scheduler process owns a :class:`SchedulerMetrics` (no globals), and latencies are measured
on the virtual clock. Buckets are Go's ``prometheus.ExponentialBuckets(1000, 2, 15)``.
"""

from __future__ import annotations

import attrs

SCHEDULER_SUBSYSTEM = "scheduler"
BUCKETS: tuple[float, ...] = tuple(1000.0 * 2**i for i in range(15))


@attrs.define(eq=False)
class Histogram:
    """A Prometheus histogram: cumulative bucket counts, sum and count.

    Go: prometheus.Histogram (vendor/github.com/prometheus/client_golang), as metrics.go
    creates it. Differs from Go: a plain value owned by the process, not a registered collector.
    """

    name: str
    help: str
    buckets: tuple[float, ...] = BUCKETS
    counts: list[int] = attrs.field(init=False)
    total: float = 0.0
    count: int = 0

    def __attrs_post_init__(self) -> None:
        self.counts = [0] * len(self.buckets)

    def observe(self, value: float) -> None:
        """Go: Histogram.Observe — count ``value`` in every bucket whose bound it fits."""
        self.total += value
        self.count += 1
        for i, bound in enumerate(self.buckets):
            if value <= bound:
                self.counts[i] += 1

    def exposition(self) -> str:
        """The Prometheus text format of this histogram."""
        full = f"{SCHEDULER_SUBSYSTEM}_{self.name}"
        lines = [f"# HELP {full} {self.help}", f"# TYPE {full} histogram"]
        for bound, c in zip(self.buckets, self.counts):
            lines.append(f'{full}_bucket{{le="{bound:g}"}} {c}')
        lines.append(f'{full}_bucket{{le="+Inf"}} {self.count}')
        lines.append(f"{full}_sum {self.total:g}")
        lines.append(f"{full}_count {self.count}")
        return "\n".join(lines)


@attrs.define(eq=False)
class SchedulerMetrics:
    """Go: the package vars E2eSchedulingLatency, SchedulingAlgorithmLatency, BindingLatency."""

    e2e_scheduling_latency: Histogram = attrs.field(factory=lambda: Histogram(
        "e2e_scheduling_latency_microseconds", "E2e scheduling latency (scheduling algorithm + binding)"))
    scheduling_algorithm_latency: Histogram = attrs.field(factory=lambda: Histogram(
        "scheduling_algorithm_latency_microseconds", "Scheduling algorithm latency"))
    binding_latency: Histogram = attrs.field(factory=lambda: Histogram(
        "binding_latency_microseconds", "Binding latency"))

    def exposition(self) -> str:
        return "\n".join(h.exposition() for h in (
            self.e2e_scheduling_latency, self.scheduling_algorithm_latency, self.binding_latency)) + "\n"


def since_in_microseconds(start: float, now: float) -> float:
    """Go: metrics.SinceInMicroseconds (virtual seconds → microseconds)."""
    return (now - start) * 1e6

"""``util.Trace``: named steps of one operation, logged only if it took too long.

Go: staging/src/k8s.io/apiserver/pkg/util/trace/trace.go (1.6's scheduler imports it as
k8s.io/apiserver/pkg/util/trace)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/util/trace/trace.go

``step`` records a message and a time, as Go's ``Step`` does; the trace points the notebook
pauses at around these steps (``schedule.start``, ``schedule.predicates``) are attached from
outside (``kschedlearn.observe.generic_scheduler``), with the data the views need.
"""

from __future__ import annotations

import attrs

from kschedlearn.sim.runtime import current_goroutine
from kschedlearn.trace import glog


def _now() -> float:
    g = current_goroutine()
    return g.runtime.now if g is not None else 0.0


@attrs.define(eq=False)
class Trace:
    """Go: util.Trace."""

    name: str
    start_time: float
    steps: list[tuple[float, str]] = attrs.field(factory=list)

    def step(self, msg: str) -> None:
        """Go: Trace.Step(msg)."""
        self.steps.append((_now(), msg))

    def total_time(self) -> float:
        """Go: Trace.TotalTime()."""
        return _now() - self.start_time

    def log_if_long(self, threshold: float) -> None:
        """Go: Trace.LogIfLong(threshold): log all steps when the total exceeds ``threshold``."""
        if self.total_time() >= threshold:
            last = self.start_time
            lines = [f'Trace "{self.name}" (started {self.start_time:g}s):']
            for t, msg in self.steps:
                lines.append(f"[{t - self.start_time:g}s] [{t - last:g}s] {msg}")
                last = t
            lines.append(f'"{self.name}" [{_now() - self.start_time:g}s] END')
            glog.infof("%s", "\n".join(lines))


def new_trace(name: str) -> Trace:
    """Go: util.NewTrace(name)."""
    return Trace(name, _now())

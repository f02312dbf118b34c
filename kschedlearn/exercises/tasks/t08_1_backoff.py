"""Task 8.1: the per-pod backoff - ``getBackoff`` doubles up to the maximum.

Go: plugin/pkg/scheduler/util/backoff_utils.go (getBackoff, GetEntry, Gc) and
backoff_utils_test.go (TestBackoff)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/util/backoff_utils.go#L70-L79
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.calls import CallView, describe
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, swap_attr
from kschedlearn.scheduler.util.backoff_utils import BackoffEntry, create_pod_backoff_with_clock

TASK_ID = "8.1"
NAME = "get_backoff"
_REAL_METHOD = BackoffEntry._get_backoff


def _real(entry: BackoffEntry, max_duration: float) -> float:
    return _REAL_METHOD(entry, max_duration)


class _FakeClock:
    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t


def _go_test(fn: Callable[..., Any]) -> Any:
    """Go's TestBackoff: foo 1, 2, 4; bar 1 then +120 s and gc; foo starts over at 1."""
    clock = _FakeClock()
    backoff = create_pod_backoff_with_clock(1.0, 60.0, clock)
    got = []
    for pod_id, advance in (("foo", 0), ("foo", 0), ("foo", 0), ("bar", 120), ("foo", 0)):
        got.append((pod_id, fn(backoff.get_entry(pod_id), backoff.max_duration)))
        clock.t += advance
        backoff.gc()
    return got


def _sequence(start: float, max_duration: float, n: int) -> Callable[[Callable[..., Any]], Any]:
    def run(fn: Callable[..., Any]) -> Any:
        entry = BackoffEntry(backoff=start, last_update=0.0)
        got = [fn(entry, max_duration) for _ in range(n)]
        return got, entry.backoff
    return run


def _cases() -> list[fw.Case]:
    return [
        fw.Case("TestBackoff", "pods foo, foo, foo, bar (then 120 s pass and gc runs), foo",
                [("foo", 1.0), ("foo", 2.0), ("foo", 4.0), ("bar", 1.0), ("foo", 1.0)], _go_test,
                why="Each call returns the current wait and doubles the stored one; gc forgets entries "
                    "idle for longer than the maximum, so foo starts over at 1 s."),
        fw.Case("capped at the maximum", "an entry at 1 s, maximum 60 s, 8 calls",
                ([1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0], 60.0), _sequence(1.0, 60.0, 8),
                why="The doubled value is capped at max_duration: 32 -> 60 (not 64)."),
        fw.Case("start above half the maximum", "an entry at 40 s, maximum 60 s, 2 calls",
                ([40.0, 60.0], 60.0), _sequence(40.0, 60.0, 2),
                why="Return the current value first, then store min(2 * current, max)."),
    ]


#: getBackoff is judged by the wait it returns and the entry's next backoff
CALL_VIEW = CallView(subject=lambda args, kwargs: f"backoff {args[0].backoff:g} s, max {describe(args[1:])}",
                     state=lambda args, kwargs: f"next backoff {args[0].backoff:g} s")


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    def get_backoff(self: BackoffEntry, max_duration: float) -> float:
        return fn(self, max_duration)

    with swap_attr(BackoffEntry, "_get_backoff", get_backoff):
        yield


def _experiment(get: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    clock = _FakeClock()
    backoff = create_pod_backoff_with_clock(1.0, 60.0, clock)
    for attempt in range(1, 9):
        wait = get(backoff.get_entry("default/big-pod"), backoff.max_duration)
        clock.t += wait
        rows.append((f"failed attempt {attempt}", f"retry after {wait:g} s, at t={clock.t:g}"))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "the scheduler's error handler backoff", fn, _real, _experiment, (int, float), NAME,
                   note="A pod that never fits: the error func waits this long before re-queueing it.")


TASK = Task(
    id=TASK_ID, title="PodBackoff getBackoff", slug="pod-backoff", function_name=NAME,
    stub_imports="from kschedlearn.scheduler.util.backoff_utils import BackoffEntry",
    intro=("When scheduling a pod fails, the factory's error function waits before putting it back in "
           "`podQueue`: 1 s, then 2, 4, ... up to 60 s, per pod. Entries idle for longer than the maximum "
           "are garbage-collected, so the wait starts over.\n\nWrite `get_backoff(entry, max_duration)`."),
    go_links=(("backoff_utils.go getBackoff", GO + "plugin/pkg/scheduler/util/backoff_utils.go#L70-L79"),
              ("factory.go MakeDefaultErrorFunc", GO + "plugin/pkg/scheduler/factory/factory.go#L514-L558")),
    hints=("Exponential backoff: hand out the current wait, remember twice as much for next time, never "
           "more than the maximum.",
           "Go's `(*backoffEntry).getBackoff` (backoff_utils.go L70-L79): `duration := entry.backoff; "
           "newDuration := time.Duration(duration) * 2; if newDuration > maxDuration { newDuration = "
           "maxDuration }; entry.backoff = newDuration; return duration`.",
           "`duration = entry.backoff`; `entry.backoff = min(duration * 2, max_duration)`; `return duration`."),
    returns=(int, float), cases=_cases, call_view=CALL_VIEW, patch=_patch, plug_in=_plug_in, solution="nb08:get_backoff",
)

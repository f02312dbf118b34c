"""Task 5.2: the scheduler cache - assume, finishBinding, and expiry in ``cleanupAssumedPods``.

Go: plugin/pkg/scheduler/schedulercache/cache.go (AssumePod, finishBinding, cleanupAssumedPods,
expirePod) and cache_test.go (TestExpirePod, TestAssumePodScheduled)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L354-L377
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.calls import CallView
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, describe_cache, node, pod, requests, swap_attr
from kschedlearn.scheduler.schedulercache.cache import SchedulerCache, _new_scheduler_cache
from kschedlearn.observe.views import cache_state

TASK_ID = "5.2"
NAME = "cleanup_assumed_pods"
_REAL = SchedulerCache._cleanup_assumed_pods
TTL = 10.0


def _state(cache: SchedulerCache) -> tuple[Any, ...]:
    st = cache_state(cache)
    assumed = sorted(p.key for p in st.assumed_pods)
    used = {n.name: (n.requested.milli_cpu, n.requested.memory) for n in st.nodes if n.pods}
    return assumed, used


def _scenario(events: list[tuple[str, str, float]], now: float) -> Callable[[Callable[..., Any]], Any]:
    """events: ("assume"|"finish"|"confirm", pod name, time); then cleanup at ``now``."""
    def run(fn: Callable[..., Any]) -> Any:
        cache = _new_scheduler_cache(TTL, 1.0, None)
        pods = {n: pod(n, requests(100 * (i + 1), 500), node="node") for i, n in enumerate(("p1", "p2", "p3"))}
        for op, name, t in events:
            if op == "assume":
                cache.assume_pod(pods[name])
            elif op == "finish":
                cache._finish_binding(pods[name], t)
            else:
                cache.add_pod(pods[name])
        fn(cache, now)
        return _state(cache)
    return run


def _cases() -> list[fw.Case]:
    return [
        fw.Case("not yet expired", "p1 assumed and bound at t=0 (TTL 10 s); cleanup at t=5",
                (["default/p1"], {"node": (100, 500)}), _scenario([("assume", "p1", 0), ("finish", "p1", 0)], 5),
                why="The deadline is finish time + TTL = 10; t=5 is before it."),
        fw.Case("expired", "p1 assumed and bound at t=0; cleanup at t=11", ([], {}),
                _scenario([("assume", "p1", 0), ("finish", "p1", 0)], 11),
                why="After the deadline the pod leaves assumedPods and its node gives its resources back."),
        fw.Case("deadline is exclusive", "p1 bound at t=0; cleanup at exactly t=10",
                (["default/p1"], {"node": (100, 500)}), _scenario([("assume", "p1", 0), ("finish", "p1", 0)], 10),
                why="Go's now.After(deadline) is a strict comparison."),
        fw.Case("binding in flight", "p1 assumed, bind not finished; cleanup at t=1000",
                (["default/p1"], {"node": (100, 500)}), _scenario([("assume", "p1", 0)], 1000),
                why="Without finishBinding there is no deadline; Go skips the pod with a warning."),
        fw.Case("TestExpirePod", "p1 bound at t=0, p2 bound at t=5; cleanup at t=15",
                (["default/p2"], {"node": (200, 500)}),
                _scenario([("assume", "p1", 0), ("finish", "p1", 0), ("assume", "p2", 5), ("finish", "p2", 5)], 15),
                why="Only p1 (deadline 10) is expired; p2's deadline is 15 and 15 is not after 15."),
        fw.Case("confirmed pods stay", "p1 assumed, bound at t=0, then confirmed by the informer; cleanup at t=100",
                ([], {"node": (100, 500)}),
                _scenario([("assume", "p1", 0), ("finish", "p1", 0), ("confirm", "p1", 1)], 100),
                why="AddPod moved p1 out of assumedPods, so cleanup leaves it alone."),
    ]


def _cache(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    return describe_cache(args[0] if args else kwargs["cache"])


#: a sweep is judged by the cache it leaves
CALL_VIEW = CallView(state=_cache, returns=False)


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    def cleanup(self: SchedulerCache, now: float) -> None:
        fn(self, now)

    with swap_attr(SchedulerCache, "_cleanup_assumed_pods", cleanup):
        yield


def _experiment(cleanup: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    cache = _new_scheduler_cache(30.0, 1.0, None)
    cache.add_node(node("machine1", 4000, 1 << 30))
    a, b = pod("web-1", requests(500, 0), node="machine1"), pod("web-2", requests(700, 0), node="machine1")
    cache.assume_pod(a)
    cache._finish_binding(a, 0.0)
    cache.assume_pod(b)
    with _patch(cleanup):
        for t in (10.0, 31.0, 60.0):
            if t == 60.0:
                cache._finish_binding(b, 20.0)
            cache._cleanup_assumed_pods(t)
            assumed, used = _state(cache)
            rows.append((f"cleanupAssumedPods at t={t:g}", f"assumed={assumed} used={used}"))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "the scheduler cache", fn, _REAL, _experiment, type(None), NAME,
                   note="TTL 30 s. web-1 is bound at t=0 and never confirmed (its watch event is "
                        "lost); web-2's bind is still in flight until its binding finishes at t=20.")


TASK = Task(
    id=TASK_ID, title="cache cleanupAssumedPods", slug="cache-expiry", function_name=NAME,
    stub_imports="from kschedlearn.scheduler.schedulercache.cache import SchedulerCache",
    intro=("`scheduleOne` *assumes* a pod onto its node in the cache before the bind call returns, so "
           "the next pod already sees the resources as taken. `finishBinding` starts a TTL (30 s by "
           "default); if the informer does not confirm the pod (`AddPod`) before the deadline, the "
           "1-second sweep `cleanupAssumedPods` expires it and frees its resources.\n\n"
           "Write `cleanup_assumed_pods(cache, now)`."),
    go_links=(("cache.go cleanupAssumedPods", GO + "plugin/pkg/scheduler/schedulercache/cache.go#L354-L377"),
              ("cache.go finishBinding", GO + "plugin/pkg/scheduler/schedulercache/cache.go#L134-L152"),
              ("cache_test.go TestExpirePod", GO + "plugin/pkg/scheduler/schedulercache/cache_test.go#L134-L188")),
    hints=("Only pods that are still assumed can expire, and only once their binding finished: that "
           "is when the deadline was set.",
           "Go's `cleanupAssumedPods` (cache.go L354-L377): `for key := range cache.assumedPods`, look up "
           "`cache.podStates[key]`, `if !ps.bindingFinished { continue }`, `if now.After(*ps.deadline)` "
           "then `cache.expirePod(key, ps)`.",
           "`for key in list(cache._assumed_pods): ps = cache._pod_states[key]`; `if not "
           "ps.binding_finished: continue`; `if now > ps.deadline: cache._expire_pod(key, ps)` - "
           "iterate over a copy because expiring deletes from the dict."),
    returns=type(None), cases=_cases, call_view=CALL_VIEW, patch=_patch, plug_in=_plug_in, solution="nb05:cleanup_assumed_pods",
    quiz="cache",
)

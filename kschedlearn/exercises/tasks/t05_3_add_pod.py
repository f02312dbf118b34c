"""Task 5.3: the scheduler cache's ``AddPod`` - confirm an assumed pod, re-add an expired one,
add an unknown one.

Go: plugin/pkg/scheduler/schedulercache/cache.go (AddPod) and cache_test.go
(TestAddPodWillConfirm, TestAddPodAfterExpiration, TestExpireAddUpdatePod)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L214-L246
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.calls import CallView
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, describe_cache, pod, requests, swap_attr
from kschedlearn.scheduler.schedulercache.cache import SchedulerCache, _new_scheduler_cache
from kschedlearn.scheduler.schedulercache.node_info import CacheError
from kschedlearn.observe.views import cache_state

TASK_ID = "5.3"
NAME = "add_pod"
_REAL = SchedulerCache.add_pod
TTL = 10.0


def _state(cache: SchedulerCache) -> tuple[Any, ...]:
    """(assumed keys, {node: (milli cpu, memory, [pods])}, {pod: stored node})."""
    st = cache_state(cache)
    assumed = sorted(p.key for p in st.assumed_pods)
    used = {n.name: (n.requested.milli_cpu, n.requested.memory, sorted(n.pods)) for n in st.nodes if n.pods}
    stored = {k: s.pod.spec.node_name for k, s in sorted(cache._pod_states.items())}
    return assumed, used, stored


def _pods() -> dict[str, Any]:
    """Go: makeBasePod(nodeName, "test-1", "100m", "500", ...) and test-2 (200m, 1Ki)."""
    return {"test-1": pod("test-1", requests(100, 500), node="node"),
            "test-2": pod("test-2", requests(200, 1024), node="node"),
            "test-1@other": pod("test-1", requests(100, 500), node="other")}


def _scenario(events: list[tuple[str, str]]) -> Callable[[Callable[..., Any]], Any]:
    """events: ("assume" | "add" | "cleanup", pod); assume = assumeAndFinishBinding at t=0;
    cleanup runs cleanupAssumedPods at t = 2 * TTL (everything still assumed expires)."""
    def run(fn: Callable[..., Any]) -> Any:
        cache = _new_scheduler_cache(TTL, 1.0, None)
        pods = _pods()
        for op, name in events:
            if op == "assume":
                cache.assume_pod(pods[name])
                cache._finish_binding(pods[name], 0.0)
            elif op == "add":
                fn(cache, pods[name])
            else:
                cache._cleanup_assumed_pods(2 * TTL)
        return _state(cache)
    return run


def _cases() -> list[fw.Case]:
    return [
        fw.Case("TestAddPodWillConfirm", "test-1 and test-2 assumed on node; AddPod(test-1); cleanup at 2*TTL",
                ([], {"node": (100, 500, ["default/test-1"])}, {"default/test-1": "node"}),
                _scenario([("assume", "test-1"), ("assume", "test-2"), ("add", "test-1"), ("cleanup", "")]),
                why="Misconception: 'the informer's Add is only a notification, the pod stays assumed'. AddPod "
                    "*confirms* an assumed pod: it leaves assumedPods and its deadline is cleared, so the "
                    "expiry sweep cannot remove it (only the never-confirmed test-2 expires)."),
        fw.Case("confirm counts once", "test-1 assumed on node (100m, 500); AddPod(test-1)",
                ([], {"node": (100, 500, ["default/test-1"])}, {"default/test-1": "node"}),
                _scenario([("assume", "test-1"), ("add", "test-1")]),
                why="Misconception: 'AddPod always adds'. The assumed pod is already counted on its node "
                    "(AssumePod did that); confirming it must not add its requests a second time."),
        fw.Case("TestAddPodAfterExpiration", "test-1 assumed on node, expired by the sweep; then AddPod(test-1)",
                ([], {"node": (100, 500, ["default/test-1"])}, {"default/test-1": "node"}),
                _scenario([("assume", "test-1"), ("cleanup", ""), ("add", "test-1")]),
                why="Misconception: 'an expired pod is gone for good'. When the late Add finally arrives the "
                    "pod is unknown again, so AddPod adds it back - the cache is right again."),
        fw.Case("unknown pod", "an empty cache; AddPod(test-2) (bound by another scheduler)",
                ([], {"node": (200, 1024, ["default/test-2"])}, {"default/test-2": "node"}),
                _scenario([("add", "test-2")]),
                why="A pod the cache never assumed (another scheduler, or before this one started) is added "
                    "and counted on its node, not assumed."),
        fw.Case("assumed on another node", "test-1 assumed on 'other'; AddPod(test-1 on node)",
                ([], {"node": (100, 500, ["default/test-1"])}, {"default/test-1": "other"}),
                _scenario([("assume", "test-1@other"), ("add", "test-1")]),
                why="Go moves the pod's resources: removePod(the assumed copy) then addPod(pod). 1.6 quirk: "
                    "podStates keeps the stale assumed copy (node 'other') - reproduce Go, do not fix it."),
        fw.Case("already added", "test-1 added, then AddPod(test-1) again",
                None, _scenario([("add", "test-1"), ("add", "test-1")]), expect_raises=CacheError,
                why="A second Add for a pod in added state is an error: "
                    "'pod was already in added state. Pod key: default/test-1'."),
    ]


def _cache(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    return describe_cache(args[0] if args else kwargs["cache"])


#: an AddPod is judged by the cache it leaves (confirmed, re-added, counted once)
CALL_VIEW = CallView(state=_cache, returns=False)


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    def add_pod(self: SchedulerCache, p: Any) -> None:
        fn(self, p)

    with swap_attr(SchedulerCache, "add_pod", add_pod):
        yield


def _experiment(add: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    cache = _new_scheduler_cache(30.0, 1.0, None)
    web1 = pod("web-1", requests(500, 0), node="node-1")
    web2 = pod("web-2", requests(700, 0), node="node-1")
    cache.assume_pod(web1)
    cache._finish_binding(web1, 0.0)
    cache.assume_pod(web2)
    cache._finish_binding(web2, 0.0)
    for label, step in (("watch: web-1 bound (t=2)", lambda: add(cache, web1)),
                        ("sweep at t=31: web-2 never confirmed", lambda: cache._cleanup_assumed_pods(31.0)),
                        ("watch: web-2's late Add (t=49)", lambda: add(cache, web2)),
                        ("watch: another scheduler's db-0", lambda: add(cache, pod("db-0", requests(100, 0), node="node-1")))):
        step()
        assumed, used, _ = _state(cache)
        rows.append((label, f"assumed={assumed} node-1={used.get('node-1', (0, 0, []))[0]}m cpu"))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "the scheduler cache", fn, _REAL, _experiment, type(None), NAME,
                   note="TTL 30 s. web-1 is confirmed at once; web-2's watch event is late, so it expires and is added back.")


def _scenario_plugin(fn: Callable[..., Any], scenario: str | None, *, seed: int, seconds: float) -> Any:
    from kschedlearn.exercises.capstone import run_capstone

    names = (scenario,) if scenario else ("three-nodes", "assume-expiry")
    return run_capstone(TASK_ID, fn, names, seed=seed, seconds=seconds)


TASK = Task(
    id=TASK_ID, title="cache AddPod", slug="cache-add-pod", function_name=NAME,
    stub_imports=("from kschedlearn.api.v1 import Pod\n"
                  "from kschedlearn.scheduler.schedulercache.cache import SchedulerCache, _PodState\n"
                  "from kschedlearn.scheduler.schedulercache.node_info import CacheError, get_pod_key"),
    intro=("The end of the seed article's loop: the assigned-pod informer delivers the bound pod and its "
           "handler calls the cache's `AddPod`. Three cases: the pod is *assumed* (this scheduler placed it "
           "and is waiting) - confirm it; the pod is unknown because its assumption *expired* (the watch was "
           "late) - add it back; or it is unknown because someone else placed it - add it.\n\n"
           "Write `add_pod(cache, pod)`. `plug_in_scenario(\"5.3\", add_pod)` runs three-nodes (a confirm) and "
           "assume-expiry (a re-add after expiry) with your function and compares every trace stage."),
    go_links=(("cache.go AddPod", GO + "plugin/pkg/scheduler/schedulercache/cache.go#L214-L246"),
              ("cache_test.go TestAddPodWillConfirm", GO + "plugin/pkg/scheduler/schedulercache/cache_test.go#L190-L240"),
              ("cache_test.go TestAddPodAfterExpiration", GO + "plugin/pkg/scheduler/schedulercache/cache_test.go#L242-L286")),
    hints=("Look the pod up in podStates and assumedPods: assumed → confirm (and fix the node if it moved); "
           "unknown → add; already added → error.",
           "Go's AddPod (cache.go L214-L246): `currState, ok := cache.podStates[key]; switch { case ok && "
           "cache.assumedPods[key]: if currState.pod.Spec.NodeName != pod.Spec.NodeName { cache.removePod(currState.pod); "
           "cache.addPod(pod) }; delete(cache.assumedPods, key); cache.podStates[key].deadline = nil; case !ok: "
           "cache.addPod(pod); cache.podStates[key] = &podState{pod: pod}; default: return fmt.Errorf(\"pod was "
           "already in added state. Pod key: %v\", key) }`.",
           "`key = get_pod_key(pod)`; `with cache._mu: curr = cache._pod_states.get(key)`; `if curr is not None and "
           "cache._assumed_pods.get(key, False): ...; del cache._assumed_pods[key]; cache._pod_states[key].deadline = None`; "
           "`elif curr is None: cache._add_pod(pod); cache._pod_states[key] = _PodState(pod=pod)`; `else: raise CacheError(...)`."),
    returns=type(None), cases=_cases, call_view=CALL_VIEW, patch=_patch, plug_in=_plug_in, solution="nb05:add_pod",
    scenario_plugin=_scenario_plugin,
)

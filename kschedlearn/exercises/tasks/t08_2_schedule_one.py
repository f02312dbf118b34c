"""Task 8.2 (the capstone): ``scheduleOne`` itself.

Go: plugin/pkg/scheduler/scheduler.go (scheduleOne) and scheduler_test.go (TestScheduler:
"bind assumed pod scheduled", "error pod failed scheduling", "error bind forget pod assumed
pod", the deleting pod case; TestSchedulerNoPhantomPodAfterExpire's binding goroutine)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225

The checks run the learner's function on the simulated runtime with Go's fakes (mock algorithm,
fake binder, a cache that records its calls, a real event recorder); the scenario plug-in runs
three whole scenarios and compares every trace stage (``trace_compare``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


from kschedlearn import sim
from kschedlearn.api.v1 import Binding, EventSource, ObjectMeta, Pod, PodCondition, PodSpec
from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.calls import CallView
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, describe_cache, swap_attr
from kschedlearn.scheduler.schedulercache.node_info import CacheError
from kschedlearn.scheduler.scheduler import Config, Scheduler
from kschedlearn.scheduler.testing import FakeNodeLister

TASK_ID = "8.2"
NAME = "schedule_one"
_REAL = Scheduler.schedule_one
SCENARIOS = ("three-nodes", "bind-failure", "assume-expiry")


class _MockAlgorithm:
    """Go: mockScheduler{machine, err}."""

    def __init__(self, machine: str, err: Exception | None = None) -> None:
        self.machine, self.err, self.calls = machine, err, 0

    def schedule(self, pod: Pod, node_lister: Any) -> str:
        self.calls += 1
        if self.err is not None:
            raise self.err
        return self.machine


class _FakeCache:
    """Go: schedulertesting.FakeCache; records each call with the pod's node name."""

    def __init__(self, assume_error: Exception | None = None) -> None:
        self.calls: list[tuple[str, str, str]] = []
        self.assume_error = assume_error

    def assume_pod(self, pod: Pod) -> None:
        self.calls.append(("assume", pod.metadata.name, pod.spec.node_name))
        if self.assume_error is not None:
            raise self.assume_error

    def finish_binding(self, pod: Pod) -> None:
        self.calls.append(("finish_binding", pod.metadata.name, pod.spec.node_name))

    def forget_pod(self, pod: Pod) -> None:
        self.calls.append(("forget", pod.metadata.name, pod.spec.node_name))


class _Updater:
    def __init__(self, fail: bool = False) -> None:
        self.updates: list[tuple[str, str, str]] = []
        self.fail = fail

    def update(self, pod: Pod, condition: PodCondition) -> None:
        self.updates.append((condition.type, condition.status, condition.reason))
        if self.fail:
            raise RuntimeError("apiserver down")


class _Binder:
    def __init__(self, err: Exception | None) -> None:
        self.bound: list[str] = []
        self.err = err

    def bind(self, binding: Binding) -> None:
        self.bound.append(f"{binding.metadata.name} -> {binding.target.kind}/{binding.target.name}")
        if self.err is not None:
            raise self.err


ERR_S = RuntimeError("scheduler")
ERR_B = RuntimeError("binder")


def _pod(name: str = "foo", deleting: bool = False) -> Pod:
    return Pod(metadata=ObjectMeta(name=name, namespace="default", deletion_timestamp=1.0 if deleting else None),
               spec=PodSpec(node_name=""))


def _scene(fn: Callable[..., Any], *, algo_err: Exception | None = None, bind_err: Exception | None = None,
           deleting: bool = False, assume_err: Exception | None = None, updater_fails: bool = False,
           before_goroutines: bool = False) -> dict[str, Any]:
    """Go: TestScheduler's body — one scheduleOne call, then the goroutines it started."""
    from kschedlearn.client_go.tools.record.event import new_broadcaster

    rt = sim.Runtime(seed=0)
    broadcaster = new_broadcaster(rt)
    events: list[tuple[str, str, str]] = []
    broadcaster.start_event_watcher(lambda e: events.append((e.type, e.reason, e.message)))
    cache, binder, updater = _FakeCache(assume_err), _Binder(bind_err), _Updater(updater_fails)
    algo = _MockAlgorithm("machine1", algo_err)
    errors: list[tuple[str, str, str]] = []
    config = Config(
        scheduler_cache=cache, node_lister=FakeNodeLister([]), algorithm=algo, binder=binder,
        pod_condition_updater=updater, next_pod=lambda: _pod(deleting=deleting),
        error=lambda p, err: errors.append((p.metadata.name, p.spec.node_name, str(err))),
        stop_everything=sim.Chan(), recorder=broadcaster.new_recorder(EventSource(component="scheduler")),
    )
    sched = Scheduler(config=config)
    rt.run_fn(fn, sched)
    seen: dict[str, Any] = {"cache_right_after": list(cache.calls), "bound_right_after": list(binder.bound)}
    rt.run()
    crashes = [c.message for c in rt.crashes]
    if crashes:  # the binding goroutine raised: the learner's code, so report it as theirs
        raise RuntimeError(f"a goroutine your schedule_one started crashed: {crashes[0]}")
    seen.update(cache=cache.calls, bound=binder.bound, events=events, conditions=updater.updates,
                errors=errors, algorithm_calls=algo.calls)
    return seen


def _facet(name: str, **scene: Any) -> Callable[[Callable[..., Any]], Any]:
    return lambda fn: _scene(fn, **scene)[name]


def _cases() -> list[fw.Case]:
    ok = "a pod foo, the algorithm picks machine1, the bind succeeds"
    bad_fit = "a pod foo, the algorithm returns an error 'scheduler'"
    bad_bind = "a pod foo, the algorithm picks machine1, the bind fails with 'binder'"
    return [
        fw.Case("bind: the Binding", ok, ["foo -> Node/machine1"], _facet("bound"),
                why="Go: TestScheduler 'bind assumed pod scheduled' - POST a Binding named after the pod "
                    "whose target is the Node chosen by the algorithm."),
        fw.Case("bind: assume a copy with NodeName", ok,
                [("assume", "foo", "machine1"), ("finish_binding", "foo", "machine1")], _facet("cache"),
                why="Misconception: 'assume the pod as it came from the queue'. The cache files a pod under "
                    "pod.spec.node_name, so scheduleOne assumes a *copy* whose NodeName is the chosen host "
                    "(Go: assumed := *pod; assumed.Spec.NodeName = dest), then FinishBinding after the bind."),
        fw.Case("bind: Scheduled event", ok, [("Normal", "Scheduled", "Successfully assigned foo to machine1")],
                _facet("events"), why="After a successful bind Go records a Normal 'Scheduled' event."),
        fw.Case("bind runs in a goroutine", "the same pod; what happened when scheduleOne returned",
                ([("assume", "foo", "machine1")], []),
                lambda fn: (lambda s: (s["cache_right_after"], s["bound_right_after"]))(_scene(fn)),
                why="Misconception: 'bind, then return'. scheduleOne assumes the pod and returns at once; the "
                    "Binding is POSTed by a goroutine it started (sim.go), so the loop already pops the next "
                    "pod while the API call is in flight - that is why the pod is assumed first."),
        fw.Case("error: the error func", bad_fit, [("foo", "", "scheduler")], _facet("errors", algo_err=ERR_S),
                why="Go: TestScheduler 'error pod failed scheduling' - a failed Schedule hands the original "
                    "pod and the error to config.Error (which backs off and re-queues it)."),
        fw.Case("error: event and condition", bad_fit,
                ([("Warning", "FailedScheduling", "scheduler")], [("PodScheduled", "False", "Unschedulable")], []),
                lambda fn: (lambda s: (s["events"], s["conditions"], s["cache"]))(_scene(fn, algo_err=ERR_S)),
                why="A Warning FailedScheduling event with the error text, the PodScheduled=False/Unschedulable "
                    "condition, and nothing assumed."),
        fw.Case("bind error: forget the assumed pod", bad_bind,
                [("assume", "foo", "machine1"), ("finish_binding", "foo", "machine1"), ("forget", "foo", "machine1")],
                _facet("cache", bind_err=ERR_B),
                why="Misconception: 'a failed bind needs no cache cleanup'. Go: TestScheduler 'error bind "
                    "forget pod assumed pod' - FinishBinding, then ForgetPod(assumed), or the cache keeps "
                    "counting a pod that is on no node until the 30 s TTL expires it."),
        fw.Case("bind error: event, condition, error func", bad_bind,
                ([("Normal", "FailedScheduling", "Binding rejected: binder")],
                 [("PodScheduled", "False", "BindingRejected")], [("foo", "", "binder")]),
                lambda fn: (lambda s: (s["events"], s["conditions"], s["errors"]))(_scene(fn, bind_err=ERR_B)),
                why="A Normal 'FailedScheduling' event 'Binding rejected: <err>', the BindingRejected "
                    "condition, and config.Error gets the original pod (without NodeName)."),
        fw.Case("deleting pod", "a pod with a deletionTimestamp",
                ([("Warning", "FailedScheduling", "skip schedule deleting pod: default/foo")], 0, []),
                lambda fn: (lambda s: (s["events"], s["algorithm_calls"], s["cache"]))(_scene(fn, deleting=True)),
                why="Go skips a pod that is being deleted: one Warning event, no Schedule call, nothing assumed."),
        fw.Case("AssumePod fails", "the algorithm picks machine1 but AssumePod returns an error",
                ([], []), lambda fn: (lambda s: (s["bound"], s["events"]))(
                    _scene(fn, assume_err=CacheError("pod foo state wasn't initial but get assumed"))),
                why="Go logs the AssumePod error and returns: no bind, no event, no requeue."),
        fw.Case("condition update fails", bad_fit, [("Warning", "FailedScheduling", "scheduler")],
                _facet("events", algo_err=ERR_S, updater_fails=True),
                why="Go discards PodConditionUpdater.Update's error; scheduleOne must not crash on it."),
    ]


def _after(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    from kschedlearn import sim  # noqa: PLC0415

    sched = args[0] if args else kwargs["sched"]
    return f"returned at t={sim.now():g}s; cache: {describe_cache(sched.config.scheduler_cache)}"


#: a scheduleOne is judged by when it returned (a bind made in line returns later) and the cache
CALL_VIEW = CallView(subject=lambda args, kwargs: "", state=_after, returns=False)


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    def schedule_one(self: Scheduler) -> None:
        fn(self)

    with swap_attr(Scheduler, "schedule_one", schedule_one):
        yield


def _experiment(one: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    for label, scene in (("bind succeeds", {}), ("Schedule fails", {"algo_err": ERR_S}),
                         ("bind fails", {"bind_err": ERR_B})):
        s = _scene(one, **scene)
        rows.append((f"{label}: cache calls", ", ".join(c[0] for c in s["cache"]) or "none"))
        rows.append((f"{label}: events", "; ".join(f"{r}: {m}" for _, r, m in s["events"]) or "none"))
        rows.append((f"{label}: error func", "called" if s["errors"] else "not called"))


def plug_in_for(task_id: str) -> Callable[..., fw.PlugInReport]:
    """The plug-in experiment, reported under ``task_id`` (8.2 and its variants 8.2a / 8.2b)."""

    def plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
        return compare(task_id, "scheduleOne", fn, _REAL, _experiment, type(None), NAME,
                       note="Go's TestScheduler fakes: the algorithm always picks machine1; the binder fails on request.")

    return plug_in


def scenario_plugin_for(task_id: str) -> Callable[..., Any]:
    """The stage-for-stage judge of whole scenarios, reported under ``task_id``."""

    def scenario_plugin(fn: Callable[..., Any], scenario: str | None, *, seed: int, seconds: float) -> Any:
        from kschedlearn.exercises.capstone import run_capstone

        names = (scenario,) if scenario else SCENARIOS
        return run_capstone(task_id, fn, names, seed=seed, seconds=seconds)

    return scenario_plugin


TASK = Task(
    id=TASK_ID, title="scheduleOne", slug="schedule-one", function_name=NAME,
    stub_imports=("import attrs\n\nfrom kschedlearn import sim\n"
                  "from kschedlearn.api.v1 import (CONDITION_FALSE, EVENT_TYPE_NORMAL, EVENT_TYPE_WARNING,\n"
                  "                                POD_REASON_UNSCHEDULABLE, POD_SCHEDULED, Binding, ObjectMeta,\n"
                  "                                ObjectReference, PodCondition)\n"
                  "from kschedlearn.scheduler.metrics.metrics import since_in_microseconds\n"
                  "from kschedlearn.scheduler.schedulercache.node_info import CacheError\n"
                  "from kschedlearn.scheduler.scheduler import Scheduler\n"
                  "from kschedlearn.trace import glog"),
    intro=("The capstone. `scheduleOne` is the whole seed article in one Go function of some 60 lines: take the next pod from "
           "`podQueue`, run the algorithm, *assume* a copy of the pod on the chosen node in the cache, and "
           "start a goroutine that POSTs the Binding - so the loop can take the next pod while the API "
           "call is in flight. Two error paths: a failed `Schedule` (a FitError, or no nodes at all) records an event, asks for the "
           "PodScheduled=False condition and hands the pod to the error func (backoff, requeue); a failed bind "
           "additionally *forgets* the assumed pod.\n\nWrite `schedule_one(sched)`. "
           "`plug_in_scenario(\"8.2\", schedule_one)` then runs the guided tour (three-nodes), bind-failure "
           "and assume-expiry with your scheduleOne and compares every trace stage with the real run."),
    go_links=(("scheduler.go scheduleOne", GO + "plugin/pkg/scheduler/scheduler.go#L148-L225"),
              ("scheduler_test.go TestScheduler", GO + "plugin/pkg/scheduler/scheduler_test.go#L100-L198"),
              ("schedulercache/interface.go Cache (AssumePod, FinishBinding, ForgetPod)",
               GO + "plugin/pkg/scheduler/schedulercache/interface.go#L24-L96")),
    hints=("Three phases: get a pod and a host (or fail); assume optimistically; bind in the background. "
           "Both failure paths - the algorithm's and the binding's - end in the error func plus an event plus a "
           "PodScheduled=False condition; a pod being deleted gets only an event, an AssumePod error only a log line.",
           "Go's scheduleOne (scheduler.go L148-L225): `pod := s.config.NextPod()`, deletion check, "
           "`dest, err := s.config.Algorithm.Schedule(pod, s.config.NodeLister)`, on error `s.config.Error(pod, err)`, "
           "`Recorder.Eventf(pod, v1.EventTypeWarning, \"FailedScheduling\", \"%v\", err)`, condition update; "
           "then `assumed := *pod; assumed.Spec.NodeName = dest; SchedulerCache.AssumePod(&assumed)`, "
           "and `go func() { ... Binder.Bind(b); FinishBinding(&assumed); if err != nil { ForgetPod(&assumed); "
           "Error(pod, err); Eventf(... \"Binding rejected: %v\" ...); condition BindingRejected; return }; "
           "Eventf(pod, Normal, \"Scheduled\", \"Successfully assigned %v to %v\", pod.Name, dest) }()`.",
           "`assumed = attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name=dest))`; "
           "`cfg.scheduler_cache.assume_pod(assumed)`; define `def bind(): ...` inside schedule_one (it sees "
           "pod, assumed, dest) and end with `sim.go(bind, name=f\"bind {pod.metadata.namespace}/{pod.metadata.name}\")` "
           "- not `bind()`."),
    returns=type(None), cases=_cases, call_view=CALL_VIEW, patch=_patch, plug_in=plug_in_for(TASK_ID),
    solution="nb08:schedule_one", scenario_plugin=scenario_plugin_for(TASK_ID),
)

"""Task 8.2a (the capstone, first rung): ``scheduleOne`` with blanks to fill.

Go: plugin/pkg/scheduler/scheduler.go (scheduleOne)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225

Faded scaffolding (issue 22 item 3): 8.2a gives the whole function with ten key expressions
left as ``___``; 8.2 gives the contract only; 8.2b only Go's function and the behaviours it must
show. All three are judged alike — the same checks (Go's TestScheduler cases) and the same
stage-for-stage comparison of three whole scenarios (``plug_in_scenario``).
"""

from __future__ import annotations

from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks import t08_2_schedule_one as base

TASK_ID = "8.2a"

STUB = '''
def schedule_one(sched: Scheduler) -> None:
    """Schedule one pod: fill in the ten blanks (``___``), nothing else needs changing.

    Go: (*Scheduler).scheduleOne, scheduler.go#L148-L225 — open it beside this cell: each
    blank is the Go expression at the same place, in snake_case. ``no_blanks_left()`` stops with
    the lines that still have a ``___``; once none is left it does nothing.
    """
    no_blanks_left()  # TODO(task 8.2a): fill in every ___ below, then run check("8.2a", schedule_one)
    cfg = sched.config
    pod = ___  # 1. the next pod from podQueue (it blocks until there is one)
    if ___:  # 2. the pod is already being deleted
        cfg.recorder.eventf(pod, EVENT_TYPE_WARNING, "FailedScheduling", "skip schedule deleting pod: %v/%v",
                            pod.metadata.namespace, pod.metadata.name)
        return
    start = sim.now()
    try:
        dest = ___  # 3. run the scheduling algorithm: which node?
    except Exception as err:  # noqa: BLE001 - Go's returned error
        cfg.error(___, err)  # 4. the error function gets which pod?
        cfg.recorder.eventf(pod, EVENT_TYPE_WARNING, "FailedScheduling", "%v", err)
        try:
            cfg.pod_condition_updater.update(pod, PodCondition(
                type=POD_SCHEDULED, status=CONDITION_FALSE, reason=POD_REASON_UNSCHEDULABLE, message=str(err)))
        except Exception:  # noqa: BLE001 - Go ignores Update's error
            pass
        return
    cfg.metrics.scheduling_algorithm_latency.observe(since_in_microseconds(start, sim.now()))
    assumed = ___  # 5. Go's `assumed := *pod; assumed.Spec.NodeName = dest` (attrs.evolve)
    try:
        cfg.scheduler_cache.assume_pod(___)  # 6. which pod does the cache count?
    except CacheError as err:
        glog.errorf("scheduler cache AssumePod failed: %v", err)
        return

    def bind() -> None:
        e2e = since_in_microseconds(start, sim.now())
        b = Binding(metadata=ObjectMeta(namespace=pod.metadata.namespace, name=pod.metadata.name),
                    target=ObjectReference(kind="Node", name=___))  # 7. bound to which node?
        binding_start = sim.now()
        bind_err: BaseException | None = None
        try:
            cfg.binder.bind(b)
        except Exception as err:  # noqa: BLE001 - Go's returned error
            bind_err = err
        try:
            cfg.scheduler_cache.___(assumed)  # 8. the binding is over, whatever its outcome
        except CacheError as err:
            glog.errorf("scheduler cache FinishBinding failed: %v", err)
        if bind_err is not None:
            try:
                cfg.scheduler_cache.___(assumed)  # 9. undo the cache's count of the pod
            except CacheError as err:
                glog.errorf("scheduler cache ForgetPod failed: %v", err)
            cfg.error(pod, bind_err)
            cfg.recorder.eventf(pod, EVENT_TYPE_NORMAL, "FailedScheduling", "Binding rejected: %v", bind_err)
            try:
                cfg.pod_condition_updater.update(pod, PodCondition(
                    type=POD_SCHEDULED, status=CONDITION_FALSE, reason="BindingRejected"))
            except Exception:  # noqa: BLE001 - Go ignores Update's error
                pass
            cfg.metrics.e2e_scheduling_latency.observe(e2e)
            return
        cfg.metrics.binding_latency.observe(since_in_microseconds(binding_start, sim.now()))
        cfg.recorder.eventf(pod, EVENT_TYPE_NORMAL, "Scheduled", "Successfully assigned %v to %v",
                            pod.metadata.name, dest)
        cfg.metrics.e2e_scheduling_latency.observe(e2e)

    ___  # 10. Go's `go func() { ... }()`: start bind without waiting for it (sim.go, name=...)
'''

TASK = Task(
    id=TASK_ID, title="scheduleOne, with blanks", slug="schedule-one-blanks", function_name=base.NAME,
    stub_imports=base.TASK.stub_imports + "\nfrom kschedlearn.exercises.blanks import ___, no_blanks_left",
    intro=("The capstone's first rung: `scheduleOne` is written out for you with **ten blanks** (`___`) at the "
           "places where the seed article's story happens — taking the pod from podQueue, running the "
           "algorithm, the copy that is *assumed*, the goroutine that binds, and what a refused binding "
           "undoes. Fill them in from the Go source; the checks and the stage-for-stage comparison are "
           "exactly those of exercise 8.2. Then try [8.2](08-2-schedule-one.ipynb) (the contract only) and "
           "[8.2b](08-2b-schedule-one-spec.ipynb) (the bare specification)."),
    go_links=base.TASK.go_links,
    hints=("Each blank is one Go expression at the same place in scheduleOne, in snake_case: "
           "`s.config.NextPod()` is `cfg.next_pod()`.",
           "Blanks 3, 5 and 10: `cfg.algorithm.schedule(pod, cfg.node_lister)`; "
           "`attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name=dest))`; `sim.go(bind, name=...)`.",
           "Blanks 8 and 9 are the cache's `finish_binding` and `forget_pod`; blanks 4, 6 and 7 are `pod`, "
           "`assumed` and `dest` - which one goes where is the point of the exercise."),
    returns=type(None), cases=base._cases, call_view=base.CALL_VIEW, patch=base._patch,
    plug_in=base.plug_in_for(TASK_ID),
    solution="nb08:schedule_one", scenario_plugin=base.scenario_plugin_for(TASK_ID), stub=STUB,
)

"""Task 8.2b (the capstone, last rung): ``scheduleOne`` from the bare specification.

Go: plugin/pkg/scheduler/scheduler.go (scheduleOne)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/scheduler.go#L148-L225

No scaffold and no recipe: Go's function (linked) and the behaviours it must show. Judged like
8.2 and 8.2a: Go's TestScheduler cases, then three whole scenarios compared stage for stage.
"""

from __future__ import annotations

from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks import t08_2_schedule_one as base

TASK_ID = "8.2b"

STUB = '''
def schedule_one(sched: Scheduler) -> None:
    """Go's scheduleOne, for kschedlearn's Scheduler.

    Go: (*Scheduler).scheduleOne, scheduler.go#L148-L225 — the whole specification. Mirror it:
    one Python statement per Go statement, in Go's order, Go names in snake_case
    (``s.config.SchedulerCache`` is ``sched.config.scheduler_cache``); a Go ``error`` result is a
    raised exception; ``go func(){...}()`` is ``sim.go(fn, name=...)``; ``time.Now()`` is
    ``sim.now()``; Go's copy of a struct value is ``attrs.evolve``.

    The behaviours it must show (each is one check):

    1. bind: the Binding names the pod and targets the chosen Node;
    2. the cache assumes a copy of the pod that carries the chosen node, then finishes the binding;
    3. a successful binding records a Normal "Scheduled" event;
    4. the binding runs in a goroutine: when scheduleOne returns, the pod is assumed, not yet bound;
    5. a failed Schedule hands the pod to the error function;
    6. ... with a Warning event and the PodScheduled=False / Unschedulable condition, nothing assumed;
    7. a failed binding forgets the assumed pod;
    8. ... with a Normal event, the BindingRejected condition and the error function;
    9. a pod being deleted is skipped with a Warning event: no Schedule call, nothing assumed;
    10. an AssumePod error is logged and ends the attempt: no binding, no event;
    11. an error from the condition update does not stop scheduleOne.
    """
    # TODO(task 8.2b): write schedule_one from the Go source, then run check("8.2b", schedule_one)
    raise NotImplementedError("task 8.2b: schedule_one is not written yet")
'''

TASK = Task(
    id=TASK_ID, title="scheduleOne, from the bare specification", slug="schedule-one-spec",
    function_name=base.NAME, stub_imports=base.TASK.stub_imports,
    intro=("The capstone's last rung: only Go's `scheduleOne` and the list of behaviours it must show. "
           "No scaffold, no contract in kschedlearn's words — read the Go function and mirror it, statement "
           "by statement. The checks (ported from Go's TestScheduler) and the stage-for-stage comparison of "
           "three whole scenarios are those of [8.2a](08-2a-schedule-one-blanks.ipynb) and "
           "[8.2](08-2-schedule-one.ipynb)."),
    go_links=base.TASK.go_links,
    hints=("Three phases: get a pod and a host (or fail); assume optimistically; bind in the background.",
           "What `sched.config` holds: `next_pod`, `algorithm`, `node_lister`, `scheduler_cache`, `binder`, "
           "`error`, `recorder`, `pod_condition_updater`, `metrics` - Go's Config fields in snake_case.",
           "Stuck? Exercise 8.2a has the whole function with blanks; 8.2's hints name every call."),
    returns=type(None), cases=base._cases, call_view=base.CALL_VIEW, patch=base._patch,
    plug_in=base.plug_in_for(TASK_ID),
    solution="nb08:schedule_one", scenario_plugin=base.scenario_plugin_for(TASK_ID), stub=STUB,
)

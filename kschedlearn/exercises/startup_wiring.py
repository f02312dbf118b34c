"""``app.Run`` with its steps in the learner's order (exercise 1.1, a Parsons problem).

Go: none — kschedlearn-only (DESIGN §10); it re-plays the steps of ``app.Run``
(plugin/cmd/kube-scheduler/app/server.go#L65-L140, mirrored in
``kschedlearn.cmd.kube_scheduler.app.server.run``) in an order the learner chose, using the same
mirrored building blocks and the same trace points, so that in Go's order the run is
indistinguishable from the real one. Rules, as in Go:

- a step that needs what an earlier step builds (the clientset, the recorder, the informer
  factory, the scheduler) and finds it missing dereferences a nil pointer: the process panics;
- ``sched.Run`` ends with ``select {}``: nothing after it ever runs;
- ``leaderelection``: with ``--leader-elect=false`` the remaining steps simply run; otherwise
  ``RunOrDie`` blocks and the remaining steps run inside ``OnStartedLeading`` - only on the
  replica that holds the lease, and only once it does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn import sim
from kschedlearn.api.v1 import ObjectMeta
from kschedlearn.cmd.kube_scheduler.app import server as app
from kschedlearn.observe.points import point
from kschedlearn.trace import glog

#: the steps of app.Run, in Go's order
STEPS = ("createClient", "createRecorder", "NewSharedInformerFactory", "createScheduler",
         "go startHTTP", "informerFactory.Start", "leaderelection", "sched.Run")


class NilPointerPanic(RuntimeError):
    """Go: ``panic: runtime error: invalid memory address or nil pointer dereference``."""


def _need(ctx: dict[str, Any], step: str, *names: str) -> None:
    for name in names:
        if ctx.get(name) is None:
            raise NilPointerPanic(f"runtime error: invalid memory address or nil pointer dereference "
                                  f"({step} used {name} before it was created)")


def run_in_order(order: tuple[str, ...], s: Any, server: Any, *, hostname: str = "scheduler-0",
                 registry: Any = None) -> None:
    """``app.run`` with the steps in ``order`` (see the module docstring). The simulation's trace
    points stand at the same calls as in the real ``app.Run`` (the observation layer attaches them
    to ``createClient``, ``createScheduler``, ``informerFactory.Start``, ``sched.Run`` ...), so in
    Go's order the trace is the real one."""
    from kschedlearn.client_go.informers import new_shared_informer_factory

    ctx: dict[str, Any] = {"stop": sim.Chan(name="stop")}

    def create_client() -> None:
        try:
            ctx["kubecli"] = app.create_client(s, server)
        except Exception as err:  # noqa: BLE001 - Go wraps whatever error it gets
            raise app.ConfigError(f"unable to create kube client: {err}") from err

    def create_recorder() -> None:
        _need(ctx, "createRecorder", "kubecli")
        ctx["recorder"] = app.create_recorder(ctx["kubecli"], s)

    def new_factory() -> None:
        ctx["informer_factory"] = new_shared_informer_factory(ctx.get("kubecli"), 0)

    def create_scheduler() -> None:
        _need(ctx, "createScheduler", "kubecli", "informer_factory")
        f = ctx["informer_factory"]
        try:
            sched = app.create_scheduler(
                s, ctx["kubecli"], f.core().v1().nodes(), f.core().v1().persistent_volumes(),
                f.core().v1().persistent_volume_claims(), f.core().v1().replication_controllers(),
                f.extensions().v1beta1().replica_sets(), f.apps().v1beta1().stateful_sets(),
                f.core().v1().services(), ctx.get("recorder"), registry=registry)
        except Exception as err:  # noqa: BLE001 - Go wraps whatever error it gets
            raise app.ConfigError(f"error creating scheduler: {err}") from err
        ctx["sched"] = sched

    def start_http() -> None:
        metrics = ctx["sched"].config.metrics if ctx.get("sched") is not None else None
        point("startHTTP", f"go startHTTP(s): /healthz, /metrics, /configz on {s.address}:{s.port}", None,
              app.start_http, "calling")
        sim.go(app.start_http, s, metrics, name="startHTTP")

    def start_informers() -> None:
        _need(ctx, "informerFactory.Start", "informer_factory")
        ctx["informer_factory"].start(ctx["stop"])

    def sched_run() -> None:
        _need(ctx, "sched.Run", "sched")
        ctx["sched"].run()
        sim.Chan(name="select{}").recv()  # Go: select {} - block forever

    actions: dict[str, Callable[[], None]] = {
        "createClient": create_client, "createRecorder": create_recorder,
        "NewSharedInformerFactory": new_factory, "createScheduler": create_scheduler,
        "go startHTTP": start_http, "informerFactory.Start": start_informers, "sched.Run": sched_run,
    }

    def run_steps(steps: tuple[str, ...]) -> None:
        for i, step in enumerate(steps):
            if step == "leaderelection":
                leader_election(steps[i + 1:])
                return
            actions[step]()
        sim.Chan(name="select{}").recv()  # app.Run never returns

    def leader_election(rest: tuple[str, ...]) -> None:
        if not s.leader_election.leader_elect:
            run_steps(rest)
            return
        from kschedlearn.client.leaderelection import leaderelection, resourcelock

        _need(ctx, "leaderelection", "kubecli")
        rl = resourcelock.EndpointsLock(
            endpoints_meta=ObjectMeta(namespace=app.LOCK_NAMESPACE, name=app.LOCK_NAME), client=ctx["kubecli"],
            lock_config=resourcelock.ResourceLockConfig(identity=hostname, event_recorder=ctx.get("recorder")))
        le = s.leader_election
        leaderelection.run_or_die(leaderelection.LeaderElectionConfig(
            lock=rl, lease_duration=le.lease_duration, renew_deadline=le.renew_deadline,
            retry_period=le.retry_period,
            callbacks=leaderelection.LeaderCallbacks(on_started_leading=lambda _stop: run_steps(rest),
                                                     on_stopped_leading=lambda: glog.fatalf("lost master"))))

    run_steps(tuple(order))


@contextmanager
def wired(order: tuple[str, ...], log: Any = None) -> Iterator[None]:
    """Every kube-scheduler started inside this block runs ``app.Run`` in ``order``; with a
    ``calls.CallLog``, each start is recorded in it (the order is what that start used)."""
    from kschedlearn.exercises.tasks._common import swap_attr

    def run(s: Any, server: Any, **kwargs: Any) -> None:
        if log is not None:
            log.record(f"app.Run of kube-scheduler {kwargs.get('hostname', '')}".strip(), " → ".join(order))
        run_in_order(order, s, server, **kwargs)

    with swap_attr(app, "run", run):
        yield


__all__ = ["NilPointerPanic", "STEPS", "run_in_order", "wired"]

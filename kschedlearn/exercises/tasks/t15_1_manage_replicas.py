"""Task 15.1: the ReplicationManager's ``manageReplicas`` — the diff, the burst cap, the expectations.

Go: pkg/controller/replication/replication_controller.go (manageReplicas) and
replication_controller_test.go (TestSyncReplicationController*, TestControllerBurstReplicas)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/replication/replication_controller.go#L429-L547
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from kschedlearn.api.v1 import (
    CONDITION_TRUE,
    POD_PENDING,
    POD_READY,
    POD_RUNNING,
    Container,
    ObjectMeta,
    Pod,
    PodCondition,
    PodSpec,
    PodStatus,
    PodTemplateSpec,
    ReplicationController,
)
from kschedlearn.api.v1.others import ReplicationControllerSpec
from kschedlearn.controller.replication.replication_controller import ReplicationManager
from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, swap_attr

TASK_ID = "15.1"
NAME = "manage_replicas"


_REAL_METHOD = ReplicationManager.manage_replicas


def _real(rm: Any, filtered_pods: Any, rc: Any) -> None:
    return _REAL_METHOD(rm, filtered_pods, rc)


def _rc(replicas: int) -> ReplicationController:
    """Go: ``newReplicationController`` of the Go test (name foobar, selector foo=bar)."""
    return ReplicationController(
        metadata=ObjectMeta(uid="rc-uid", name="foobar", namespace="default"),
        spec=ReplicationControllerSpec(replicas=replicas, selector={"foo": "bar"}, template=PodTemplateSpec(
            metadata=ObjectMeta(labels={"foo": "bar"}), spec=PodSpec(containers=(Container(name="c", image="foo/bar"),)))))


def _pod(name: str, node: str = "node-1", phase: str = POD_RUNNING, ready: bool = True) -> Pod:
    conditions = (PodCondition(type=POD_READY, status=CONDITION_TRUE),) if ready else ()
    return Pod(metadata=ObjectMeta(name=name, namespace="default", labels={"foo": "bar"}),
               spec=PodSpec(node_name=node), status=PodStatus(phase=phase, conditions=conditions))


@attrs.define(eq=False)
class _Run:
    """What a call did: creations, deletions (in order), the expectations left, the error raised."""

    creates: int = 0
    deletes: tuple[str, ...] = ()
    expectations: tuple[int, int] | None = None
    error: str = ""


def _call(fn: Callable[..., Any], pods: list[Pod], replicas: int, burst: int = 500,
          fail: bool = False) -> tuple[int, tuple[str, ...], tuple[int, int] | None, str]:
    """Run ``fn(rm, pods, rc)`` in a goroutine of a fresh simulated runtime, with a fake pod control."""
    from kschedlearn.controller import controller_utils as controller
    from kschedlearn.sim import Runtime

    fake = controller.FakePodControl()
    if fail:
        fake.err = RuntimeError("fake error")
    rm = ReplicationManager(kube_client=None, pod_control=fake, burst_replicas=burst,
                            expectations=controller.new_uid_tracking_controller_expectations(
                                controller.new_controller_expectations()), queue=None)
    rt = Runtime(seed=0)
    out = _Run()
    rc = _rc(replicas)

    def main() -> None:
        try:
            fn(rm, list(pods), rc)
        except Exception as err:  # noqa: BLE001 - Go: the returned error
            out.error = str(err)
        exp, exists = rm.expectations.get_expectations("default/foobar")
        out.expectations = exp.get_expectations() if exists and exp is not None else None

    rt.go(main, name="manage_replicas", process=rt.new_process("kube-controller-manager"))
    rt.run(until=1.0)
    if rt.crashes:
        raise rt.crashes[0].error
    return len(fake.templates), tuple(fake.delete_pod_name), out.expectations, out.error


def _cases() -> list[fw.Case]:
    running = [_pod("pod0"), _pod("pod1")]
    mixed = [_pod("ready", "node-1"), _pod("pending", "node-2", POD_PENDING, ready=False),
             _pod("unscheduled", "", POD_PENDING, ready=False)]
    return [
        fw.Case("TestSyncReplicationControllerCreates", "no active pods, replicas 2",
                (2, (), (2, 0), ""), lambda fn: _call(fn, [], 2),
                why="Too few pods: create the difference, after raising the expectations to 2 creations."),
        fw.Case("TestSyncReplicationControllerDeletes", "2 running pods, replicas 1",
                (0, ("pod0",), (0, 1), ""), lambda fn: _call(fn, running, 1),
                why="Too many pods: delete the difference; the expectations count the deletions (by pod key)."),
        fw.Case("TestSyncReplicationControllerDoesNothing", "2 running pods, replicas 2",
                (0, (), None, ""), lambda fn: _call(fn, running, 2),
                why="No difference: nothing to do, no expectations raised."),
        fw.Case("TestControllerBurstReplicas", "no pods, replicas 10, burstReplicas 5",
                (5, (), (5, 0), ""), lambda fn: _call(fn, [], 10, burst=5),
                why="One sync never creates more than burstReplicas pods; the next sync creates the rest."),
        fw.Case("the first to go", "pods ready (node-1), pending (node-2), unscheduled; replicas 1",
                (0, ("unscheduled", "pending"), (0, 2), ""), lambda fn: _call(fn, mixed, 1),
                why="Deletions take the pods that matter least first (controller.ActivePods order): unscheduled "
                    "< pending < not ready < ready."),
        fw.Case("a failed create", "no pods, replicas 2, every create fails",
                None, lambda fn: _call(fn, [], 2, fail=True), expect_raises=RuntimeError,
                why="A failed create will never be observed by the informer: lower the expectations "
                    "(CreationObserved) for it, and return (raise) the first error once all are done."),
    ]


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    def manage_replicas(self: Any, filtered_pods: Any, rc: Any) -> None:
        return fn(self, filtered_pods, rc)

    with swap_attr(ReplicationManager, "manage_replicas", manage_replicas):
        yield


def _experiment(fn: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    pods: list[Pod] = []
    for replicas in (3, 50, 4, 0):
        creates, deletes, exp, err = _call(fn, pods, replicas)
        pods = pods + [_pod(f"new-{len(pods) + i}") for i in range(creates)]
        pods = [p for p in pods if p.metadata.name not in deletes]
        rows.append((f"scale to {replicas}", f"{creates} creates, {len(deletes)} deletes, expectations {exp}"
                     + (f", error {err}" if err else "")))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    if simulation is not None:
        from kschedlearn.exercises.tasks._common import run_simulation

        return run_simulation(TASK_ID, "the ReplicationManager", lambda: _patch(fn), simulation)
    return compare(TASK_ID, "an RC scaled 0 → 3 → 50 → 4 → 0", fn, _real, _experiment, None, NAME,
                   note="Each step is one sync of the ReplicationManager with the pods the previous steps left.")


TASK = Task(
    id=TASK_ID, title="The ReplicationManager's manageReplicas", slug="manage-replicas", function_name=NAME,
    stub_imports=("from kschedlearn import sim\nfrom kschedlearn.api.v1 import OwnerReference\n"
                  "from kschedlearn.controller import controller_utils as controller\n"
                  "from kschedlearn.controller.replication.replication_controller import CONTROLLER_KIND"),
    intro=("A ReplicationController says *how many* pods; the ReplicationManager of kube-controller-manager makes "
           "it so. Each sync counts the active pods it owns and calls `manageReplicas`, which creates or deletes "
           "the difference — at most `burstReplicas` (500) per sync, all at once (1.6 has no slow start), after "
           "raising its *expectations* so the next sync waits until the informer has seen them.\n\n"
           "Write `manage_replicas(rm, filtered_pods, rc)`."),
    go_links=(("replication_controller.go manageReplicas",
               GO + "pkg/controller/replication/replication_controller.go#L429-L547"),
              ("controller_utils.go ActivePods.Less (which pod goes first)",
               GO + "pkg/controller/controller_utils.go#L700-L732")),
    hints=("diff = active pods − spec.replicas. Negative: create −diff pods; positive: delete diff pods; cap either "
           "at burstReplicas. Raise the expectations *before* sending anything.",
           "Go's manageReplicas (replication_controller.go ~L431): `rm.expectations.ExpectCreations(rcKey, diff)`, "
           "a WaitGroup of diff goroutines each calling `CreatePodsWithControllerRef`; for deletions "
           "`sort.Sort(controller.ActivePods(filteredPods))` (unless replicas is 0), `ExpectDeletions(rcKey, "
           "podKeys)`, then `DeletePod` per pod. On an error: `CreationObserved` / `DeletionObserved`.",
           "`diff = len(filtered_pods) - rc.spec.replicas`; create branch: `rm.expectations.expect_creations(key, n)`, "
           "`sim.go(create)` n times, `wg.wait()`; delete branch: `controller.sort_active_pods(pods)`, "
           "`rm.expectations.expect_deletions(key, [controller.pod_key(p) for p in pods[:n]])`; raise the first "
           "error at the end."),
    returns=None, cases=_cases, patch=_patch, plug_in=_plug_in, solution="nb15:manage_replicas",
)

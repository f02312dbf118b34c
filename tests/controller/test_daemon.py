"""The DaemonSet controller's Go tests (its own scheduling decision), ported with the Go names as ids.

Go: pkg/controller/daemon/daemoncontroller_test.go (``newTestController``,
``syncAndValidateDaemonSets``). The fake clientset is the embedded API server with validation off.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kschedlearn.api.v1 import (
    Container,
    ContainerPort,
    Node,
    ObjectMeta,
    OwnerReference,
    Pod,
    PodSpec,
    PodStatus,
    PodTemplateSpec,
)
from kschedlearn.apimachinery.apis.meta.v1.types import LabelSelector
from kschedlearn.apis.extensions.v1beta1.types import DaemonSet, DaemonSetSpec
from kschedlearn.controller import controller_utils as controller
from controller_harness import ALWAYS_READY, new_env, returned_error

SIMPLE_DAEMON_SET_LABEL = {"name": "simple-daemon", "type": "production"}
SIMPLE_DAEMON_SET_LABEL2 = {"name": "simple-daemon", "type": "test"}
SIMPLE_NODE_LABEL = {"color": "blue", "speed": "fast"}


def new_daemon_set(name: str, spec: PodSpec | None = None) -> DaemonSet:
    """Go: ``newDaemonSet``."""
    return DaemonSet(metadata=ObjectMeta(uid=f"uid-{name}", name=name, namespace="default"),
                     spec=DaemonSetSpec(selector=LabelSelector(match_labels=SIMPLE_DAEMON_SET_LABEL),
                                        template=PodTemplateSpec(
                                            metadata=ObjectMeta(labels=SIMPLE_DAEMON_SET_LABEL),
                                            spec=spec or PodSpec(containers=(Container(name="", image="foo/bar"),),
                                                                 dns_policy="Default"))))


def new_node(name: str, labels: dict[str, str] | None = None, *, ready: str = "True",
             allocatable: dict[str, str] | None = None, conditions: tuple[dict[str, str], ...] = (),
             taints: tuple[dict[str, str], ...] = ()) -> Node:
    """Go: ``newNode`` — Ready, 100 pods allocatable."""
    return Node.from_dict({"metadata": {"name": name, "labels": labels or {}},
                           "spec": {"taints": list(taints)},
                           "status": {"conditions": list(conditions) or [{"type": "Ready", "status": ready}],
                                      "allocatable": allocatable or {"pods": "100"}}})


def new_pod(name: str, node: str, labels: dict[str, str], ds: DaemonSet | None, phase: str = "") -> Pod:
    """Go: ``newPod`` (owned by ``ds`` when given)."""
    refs = (OwnerReference(api_version="extensions/v1beta1", kind="DaemonSet", name=ds.metadata.name,
                           uid=ds.metadata.uid, controller=True),) if ds is not None else ()
    return Pod(metadata=ObjectMeta(name=name, namespace="default", labels=labels, owner_references=refs),
               spec=PodSpec(node_name=node, containers=(Container(name="", image="foo/bar"),)),
               status=PodStatus(phase=phase))


@attrs.define(eq=False)
class Harness:
    """Go: ``newTestController`` — the controller with its stores and a fake pod control."""

    env: Any
    manager: Any
    pod_control: controller.FakePodControl
    ds_store: Any
    pod_store: Any
    node_store: Any

    def add_nodes(self, start: int, n: int, labels: dict[str, str] | None = None) -> None:
        """Go: ``addNodes``."""
        for i in range(start, start + n):
            self.node_store.add(new_node(f"node-{i}", labels))

    def add_pods(self, node: str, labels: dict[str, str], ds: DaemonSet, n: int, phase: str = "") -> None:
        """Go: ``addPods`` / ``addFailedPods``."""
        for i in range(n):
            self.pod_store.add(new_pod(f"{node}-{phase or 'pod'}-{len(self.pod_store.list())}-{i}", node, labels, ds,
                                       phase))

    def sync_and_validate(self, ds: DaemonSet, expected_creates: int, expected_deletes: int) -> None:
        """Go: ``syncAndValidateDaemonSets``."""
        key = f"{ds.metadata.namespace}/{ds.metadata.name}"
        self.env.run(lambda: returned_error(self.manager.sync_handler, key))
        assert len(self.pod_control.templates) == expected_creates, "Unexpected number of creates"
        assert len(self.pod_control.delete_pod_name) == expected_deletes, "Unexpected number of deletes"


def new_test_controller(*objects: Any) -> Harness:
    from kschedlearn.controller.daemon.daemoncontroller import new_daemon_sets_controller

    env = new_env()
    for obj in objects:
        env.api.create("daemonsets", "default", obj)
    f = env.factory
    ds_inf, pod_inf, node_inf = f.extensions().v1beta1().daemon_sets(), f.core().v1().pods(), f.core().v1().nodes()
    manager = env.run(lambda: new_daemon_sets_controller(ds_inf, pod_inf, node_inf, env.client))
    manager.pod_store_synced = manager.node_store_synced = manager.ds_store_synced = ALWAYS_READY
    fake = controller.FakePodControl()
    manager.pod_control = fake
    return Harness(env, manager, fake, ds_inf.informer().get_store(), pod_inf.informer().get_store(),
                   node_inf.informer().get_store())


def test_simple_daemon_set_launches_pods() -> None:
    """Go: TestSimpleDaemonSetLaunchesPods — one pod per node."""
    ds = new_daemon_set("foo")
    h = new_test_controller(ds)
    h.add_nodes(0, 5)
    h.ds_store.add(ds)
    h.sync_and_validate(ds, 5, 0)
    assert h.pod_control.controller_refs[0].kind == "DaemonSet"


def test_no_nodes_does_nothing() -> None:
    """Go: TestNoNodesDoesNothing."""
    ds = new_daemon_set("foo")
    h = new_test_controller()
    h.ds_store.add(ds)
    h.sync_and_validate(ds, 0, 0)


@pytest.mark.parametrize(("node", "creates"), [
    (new_node("only-node"), 1),
    (new_node("not-ready", ready="False"), 1),
    (new_node("not-enough-disk", conditions=({"type": "OutOfDisk", "status": "True"},)), 0),
    (new_node("tainted", taints=({"key": "dedicated", "value": "user1", "effect": "NoSchedule"},)), 0),
], ids=["TestOneNodeDaemonLaunchesPod", "TestNotReadNodeDaemonDoesNotLaunchPod (a not-ready node still gets one)",
        "TestOutOfDiskNodeDaemonDoesNotLaunchPod", "TestTaintedNodeDaemonDoesNotLaunchUntoleratePod"])
def test_one_node(node: Node, creates: int) -> None:
    ds = new_daemon_set("foo")
    h = new_test_controller(ds)
    h.node_store.add(node)
    h.ds_store.add(ds)
    h.sync_and_validate(ds, creates, 0)


def test_insufficient_capacity_node_daemon_does_not_launch_pod() -> None:
    """Go: TestInsufficientCapacityNodeDaemonDoesNotLaunchPod — the node's memory is taken."""
    spec = PodSpec(node_name="too-much-mem", containers=(Container(name="", image="foo/bar", resources=_requests(
        "75M", "75m")),))
    ds = new_daemon_set("foo", spec)
    h = new_test_controller(ds)
    h.node_store.add(new_node("too-much-mem", allocatable={"memory": "100M", "cpu": "200m", "pods": "100"}))
    h.pod_store.add(Pod(metadata=ObjectMeta(name="other", namespace="default"), spec=spec))
    h.ds_store.add(ds)
    h.sync_and_validate(ds, 0, 0)


def _requests(memory: str, cpu: str) -> Any:
    from kschedlearn.api.v1 import ResourceRequirements

    return ResourceRequirements.from_dict({"requests": {"memory": memory, "cpu": cpu}})


def test_port_conflict_node_daemon_does_not_launch_pod() -> None:
    """Go: TestPortConflictNodeDaemonDoesNotLaunchPod — another pod holds host port 666."""
    spec = PodSpec(node_name="port-conflict", containers=(Container(name="", image="foo/bar", ports=(
        ContainerPort(host_port=666, container_port=666),)),))
    h = new_test_controller()
    h.node_store.add(new_node("port-conflict"))
    h.pod_store.add(Pod(metadata=ObjectMeta(name="holder", namespace="default"), spec=spec))
    ds = new_daemon_set("foo", spec)
    h.ds_store.add(ds)
    h.sync_and_validate(ds, 0, 0)


def test_selector_daemon_launches_pods() -> None:
    """Go: TestSelectorDaemonLaunchesPods — only the 3 nodes matching the nodeSelector."""
    ds = new_daemon_set("foo")
    ds = attrs.evolve(ds, spec=attrs.evolve(ds.spec, template=attrs.evolve(ds.spec.template, spec=attrs.evolve(
        ds.spec.template.spec, node_selector=SIMPLE_NODE_LABEL))))
    h = new_test_controller(ds)
    h.add_nodes(0, 4)
    h.add_nodes(4, 3, SIMPLE_NODE_LABEL)
    h.ds_store.add(ds)
    h.sync_and_validate(ds, 3, 0)


@pytest.mark.parametrize(("node_name", "creates"), [("node-0", 1), ("node-10", 0)],
                         ids=["TestNameDaemonSetLaunchesPods", "TestBadNameDaemonSetDoesNothing"])
def test_name_daemon_set(node_name: str, creates: int) -> None:
    ds = new_daemon_set("foo")
    ds = attrs.evolve(ds, spec=attrs.evolve(ds.spec, template=attrs.evolve(ds.spec.template, spec=attrs.evolve(
        ds.spec.template.spec, node_name=node_name))))
    h = new_test_controller(ds)
    h.add_nodes(0, 5)
    h.ds_store.add(ds)
    h.sync_and_validate(ds, creates, 0)


def test_deals_with_existing_pods() -> None:
    """Go: TestDealsWithExistingPods — create where missing, delete the extras (pods of another
    label on node-4 are not the daemon set's)."""
    ds = new_daemon_set("foo")
    h = new_test_controller(ds)
    h.ds_store.add(ds)
    h.add_nodes(0, 5)
    h.add_pods("node-1", SIMPLE_DAEMON_SET_LABEL, ds, 1)
    h.add_pods("node-2", SIMPLE_DAEMON_SET_LABEL, ds, 2)
    h.add_pods("node-3", SIMPLE_DAEMON_SET_LABEL, ds, 5)
    h.add_pods("node-4", SIMPLE_DAEMON_SET_LABEL2, ds, 2)
    h.sync_and_validate(ds, 2, 5)


@pytest.mark.parametrize(("failed", "normal", "creates", "deletes"), [
    (0, 1, 0, 0), (0, 0, 1, 0), (1, 0, 0, 1), (1, 3, 0, 3), (2, 1, 0, 2),
], ids=["TestDaemonKillFailedPods/normal (do nothing)", "TestDaemonKillFailedPods/no pods (create 1)",
        "TestDaemonKillFailedPods/1 failed pod (kill 1), 0 normal pod (create 0; will create in the next sync)",
        "TestDaemonKillFailedPods/1 failed pod (kill 1), 3 normal pods (kill 2)",
        "TestDaemonKillFailedPods/2 failed pods (kill 2), 1 normal pod"])
def test_daemon_kill_failed_pods(failed: int, normal: int, creates: int, deletes: int) -> None:
    ds = new_daemon_set("foo")
    h = new_test_controller(ds)
    h.ds_store.add(ds)
    h.add_nodes(0, 1)
    h.add_pods("node-0", SIMPLE_DAEMON_SET_LABEL, ds, failed, phase="Failed")
    h.add_pods("node-0", SIMPLE_DAEMON_SET_LABEL, ds, normal)
    h.sync_and_validate(ds, creates, deletes)

"""What the ported Go controller tests share: a simulated runtime standing in for Go's test binary,
the embedded API server standing in for the fake clientset, and the Go tests' object builders.

Go: the helpers of pkg/controller/replication/replication_controller_test.go and
pkg/controller/replicaset/replica_set_test.go (``newReplicationController`` / ``newReplicaSet``,
``newPod``, ``newPodList``, ``validateSyncReplication``), and client-go's fake clientset.
Differs from Go: the fake clientset is the real embedded API server with validation off (it
stores whatever it is given, as the fake does); a test body runs in a goroutine of a simulated
process, because the controllers start goroutines (pod creations, event recording).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.api.v1 import (
    CONDITION_TRUE,
    POD_READY,
    POD_RUNNING,
    Container,
    ObjectMeta,
    OwnerReference,
    Pod,
    PodCondition,
    PodSpec,
    PodStatus,
    PodTemplateSpec,
    ReplicaSet,
    ReplicationController,
)
from kschedlearn.api.v1.others import ReplicaSetSpec, ReplicationControllerSpec
from kschedlearn.apimachinery.apis.meta.v1.types import LabelSelector
from kschedlearn.apimachinery.util.runtime import PANICS
from kschedlearn.apiserver import APIServer, new_for_server
from kschedlearn.client_go.informers import new_shared_informer_factory
from kschedlearn.controller import controller_utils as controller
from kschedlearn.sim import Runtime

ALWAYS_READY = lambda: True  # noqa: E731 - Go: var alwaysReady = func() bool { return true }


@attrs.define(eq=False)
class Env:
    """One test's world: runtime, API server (the fake clientset), clientset, informer factory."""

    rt: Runtime
    api: APIServer
    client: Any
    factory: Any

    def run(self, fn: Callable[[], Any], *, seconds: float = 0.0) -> Any:
        """Run ``fn`` in a goroutine of a process of its own, plus ``seconds`` of virtual time;
        a crash (an exception escaping a goroutine) is raised here."""
        box: dict[str, Any] = {}
        proc = self.rt.new_process("test")

        def main() -> None:
            box["result"] = fn()

        before = len(self.rt.crashes)
        self.rt.go(main, name="test", process=proc)
        self.rt.run(until=self.rt.now + seconds)
        if len(self.rt.crashes) > before:
            raise self.rt.crashes[before].error
        return box.get("result")

    def store(self, resource: str, obj: Any) -> Any:
        """Put ``obj`` in the server (as the Go test's ``fake.NewSimpleClientset(obj)`` does)."""
        return self.api.create(resource, obj.metadata.namespace, obj)


def new_env(seed: int = 0) -> Env:
    rt = Runtime(seed=seed)
    api = APIServer(rt, validation=False)
    client = new_for_server(api)
    return Env(rt, api, client, new_shared_informer_factory(client, 0))


def pod_template(labels: dict[str, str]) -> PodTemplateSpec:
    """The template of Go's ``newReplicationController`` / ``newReplicaSet``."""
    return PodTemplateSpec(
        metadata=ObjectMeta(labels=labels),
        spec=PodSpec(containers=(Container(name="", image="foo/bar", image_pull_policy="IfNotPresent"),),
                     restart_policy="Always", dns_policy="Default", node_selector={"baz": "blah"}),
    )


def new_replication_controller(replicas: int, uid: str = "rc-uid") -> ReplicationController:
    """Go: ``newReplicationController`` — replication_controller_test.go#L69-L105."""
    return ReplicationController(
        metadata=ObjectMeta(uid=uid, name="foobar", namespace="default", resource_version="18"),
        spec=ReplicationControllerSpec(replicas=replicas, selector={"foo": "bar"},
                                       template=pod_template({"name": "foo", "type": "production"})),
    )


def new_replica_set(replicas: int, selector_map: dict[str, str] | None = None, uid: str = "rs-uid") -> ReplicaSet:
    """Go: ``newReplicaSet`` — replica_set_test.go#L78-L114."""
    selector_map = selector_map if selector_map is not None else {"foo": "bar"}
    return ReplicaSet(
        metadata=ObjectMeta(uid=uid, name="foobar", namespace="default", resource_version="18"),
        spec=ReplicaSetSpec(replicas=replicas, selector=LabelSelector(match_labels=selector_map),
                            template=pod_template({"name": "foo", "type": "production"})),
    )


def selector_labels(obj: Any) -> dict[str, str]:
    sel = obj.spec.selector
    return dict(sel) if isinstance(sel, dict) else dict(sel.match_labels)


def new_pod(name: str, owner: Any, phase: str, last_transition_time: float | None = None,
            properly_owned: bool = True) -> Pod:
    """Go: ``newPod`` — a pod with the owner's selector labels and namespace (a Running pod is Ready)."""
    conditions = ()
    if phase == POD_RUNNING:
        conditions = (PodCondition(type=POD_READY, status=CONDITION_TRUE, last_transition_time=last_transition_time),)
    refs: tuple[OwnerReference, ...] = ()
    if properly_owned:
        refs = (OwnerReference(uid=owner.metadata.uid, api_version=type(owner).api_version, kind=type(owner).kind,
                               name=owner.metadata.name, controller=True),)
    return Pod(metadata=ObjectMeta(name=name, labels=selector_labels(owner), namespace=owner.metadata.namespace,
                                   owner_references=refs),
               status=PodStatus(phase=phase, conditions=conditions))


def new_pod_list(store: Any, count: int, phase: str, owner: Any, name: str) -> list[Pod]:
    """Go: ``newPodList`` — ``count`` pods owned by ``owner`` (added to ``store`` if given)."""
    pods = []
    for i in range(count):
        pod = new_pod(f"{name}{i}", owner, phase)
        if store is not None:
            store.add(pod)
        pods.append(pod)
    return pods


def validate_sync_replication(fake: controller.FakePodControl, expected_creates: int, expected_deletes: int,
                              expected_patches: int) -> None:
    """Go: ``validateSyncReplication``."""
    assert len(fake.templates) == expected_creates, "Unexpected number of creates"
    assert len(fake.delete_pod_name) == expected_deletes, "Unexpected number of deletes"
    assert len(fake.patches) == expected_patches, "Unexpected number of patches"


@attrs.define(eq=False)
class ReplicaKind:
    """The RC and ReplicaSet twins of one Go test (1.6 kept their tests in step)."""

    name: str
    resource: str

    def new(self, replicas: int, **kw: Any) -> Any:
        return new_replication_controller(replicas, **kw) if self.name == "rc" else new_replica_set(replicas, **kw)

    def with_selector(self, obj: Any, labels: dict[str, str]) -> Any:
        if self.name == "rc":
            return attrs.evolve(obj, spec=attrs.evolve(obj.spec, selector=labels))
        return attrs.evolve(obj, spec=attrs.evolve(obj.spec, selector=LabelSelector(match_labels=labels)))

    def informer(self, env: Env) -> Any:
        if self.name == "rc":
            return env.factory.core().v1().replication_controllers()
        return env.factory.extensions().v1beta1().replica_sets()

    def new_manager(self, env: Env, burst_replicas: int = 500) -> tuple[Any, Any, Any]:
        """Go: ``newReplicationManagerFromClient`` / ``testNewReplicaSetControllerFromClient``."""
        pod_informer = env.factory.core().v1().pods()
        informer = self.informer(env)
        if self.name == "rc":
            from kschedlearn.controller.replication.replication_controller import new_replication_manager

            m = env.run(lambda: new_replication_manager(pod_informer, informer, env.client, burst_replicas))
            m.rc_lister_synced = ALWAYS_READY
        else:
            from kschedlearn.controller.replicaset.replica_set import new_replica_set_controller

            m = env.run(lambda: new_replica_set_controller(informer, pod_informer, env.client, burst_replicas))
            m.rs_lister_synced = ALWAYS_READY
        m.pod_lister_synced = ALWAYS_READY
        return m, pod_informer, informer

    def sync(self, env: Env, manager: Any, key: str, seconds: float = 0.0) -> BaseException | None:
        """The sync handler on ``key``; returns its error (Go's return value), None if it succeeded."""
        fn = manager.sync_replication_controller if self.name == "rc" else manager.sync_replica_set
        return env.run(lambda: returned_error(fn, key), seconds=seconds)


KINDS = (ReplicaKind("rc", "replicationcontrollers"), ReplicaKind("rs", "replicasets"))


def returned_error(fn: Callable[..., Any], *args: Any) -> BaseException | None:
    """Call ``fn``; a raised error (not a panic) is what the Go function would have returned."""
    try:
        fn(*args)
    except PANICS:
        raise
    except Exception as err:  # noqa: BLE001 - Go: err := f(...)
        return err
    return None


def key_of(obj: Any) -> str:
    return f"{obj.metadata.namespace}/{obj.metadata.name}"


__all__ = ["ALWAYS_READY", "Env", "KINDS", "ReplicaKind", "key_of", "returned_error", "new_env", "new_pod", "new_pod_list",
           "new_replica_set", "new_replication_controller", "pod_template", "selector_labels",
           "validate_sync_replication"]

"""The embedded API server: CRUD, resourceVersions, defaults, binding, graceful deletion."""

from __future__ import annotations

import attrs
import pytest

from kschedlearn.api.v1 import Event as V1Event, Node, NodeSpec, ObjectMeta, ObjectReference
from kschedlearn.apimachinery.api import errors
from kschedlearn.sim import WouldBlockError


def test_create_defaults(client, rt, h):
    rt.run(until=12.5)
    pods = client.core_v1().pods("")
    p = pods.create(h.make_pod("web-1", ns=""))
    assert p.metadata.namespace == "default"
    assert p.metadata.resource_version == "2"  # etcd3 starts at revision 1
    assert p.metadata.creation_timestamp == 12.5
    assert p.metadata.uid and p.metadata.uid == pods.get("web-1").metadata.uid
    assert p.spec.scheduler_name == "default-scheduler"
    assert p.status.phase == "Pending"
    assert p.spec.containers[0].ports[0].protocol == "TCP"
    assert p.spec.termination_grace_period_seconds == 30
    assert p.spec.restart_policy == "Always"


def test_uids_and_generated_names_are_deterministic(rt, h):
    from kschedlearn.apiserver import APIServer, new_for_server
    from kschedlearn.sim import Runtime

    def run() -> list[tuple[str, str]]:
        c = new_for_server(APIServer(Runtime(seed=7)))
        out = []
        for _ in range(3):
            p = c.core_v1().pods("ns").create(h.make_pod("", ns="ns", generate_name="web-"))
            out.append((p.metadata.name, p.metadata.uid))
        return out

    first, second = run(), run()
    assert first == second
    assert len({n for n, _ in first}) == 3
    for name, _ in first:
        assert name.startswith("web-") and len(name) == len("web-") + 5


def test_explicit_scheduler_name_and_phase_kept(client, h):
    pod = h.make_pod("p", phase="Running")
    pod = attrs.evolve(pod, spec=attrs.evolve(pod.spec, scheduler_name="my-scheduler"))
    p = client.core_v1().pods("default").create(pod)
    assert p.spec.scheduler_name == "my-scheduler"
    assert p.status.phase == "Running"


def test_single_resource_version_counter_across_kinds(client, h):
    p = client.core_v1().pods("default").create(h.make_pod("a"))
    n = client.core_v1().nodes().create(Node(metadata=ObjectMeta(name="n1")))
    e = client.core_v1().events("default").create(V1Event(metadata=ObjectMeta(name="e1")))
    assert [p.metadata.resource_version, n.metadata.resource_version,
            e.metadata.resource_version] == ["2", "3", "4"]
    assert n.metadata.namespace == ""
    assert client.core_v1().pods().list().metadata.resource_version == "4"


def test_not_found_and_already_exists(client, h):
    pods = client.core_v1().pods("default")
    with pytest.raises(errors.NotFoundError) as exc:
        pods.get("web-1")
    assert str(exc.value) == 'pods "web-1" not found'
    assert exc.value.code == 404 and exc.value.reason == "NotFound"
    pods.create(h.make_pod("web-1"))
    with pytest.raises(errors.AlreadyExistsError) as exc2:
        pods.create(h.make_pod("web-1"))
    assert str(exc2.value) == 'pods "web-1" already exists'
    assert errors.is_already_exists(exc2.value) and exc2.value.code == 409
    with pytest.raises(errors.NotFoundError):
        client.extensions_v1beta1().replica_sets("default").get("rs")
    with pytest.raises(errors.NotFoundError, match=r'^replicasets.extensions "rs" not found$'):
        client.extensions_v1beta1().replica_sets("default").get("rs")


def test_conflict_on_stale_update(client, h):
    pods = client.core_v1().pods("default")
    p1 = pods.create(h.make_pod("web-1"))
    p2 = pods.update(attrs.evolve(p1, metadata=attrs.evolve(p1.metadata, labels={"a": "1"})))
    assert int(p2.metadata.resource_version) > int(p1.metadata.resource_version)
    stale = attrs.evolve(p1, metadata=attrs.evolve(p1.metadata, labels={"a": "2"}))
    with pytest.raises(errors.ConflictError) as exc:
        pods.update(stale)
    assert str(exc.value) == (
        'Operation cannot be fulfilled on pods "web-1": the object has been modified; please '
        "apply your changes to the latest version and try again"
    )
    assert exc.value.code == 409 and errors.is_conflict(exc.value)
    # Empty resourceVersion = unconditional update.
    forced = attrs.evolve(stale, metadata=attrs.evolve(stale.metadata, resource_version=""))
    assert pods.update(forced).metadata.labels == {"a": "2"}


def test_update_keeps_status_and_update_status_keeps_spec(client, h):
    pods = client.core_v1().pods("default")
    p = pods.create(h.make_pod("web-1"))
    def image(pod, name):  # an image is one of the few spec fields 1.6 lets an update change
        return attrs.evolve(pod.spec, containers=(attrs.evolve(pod.spec.containers[0], image=name),))

    changed = attrs.evolve(p, status=attrs.evolve(p.status, phase="Running"), spec=image(p, "x"))
    u = pods.update(changed)
    assert u.status.phase == "Pending" and u.spec.containers[0].image == "x"
    s = pods.update_status(attrs.evolve(changed, metadata=u.metadata, spec=image(u, "y")))
    assert s.status.phase == "Running" and s.spec.containers[0].image == "x"


def test_noop_update_does_not_bump_resource_version(client, h):
    pods = client.core_v1().pods("default")
    p = pods.create(h.make_pod("web-1"))
    assert pods.update(p).metadata.resource_version == p.metadata.resource_version


def test_list_sorted_with_selectors(client, h):
    for ns, name, node in [("b", "x", ""), ("a", "z", "n1"), ("a", "y", ""), ("b", "a", "n2")]:
        client.core_v1().pods(ns).create(h.make_pod(name, ns=ns, node=node, labels={"app": ns}))
    every = client.core_v1().pods().list(resource_version="0")
    assert [(p.metadata.namespace, p.metadata.name) for p in every.items] == [
        ("a", "y"), ("a", "z"), ("b", "a"), ("b", "x")]
    assert every.kind == "PodList" and every.metadata.resource_version == "5"
    assert [p.metadata.name for p in client.core_v1().pods("b").list().items] == ["a", "x"]
    assigned = client.core_v1().pods().list(field_selector="spec.nodeName!=")
    assert [p.metadata.name for p in assigned.items] == ["z", "a"]
    labelled = client.core_v1().pods().list(label_selector="app=a")
    assert [p.metadata.name for p in labelled.items] == ["y", "z"]


def test_bad_field_selector_is_bad_request(client):
    with pytest.raises(errors.BadRequestError, match="field label not supported: spec.foo"):
        client.core_v1().pods().list(field_selector="spec.foo=1")
    with pytest.raises(errors.BadRequestError):
        client.core_v1().nodes().list(field_selector="spec.nodeName=")


def test_node_field_selector(client):
    client.core_v1().nodes().create(Node(metadata=ObjectMeta(name="a"), spec=NodeSpec(unschedulable=True)))
    client.core_v1().nodes().create(Node(metadata=ObjectMeta(name="b")))
    got = client.core_v1().nodes().list(field_selector="spec.unschedulable=false")
    assert [n.metadata.name for n in got.items] == ["b"]


def test_event_field_selector(client):
    ev = V1Event(metadata=ObjectMeta(name="e1"), reason="Scheduled",
                 involved_object=ObjectReference(kind="Pod", name="web-1", namespace="default"))
    client.core_v1().events("default").create(ev)
    got = client.core_v1().events("").list(field_selector="involvedObject.name=web-1,reason=Scheduled")
    assert [e.metadata.name for e in got.items] == ["e1"]


def test_namespace_mismatch_is_bad_request(client, h):
    with pytest.raises(errors.BadRequestError, match="does not match the namespace"):
        client.core_v1().pods("a").create(h.make_pod("p", ns="b"))


def test_wrong_kind_is_bad_request(client, h):
    with pytest.raises(errors.BadRequestError, match="expected a Node object, got Pod"):
        client.core_v1().nodes().create(h.make_pod("p"))


def test_missing_name_is_invalid(client, h):
    with pytest.raises(errors.InvalidError, match="name or generateName is required"):
        client.core_v1().pods("default").create(h.make_pod(""))


# -- binding -------------------------------------------------------------------------------

def test_bind_sets_node_annotations_and_condition(client, rt, h):
    pods = client.core_v1().pods("default")
    p = pods.create(h.make_pod("web-1", annotations={"keep": "1"}))
    rt.run(until=3.0)
    pods.bind(h.make_binding("web-1", "n1", annotations={"b": "2"}))
    got = pods.get("web-1")
    assert got.spec.node_name == "n1"
    assert got.metadata.annotations == {"keep": "1", "b": "2"}
    cond = [c for c in got.status.conditions if c.type == "PodScheduled"]
    assert len(cond) == 1 and cond[0].status == "True" and cond[0].last_transition_time == 3.0
    assert int(got.metadata.resource_version) > int(p.metadata.resource_version)


def test_bind_already_assigned_is_conflict(client, h):
    pods = client.core_v1().pods("default")
    pods.create(h.make_pod("web-1", node="n1"))
    with pytest.raises(errors.ConflictError) as exc:
        pods.bind(h.make_binding("web-1", "n2"))
    assert exc.value.code == 409
    assert str(exc.value) == (
        'Operation cannot be fulfilled on pods/binding "web-1": pod web-1 is already assigned to node "n1"'
    )


def test_bind_deleting_pod_is_refused(client, h):
    pods = client.core_v1().pods("default")
    pods.create(h.make_pod("web-1", node="n1"))
    pods.delete("web-1")  # bound: graceful, so it only gets a deletionTimestamp
    with pytest.raises(errors.StatusError, match="pod web-1 is being deleted, cannot be assigned to a host"):
        pods.bind(h.make_binding("web-1", "n2"))


def test_bind_missing_pod_is_not_found(client, h):
    with pytest.raises(errors.NotFoundError, match='pods "ghost" not found'):
        client.core_v1().pods("default").bind(h.make_binding("ghost", "n1"))


# -- graceful deletion ----------------------------------------------------------------------

def test_graceful_delete_of_bound_pod(client, rt, h):
    pods = client.core_v1().pods("default")
    pods.create(h.make_pod("web-1", node="n1"))
    w = client.core_v1().pods().watch(resource_version=pods.list().metadata.resource_version)
    box = h.collect(rt, w)
    rt.run(until=10.0)
    pods.delete("web-1")
    marked = pods.get("web-1")
    assert marked.metadata.deletion_timestamp == 40.0
    assert marked.metadata.deletion_grace_period_seconds == 30
    rt.run(until=39.0)
    assert pods.get("web-1").metadata.deletion_timestamp == 40.0
    rt.run(until=40.0)
    with pytest.raises(errors.NotFoundError):
        pods.get("web-1")
    assert box.types() == [("MODIFIED", "web-1"), ("DELETED", "web-1")]
    assert box.events[1].object.metadata.deletion_timestamp == 40.0


def test_second_delete_may_only_shorten(client, rt, h):
    pods = client.core_v1().pods("default")
    pods.create(h.make_pod("web-1", node="n1"))
    pods.delete("web-1", grace_period_seconds=20)
    rv = pods.get("web-1").metadata.resource_version
    pods.delete("web-1", grace_period_seconds=25)
    assert pods.get("web-1").metadata.resource_version == rv
    pods.delete("web-1", grace_period_seconds=5)
    assert pods.get("web-1").metadata.deletion_timestamp == 5.0
    rt.run(until=5.0)
    assert pods.list().items == ()


def test_unbound_pod_and_grace_zero_delete_at_once(client, h):
    pods = client.core_v1().pods("default")
    pods.create(h.make_pod("pending"))
    pods.create(h.make_pod("bound", node="n1"))
    pods.delete("pending")
    pods.delete("bound", grace_period_seconds=0)
    assert pods.list().items == ()


def test_non_pod_delete_is_immediate(client):
    client.core_v1().nodes().create(Node(metadata=ObjectMeta(name="n1")))
    client.core_v1().nodes().delete("n1", grace_period_seconds=30)
    assert client.core_v1().nodes().list().items == ()
    with pytest.raises(errors.NotFoundError, match='nodes "n1" not found'):
        client.core_v1().nodes().delete("n1")


def test_delayed_call_outside_goroutine_would_block(client, server, h):
    server.faults.delay_next("create", 1.0, resource="pods")
    with pytest.raises(WouldBlockError):
        client.core_v1().pods("default").create(h.make_pod("p"))


def test_debug_state_is_plain_data(client, h):
    client.core_v1().pods("default").create(h.make_pod("web-1"))
    client.core_v1().nodes().create(Node(metadata=ObjectMeta(name="n1")))
    w = client.core_v1().pods().watch(field_selector="spec.nodeName==")
    state = client.server.debug_state()
    assert state["resource_version"] == "3"
    assert set(state["objects"]) == {"pods", "nodes"}
    assert state["objects"]["pods"]["default/web-1"]["spec"]["schedulerName"] == "default-scheduler"
    assert state["objects"]["nodes"]["n1"]["metadata"]["name"] == "n1"
    assert state["watches"][0]["field_selector"] == "spec.nodeName=="
    w.stop()
    assert client.server.debug_state()["watches"] == []

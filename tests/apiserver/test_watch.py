"""Watches on the embedded API server: selectors, replay from a resourceVersion, 410, timeouts."""

from __future__ import annotations

import attrs
import pytest

from kschedlearn.apimachinery.api import errors
from kschedlearn.apimachinery.api.errors import Status
from kschedlearn.apimachinery.watch import Interface

UNASSIGNED = "spec.nodeName==,status.phase!=Succeeded,status.phase!=Failed"
ASSIGNED = "spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed"


def test_binding_moves_pod_between_scheduler_watches(client, rt, h):
    pods = client.core_v1().pods("default")
    pods.create(h.make_pod("web-1"))
    rv = client.core_v1().pods().list().metadata.resource_version
    unassigned = h.collect(rt, client.core_v1().pods().watch(field_selector=UNASSIGNED, resource_version=rv))
    assigned = h.collect(rt, client.core_v1().pods().watch(field_selector=ASSIGNED, resource_version=rv))
    pods.bind(h.make_binding("web-1", "n1"))
    h.settle(rt)
    assert unassigned.types() == [("DELETED", "web-1")]
    assert assigned.types() == [("ADDED", "web-1")]
    # The DELETED carries the new state (as the 1.6 watch cache sends it).
    assert unassigned.events[0].object.spec.node_name == "n1"
    # Completion: the assigned watch sees it leave.
    p = pods.get("web-1")
    pods.update_status(attrs.evolve(p, status=attrs.evolve(p.status, phase="Succeeded")))
    h.settle(rt)
    assert assigned.types() == [("ADDED", "web-1"), ("DELETED", "web-1")]
    assert unassigned.types() == [("DELETED", "web-1")]


def test_event_sequence_and_resource_versions(client, rt, h):
    pods = client.core_v1().pods("default")
    w = client.core_v1().pods().watch()
    assert isinstance(w, Interface)
    box = h.collect(rt, w)
    p = pods.create(h.make_pod("a"))
    p = pods.update(attrs.evolve(p, metadata=attrs.evolve(p.metadata, labels={"x": "y"})))
    pods.delete("a")
    h.settle(rt)
    assert box.types() == [("ADDED", "a"), ("MODIFIED", "a"), ("DELETED", "a")]
    assert [e.object.metadata.resource_version for e in box.events] == ["2", "3", "4"]


def test_namespace_and_label_selector(client, rt, h):
    box = h.collect(rt, client.core_v1().pods("a").watch(label_selector="app=web"))
    client.core_v1().pods("a").create(h.make_pod("p1", ns="a", labels={"app": "web"}))
    client.core_v1().pods("b").create(h.make_pod("p2", ns="b", labels={"app": "web"}))
    p3 = client.core_v1().pods("a").create(h.make_pod("p3", ns="a", labels={"app": "db"}))
    client.core_v1().pods("a").update(attrs.evolve(p3, metadata=attrs.evolve(p3.metadata, labels={"app": "web"})))
    h.settle(rt)
    assert box.types() == [("ADDED", "p1"), ("ADDED", "p3")]


def test_watch_from_resource_version_replays(client, rt, h):
    pods = client.core_v1().pods("default")
    pods.create(h.make_pod("a"))
    rv = pods.list().metadata.resource_version
    pods.create(h.make_pod("b"))
    pods.delete("a")
    box = h.collect(rt, client.core_v1().pods().watch(resource_version=rv))
    pods.create(h.make_pod("c"))
    h.settle(rt)
    assert box.types() == [("ADDED", "b"), ("DELETED", "a"), ("ADDED", "c")]


@pytest.mark.parametrize("rv", ["0", ""])
def test_watch_without_a_resource_version_starts_with_the_existing_objects(client, rt, h, rv):
    """1.6's watch cache (GetAllEventsSinceThreadUnsafe(0)): every current object as ADDED first."""
    client.core_v1().pods("default").create(h.make_pod("z"))
    client.core_v1().pods("default").create(h.make_pod("a"))
    box = h.collect(rt, client.core_v1().pods().watch(resource_version=rv))
    client.core_v1().pods("default").create(h.make_pod("b"))
    h.settle(rt)
    assert box.types() == [("ADDED", "a"), ("ADDED", "z"), ("ADDED", "b")]


def test_too_old_resource_version(client, server, rt, h):
    server.set_watch_window(3)
    pods = client.core_v1().pods("default")
    for i in range(6):
        pods.create(h.make_pod(f"p{i}"))  # rv 2..7; window keeps 5..7
    box = h.collect(rt, client.core_v1().pods().watch(resource_version="3"))
    h.settle(rt)
    assert box.closed
    assert len(box.events) == 1 and box.events[0].type == "ERROR"
    status = box.events[0].object
    assert isinstance(status, Status)
    assert status.code == 410 and status.reason == "Gone"
    assert status.message == "too old resource version: 3 (4)"
    assert errors.is_gone(errors.from_object(status))
    # RV 4 is still fine: every event after it is in the window.
    ok = h.collect(rt, client.core_v1().pods().watch(resource_version="4"))
    h.settle(rt)
    assert ok.types() == [("ADDED", "p3"), ("ADDED", "p4"), ("ADDED", "p5")] and not ok.closed


def test_timeout_seconds_closes_watch(client, rt, h):
    rt.run(until=100.0)
    box = h.collect(rt, client.core_v1().pods().watch(timeout_seconds=300))
    rt.run(until=399.0)
    assert not box.closed
    rt.run(until=400.0)
    assert box.closed
    assert client.server.watches == []


def test_stop_closes_result_chan(client, rt, h):
    w = client.core_v1().pods().watch()
    box = h.collect(rt, w)
    w.stop()
    w.stop()  # idempotent
    h.settle(rt)
    assert box.closed
    client.core_v1().pods("default").create(h.make_pod("late"))
    h.settle(rt)
    assert box.events == []


def test_slow_consumer_never_blocks_server(client, rt, h):
    w = client.core_v1().pods().watch()  # nobody reads it yet
    for i in range(50):
        client.core_v1().pods("default").create(h.make_pod(f"p{i}"))
    h.settle(rt)
    assert len(client.core_v1().pods().list().items) == 50
    box = h.collect(rt, w)
    h.settle(rt)
    assert [n for _, n in box.types()] == [f"p{i}" for i in range(50)]


def test_watch_bad_resource_version(client):
    with pytest.raises(errors.BadRequestError):
        client.core_v1().pods().watch(resource_version="abc")


def test_stopped_watch_leaves_no_timer_behind(client, rt, h):
    w = client.core_v1().pods().watch(timeout_seconds=500)
    h.collect(rt, w)
    h.settle(rt)
    assert rt.next_timer() == 500.0
    w.stop()
    h.settle(rt)
    assert rt.next_timer() is None

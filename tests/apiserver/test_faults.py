"""Fault injection hooks of the embedded API server."""

from __future__ import annotations

import pytest

from kschedlearn.apimachinery.api import errors
from kschedlearn.apimachinery.api.errors import GroupResource


def test_fail_next_bind_with_internal_error(client, server, h):
    pods = client.core_v1().pods("default")
    pods.create(h.make_pod("web-1"))
    server.faults.fail_next("bind", "pods", errors.new_internal_error("etcd is down"))
    with pytest.raises(errors.InternalError) as exc:
        pods.bind(h.make_binding("web-1", "n1"))
    assert exc.value.code == 500 and str(exc.value) == "Internal error occurred: etcd is down"
    assert pods.get("web-1").spec.node_name == ""
    pods.bind(h.make_binding("web-1", "n1"))  # only the next one failed
    assert pods.get("web-1").spec.node_name == "n1"


def test_fail_next_n_with_conflict_only_matching_resource(client, server, h):
    server.faults.fail_next(
        "create", "pods", errors.new_conflict(GroupResource("", "pods"), "x", "injected"), n=2)
    client.core_v1().nodes().list()  # other verbs/resources unaffected
    for _ in range(2):
        with pytest.raises(errors.ConflictError):
            client.core_v1().pods("default").create(h.make_pod("p"))
    assert client.core_v1().pods("default").create(h.make_pod("p")).metadata.name == "p"
    assert server.faults.describe() == []


def test_fail_next_default_error_and_bad_verb(client, server):
    server.faults.fail_next("list")
    with pytest.raises(errors.InternalError, match="injected fault"):
        client.core_v1().nodes().list()
    with pytest.raises(ValueError, match="unknown verb 'frobnicate'"):
        server.faults.fail_next("frobnicate")


def test_delay_next_sleeps_the_caller(client, server, rt, h):
    server.faults.delay_next("bind", 2.5, resource="pods")
    pods = client.core_v1().pods("default")
    pods.create(h.make_pod("web-1"))

    def bind() -> float:
        start = rt.now
        pods.bind(h.make_binding("web-1", "n1"))
        return rt.now - start

    assert rt.run_fn(bind) == 2.5
    assert pods.get("web-1").spec.node_name == "n1"
    pods.create(h.make_pod("web-2"))
    assert rt.run_fn(lambda: (pods.bind(h.make_binding("web-2", "n1")), rt.now)[1]) == 2.5


def test_close_watches_now(client, server, rt, h):
    pods_w = h.collect(rt, client.core_v1().pods().watch())
    nodes_w = h.collect(rt, client.core_v1().nodes().watch())
    assert server.faults.close_watches("pods") == 1
    h.settle(rt)
    assert pods_w.closed and not nodes_w.closed
    assert server.close_watches() == 1
    h.settle(rt)
    assert nodes_w.closed and server.watches == []


def test_stall_watch_then_release_in_order(client, server, rt, h):
    box = h.collect(rt, client.core_v1().pods().watch())
    assert server.faults.stall_watches(5.0) == 1
    for name in ("a", "b", "c"):
        client.core_v1().pods("default").create(h.make_pod(name))
    rt.run(until=4.9)
    assert box.events == []
    assert server.debug_state()["watches"][0]["pending"] == 3
    rt.run(until=5.0)
    assert box.types() == [("ADDED", "a"), ("ADDED", "b"), ("ADDED", "c")]


def test_expire_watch_window_makes_reconnect_too_old(client, server, rt, h):
    pods = client.core_v1().pods("default")
    pods.create(h.make_pod("a"))
    rv = pods.list().metadata.resource_version
    pods.create(h.make_pod("b"))
    pods.create(h.make_pod("c"))
    server.faults.expire_watch_window(0)
    box = h.collect(rt, client.core_v1().pods().watch(resource_version=rv))
    h.settle(rt)
    assert box.closed and [e.type for e in box.events] == ["ERROR"]
    assert box.events[0].object.message == "too old resource version: 2 (4)"
    # A fresh list + watch from its RV works again.
    rv2 = pods.list().metadata.resource_version
    ok = h.collect(rt, client.core_v1().pods().watch(resource_version=rv2))
    pods.create(h.make_pod("d"))
    h.settle(rt)
    assert ok.types() == [("ADDED", "d")]

"""Property: a list at resourceVersion N followed by a watch from N reconstructs the server state.

This is exactly what a Reflector relies on (spec §9.5): nothing missed, nothing delivered twice,
also with label selectors and with the scheduler's two field selectors (spec §2.3), where binding
and completion make pods enter or leave the selection.
"""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.apimachinery.api.errors import StatusError
from kschedlearn.apiserver import APIServer, new_for_server
from kschedlearn.sim import Runtime

UNASSIGNED = "spec.nodeName==,status.phase!=Succeeded,status.phase!=Failed"
ASSIGNED = "spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed"
SELECTORS = [(None, None), ("app=web", None), (None, UNASSIGNED), (None, ASSIGNED),
             ("app!=web", ASSIGNED)]

names = st.sampled_from(["p0", "p1", "p2", "p3"])
namespaces = st.sampled_from(["a", "b"])
op = st.one_of(
    st.tuples(st.just("create"), namespaces, names, st.sampled_from(["web", "db"])),
    st.tuples(st.just("relabel"), namespaces, names, st.sampled_from(["web", "db"])),
    st.tuples(st.just("bind"), namespaces, names, st.sampled_from(["n1", "n2"])),
    st.tuples(st.just("phase"), namespaces, names,
              st.sampled_from(["Running", "Succeeded", "Failed", "Pending"])),
    st.tuples(st.just("delete"), namespaces, names, st.sampled_from([None, 0, 3])),
    st.tuples(st.just("stale_update"), namespaces, names, st.just("")),
    st.tuples(st.just("tick"), st.just(""), st.just(""), st.sampled_from([1.0, 5.0, 40.0])),
)
ops = st.lists(op, max_size=25)


def apply(rt: Runtime, client: Any, step: tuple[str, str, str, Any], h: Any) -> None:
    kind, ns, name, arg = step
    pods = client.core_v1().pods(ns)
    try:
        if kind == "create":
            pods.create(h.make_pod(name, ns=ns, labels={"app": arg}))
        elif kind == "relabel":
            p = pods.get(name)
            pods.update(attrs.evolve(p, metadata=attrs.evolve(p.metadata, labels={"app": arg})))
        elif kind == "bind":
            pods.bind(h.make_binding(name, arg, ns=ns))
        elif kind == "phase":
            p = pods.get(name)
            pods.update_status(attrs.evolve(p, status=attrs.evolve(p.status, phase=arg)))
        elif kind == "delete":
            pods.delete(name, grace_period_seconds=arg)
        elif kind == "stale_update":
            p = pods.get(name)
            stale = attrs.evolve(p.metadata, resource_version="1", labels={"stale": "yes"})
            pods.update(attrs.evolve(p, metadata=stale))
        elif kind == "tick":
            rt.run(until=rt.now + arg)
    except StatusError:
        pass  # NotFound / AlreadyExists / Conflict are legitimate answers


def _key(obj: Any) -> tuple[str, str]:
    return (obj.metadata.namespace, obj.metadata.name)


@settings(max_examples=examples(150), deadline=None)
@given(before=ops, between=ops, after=ops, selector=st.sampled_from(SELECTORS))
def test_list_then_watch_reconstructs_state(before, between, after, selector, h):
    rt = Runtime(seed=3)
    client = new_for_server(APIServer(rt))
    label_sel, field_sel = selector
    for step in before:
        apply(rt, client, step, h)
    listed = client.core_v1().pods().list(label_selector=label_sel, field_selector=field_sel,
                                          resource_version="0")
    for step in between:
        apply(rt, client, step, h)
    w = client.core_v1().pods().watch(label_selector=label_sel, field_selector=field_sel,
                                      resource_version=listed.metadata.resource_version)
    box = h.collect(rt, w)
    for step in after:
        apply(rt, client, step, h)
    h.settle(rt)

    state = {_key(o): o for o in listed.items}
    last_rv = int(listed.metadata.resource_version)
    for event in box.events:
        key = _key(event.object)
        rv = int(event.object.metadata.resource_version)
        assert rv > last_rv, "events arrive in resourceVersion order, none replayed twice"
        last_rv = rv
        if event.type == "ADDED":
            assert key not in state, f"ADDED for {key} already present"
            state[key] = event.object
        elif event.type == "MODIFIED":
            assert key in state, f"MODIFIED for unknown {key}"
            state[key] = event.object
        else:
            assert event.type == "DELETED"
            assert key in state, f"DELETED for unknown {key}"
            del state[key]
    final = client.core_v1().pods().list(label_selector=label_sel, field_selector=field_sel)
    assert state == {_key(o): o for o in final.items}
    assert not box.closed

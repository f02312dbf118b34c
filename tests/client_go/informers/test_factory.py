"""The shared informer factory against the embedded API server, plus the convergence property:
after any sequence of API operations, dropped watches and expired watch windows (410 Gone),
an informer's store equals the server's matching objects, and every key's handler calls form
a valid life cycle.

Go: pkg/client/informers/informers_generated/externalversions/factory.go (no Go test).
"""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn import sim
from kschedlearn.observe.informers import observe_informer_factory
from kschedlearn.observe.views import informer_factory_state
from kschedlearn.api.v1 import Node, ObjectMeta, Pod, PodSpec
from kschedlearn.apimachinery import labels
from kschedlearn.apiserver import APIServer, new_for_server
from kschedlearn.client_go.informers import new_shared_informer_factory
from kschedlearn.client_go.tools.cache import DeletedFinalStateUnknown, NAMESPACE_INDEX, meta_namespace_index_func
from kschedlearn.client_go.tools.cache.controller import ResourceEventHandlerFuncs, new_indexer_informer
from kschedlearn.client_go.tools.cache.listwatch import new_list_watch_from_client
from kschedlearn.trace import Tracer


def mk_pod(name: str, node: str = "", **lbl: str) -> Pod:
    return Pod(metadata=ObjectMeta(name=name, namespace="default", labels=lbl),
               spec=PodSpec(node_name=node))


def test_start_runs_only_requested_informers_once() -> None:
    rt = sim.Runtime(seed=1)
    rt.tracer = Tracer()
    server = APIServer(rt, validation=False)  # as Go's fake clientset
    client = new_for_server(server)
    factory = observe_informer_factory(new_shared_informer_factory(client, 0))  # its trace point
    stop = sim.Chan()

    def body() -> Any:
        client.core_v1().nodes().create(Node(metadata=ObjectMeta(name="n1")))
        client.core_v1().pods("default").create(mk_pod("p1", app="web"))
        node_lister = factory.core().v1().nodes().lister()
        assert factory.core().v1().nodes().informer() is factory.core().v1().nodes().informer()
        factory.start(stop)
        factory.start(stop)  # idempotent
        sim.sleep(1.0)
        nodes = [n.metadata.name for n in node_lister.list(labels.everything())]
        pod_lister = factory.core().v1().pods().lister()  # registered after start: not running
        pods_before = pod_lister.list(labels.everything())
        factory.start(stop)
        sim.sleep(1.0)
        pods_after = [p.metadata.name for p in pod_lister.pods("default").list(labels.everything())]
        got = pod_lister.pods("default").get("p1").metadata.name
        stop.close()
        sim.sleep(0.1)
        return nodes, pods_before, pods_after, got

    nodes, before, after, got = rt.run_fn(body)
    assert nodes == ["n1"] and before == [] and after == ["p1"] and got == "p1"
    starts = [e.data["started"] for e in rt.tracer.events if e.stage == "informerFactory.Start"]
    assert starts == [["Node"], [], ["Pod"]]
    assert set(informer_factory_state(factory)) == {"Node", "Pod"}


@attrs.define
class _Recorder:
    calls: list[tuple[str, str]] = attrs.field(factory=list)

    def handler(self) -> ResourceEventHandlerFuncs:
        return ResourceEventHandlerFuncs(
            add_func=lambda o: self.calls.append(("add", _key(o))),
            update_func=lambda old, new: self.calls.append(("update", _key(new))),
            delete_func=lambda o: self.calls.append(("delete", _key(o))),
        )


def _key(o: Any) -> str:
    if isinstance(o, DeletedFinalStateUnknown):
        return o.key
    return f"{o.metadata.namespace}/{o.metadata.name}"


def _assert_life_cycles(calls: list[tuple[str, str]]) -> None:
    alive: dict[str, bool] = {}
    for op, key in calls:
        if op == "add":
            assert not alive.get(key, False), (key, calls)
            alive[key] = True
        else:
            assert alive.get(key, False), (op, key, calls)
            if op == "delete":
                alive[key] = False


_NAMES = ["a", "b", "c", "d"]
_op = st.one_of(
    st.tuples(st.just("create"), st.sampled_from(_NAMES), st.sampled_from(["", "n1"])),
    st.tuples(st.just("relabel"), st.sampled_from(_NAMES), st.sampled_from(["x", "y"])),
    st.tuples(st.just("bind"), st.sampled_from(_NAMES), st.just("n2")),
    st.tuples(st.just("delete"), st.sampled_from(_NAMES), st.just("")),
    st.tuples(st.just("close_watches"), st.just(""), st.just("")),
    st.tuples(st.just("expire"), st.just(""), st.just("")),
    st.tuples(st.just("sleep"), st.just(""), st.sampled_from(["0.2", "1.5"])),
)


def _apply(client: Any, server: APIServer, op: tuple[str, str, str]) -> None:
    kind, name, arg = op
    pods = client.core_v1().pods("default")
    try:
        if kind == "create":
            pods.create(mk_pod(name, arg))
        elif kind == "relabel":
            cur = pods.get(name)
            pods.update(attrs.evolve(cur, metadata=attrs.evolve(cur.metadata, labels={"l": arg})))
        elif kind == "bind":
            cur = pods.get(name)
            pods.update(attrs.evolve(cur, spec=attrs.evolve(cur.spec, node_name=arg)))
        elif kind == "delete":
            pods.delete(name, grace_period_seconds=0)
        elif kind == "close_watches":
            server.faults.close_watches()
        elif kind == "expire":
            server.faults.expire_watch_window(0)
            server.faults.close_watches()
        elif kind == "sleep":
            sim.sleep(float(arg))
    except Exception as err:  # noqa: BLE001 - NotFound/AlreadyExists/Conflict are part of the game
        assert type(err).__name__.endswith("Error"), err


@settings(max_examples=examples(40), deadline=None)
@given(ops=st.lists(_op, max_size=25), seed=st.integers(0, 2**16))
def test_informers_converge_and_life_cycles_are_valid(ops: list[tuple[str, str, str]],
                                                      seed: int) -> None:
    rt = sim.Runtime(seed=seed)
    server = APIServer(rt, validation=False)  # as Go's fake clientset
    client = new_for_server(server)
    factory = new_shared_informer_factory(client, 0)
    all_rec, assigned_rec = _Recorder(), _Recorder()
    stop = sim.Chan()

    def body() -> tuple[Any, Any, Any, Any]:
        informer = factory.core().v1().pods().informer()
        informer.add_event_handler(all_rec.handler())
        assigned, controller = new_indexer_informer(
            new_list_watch_from_client(client, "pods", "", "spec.nodeName!="), Pod, 0,
            assigned_rec.handler(), {NAMESPACE_INDEX: meta_namespace_index_func})
        factory.start(stop)
        sim.go(controller.run, stop)
        for op in ops:
            _apply(client, server, op)
        sim.sleep(5.0)  # quiet period: relists (1s after an error) and watches catch up
        everything = {_key(p): p.metadata.resource_version
                      for p in client.core_v1().pods("").list().items}
        bound = {_key(p): p.metadata.resource_version
                 for p in client.core_v1().pods("").list(field_selector="spec.nodeName!=").items}
        shared = {_key(p): p.metadata.resource_version for p in informer.get_indexer().list()}
        mine = {_key(p): p.metadata.resource_version for p in assigned.list()}
        stop.close()
        sim.sleep(0.1)
        return everything, shared, bound, mine

    everything, shared, bound, mine = rt.run_fn(body)
    assert shared == everything
    assert mine == bound
    _assert_life_cycles(all_rec.calls)
    _assert_life_cycles(assigned_rec.calls)

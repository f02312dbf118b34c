"""Port of plugin/pkg/scheduler/core/extender_test.go, plus the HTTP extender on a real server.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/extender_test.go

``TestGenericSchedulerWithExtenders`` uses in-process fake extenders, as Go does. The second half
(kschedlearn-only) drives :class:`HTTPExtender` against an ``http.server`` on 127.0.0.1 with an
OS-chosen port, checking the JSON that goes over the wire and how replies are read.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import attrs
import pytest

from kschedlearn.api.v1 import Node, ObjectMeta, Pod
from kschedlearn.scheduler.algorithm.predicates.error import FailureReason
from kschedlearn.scheduler.algorithm.types import PriorityConfig, empty_metadata_producer
from kschedlearn.scheduler.api.types import ExtenderConfig, HostPriority
from kschedlearn.scheduler.core.extender import (
    DEFAULT_EXTENDER_TIMEOUT,
    ExtenderError,
    HTTPExtender,
    new_http_extender,
)
from kschedlearn.scheduler.core.generic_scheduler import (
    FitError,
    equal_priority_map,
    find_nodes_that_fit,
    new_generic_scheduler,
)
from kschedlearn.scheduler.schedulercache.cache import _new_scheduler_cache
from kschedlearn.scheduler.schedulercache.node_info import new_node_info
from kschedlearn.scheduler.testing import FakeNodeLister

# --- Go's fake extender -----------------------------------------------------------------------


def _node(name: str) -> Node:
    return Node(metadata=ObjectMeta(name=name))


def make_node_list(names: list[str]) -> list[Node]:
    return [_node(n) for n in names]


def true_predicate(pod: Any, meta: Any, node_info: Any) -> tuple[bool, list[Any]]:
    return True, []


def error_predicate_extender(pod: Pod, node: Node) -> bool:
    raise RuntimeError("Some error")


def false_predicate_extender(pod: Pod, node: Node) -> bool:
    return False


def true_predicate_extender(pod: Pod, node: Node) -> bool:
    return True


def machine1_predicate_extender(pod: Pod, node: Node) -> bool:
    return node.metadata.name == "machine1"


def machine2_predicate_extender(pod: Pod, node: Node) -> bool:
    return node.metadata.name == "machine2"


def error_prioritizer_extender(pod: Pod, nodes: list[Node]) -> list[HostPriority]:
    raise RuntimeError("Some error")


def _prefer(machine: str) -> Callable[[Pod, list[Node]], list[HostPriority]]:
    def prioritizer(pod: Pod, nodes: list[Node]) -> list[HostPriority]:
        return [HostPriority(host=n.metadata.name, score=10 if n.metadata.name == machine else 1)
                for n in nodes]
    return prioritizer


machine1_prioritizer_extender = _prefer("machine1")
machine2_prioritizer_extender = _prefer("machine2")


def machine2_prioritizer(pod: Pod, node_name_to_info: Any, nodes: list[Node]) -> list[HostPriority]:
    return _prefer("machine2")(pod, nodes)


@attrs.define(eq=False)
class FakeExtender:
    """Go: extender_test.go FakeExtender (predicates on nodes, weighted prioritizers)."""

    predicates: list[Callable[[Pod, Node], bool]] = attrs.field(factory=list)
    prioritizers: list[tuple[Callable[[Pod, list[Node]], list[HostPriority]], int]] = attrs.field(
        factory=list)
    weight: int = 0

    def filter(self, pod: Pod, nodes: list[Node], node_name_to_info: Any
               ) -> tuple[list[Node], dict[str, str]]:
        filtered: list[Node] = []
        failed: dict[str, str] = {}
        for node in nodes:
            fits = True
            for predicate in self.predicates:
                if not predicate(pod, node):  # an exception propagates, as Go returns err
                    fits = False
                    break
            if fits:
                filtered.append(node)
            else:
                failed[node.metadata.name] = "FakeExtender failed"
        return filtered, failed

    def prioritize(self, pod: Pod, nodes: list[Node]) -> tuple[list[HostPriority], int]:
        combined: dict[str, int] = {}
        for function, weight in self.prioritizers:
            if weight == 0:
                continue
            for hp in function(pod, nodes):
                combined[hp.host] = combined.get(hp.host, 0) + hp.score * weight
        return [HostPriority(host=h, score=s) for h, s in combined.items()], self.weight


_EQ = [PriorityConfig(map_fn=equal_priority_map, weight=1)]

EXTENDER_CASES = [
    pytest.param(_EQ, [FakeExtender(predicates=[true_predicate_extender]),
                       FakeExtender(predicates=[error_predicate_extender])],
                 ["machine1", "machine2"], None, True, id="test 1"),
    pytest.param(_EQ, [FakeExtender(predicates=[true_predicate_extender]),
                       FakeExtender(predicates=[false_predicate_extender])],
                 ["machine1", "machine2"], None, True, id="test 2"),
    pytest.param(_EQ, [FakeExtender(predicates=[true_predicate_extender]),
                       FakeExtender(predicates=[machine1_predicate_extender])],
                 ["machine1", "machine2"], "machine1", False, id="test 3"),
    pytest.param(_EQ, [FakeExtender(predicates=[machine2_predicate_extender]),
                       FakeExtender(predicates=[machine1_predicate_extender])],
                 ["machine1", "machine2"], None, True, id="test 4"),
    pytest.param(_EQ, [FakeExtender(predicates=[true_predicate_extender],
                                    prioritizers=[(error_prioritizer_extender, 10)], weight=1)],
                 ["machine1"], "machine1", False, id="test 5"),
    pytest.param(_EQ, [FakeExtender(predicates=[true_predicate_extender],
                                    prioritizers=[(machine1_prioritizer_extender, 10)], weight=1),
                       FakeExtender(predicates=[true_predicate_extender],
                                    prioritizers=[(machine2_prioritizer_extender, 10)], weight=5)],
                 ["machine1", "machine2"], "machine2", False, id="test 6"),
    pytest.param([PriorityConfig(function=machine2_prioritizer, weight=20)],
                 [FakeExtender(predicates=[true_predicate_extender],
                               prioritizers=[(machine1_prioritizer_extender, 10)], weight=1)],
                 ["machine1", "machine2"], "machine2", False, id="test 7"),
]


@pytest.mark.parametrize("prioritizers,extenders,nodes,expected_host,expects_err", EXTENDER_CASES)
def test_generic_scheduler_with_extenders(
    prioritizers: list[PriorityConfig], extenders: list[FakeExtender], nodes: list[str],
    expected_host: str | None, expects_err: bool,
) -> None:
    """Go: TestGenericSchedulerWithExtenders."""
    cache = _new_scheduler_cache(0.0, 1.0, None)
    for name in nodes:
        cache.add_node(_node(name))
    scheduler = new_generic_scheduler(cache, {"true": true_predicate}, empty_metadata_producer,
                                      prioritizers, empty_metadata_producer, extenders)
    pod_ignored = Pod()
    if expects_err:
        with pytest.raises(Exception):
            scheduler.schedule(pod_ignored, FakeNodeLister(make_node_list(nodes)))
        return
    assert scheduler.schedule(pod_ignored, FakeNodeLister(make_node_list(nodes))) == expected_host


def test_extender_failed_nodes_become_fit_error_reasons() -> None:
    """The extender's failed-node messages join the FitError histogram (find_nodes_that_fit)."""
    cache = _new_scheduler_cache(0.0, 1.0, None)
    for name in ("machine1", "machine2"):
        cache.add_node(_node(name))
    scheduler = new_generic_scheduler(
        cache, {"true": true_predicate}, empty_metadata_producer, _EQ, empty_metadata_producer,
        [FakeExtender(predicates=[false_predicate_extender])])
    with pytest.raises(FitError) as exc:
        scheduler.schedule(Pod(), FakeNodeLister(make_node_list(["machine1", "machine2"])))
    assert exc.value.failed_predicates == {
        "machine1": [FailureReason("FakeExtender failed")],
        "machine2": [FailureReason("FakeExtender failed")],
    }
    assert str(exc.value) == ("No nodes are available that match all of the following "
                              "predicates:: FakeExtender failed (2).")


def test_extenders_stop_once_no_node_is_left() -> None:
    """find_nodes_that_fit does not call the next extender once the list is empty."""
    calls: list[str] = []

    @attrs.define
    class Recording(FakeExtender):
        tag: str = ""

        def filter(self, pod: Pod, nodes: list[Node], info: Any) -> tuple[list[Node], dict[str, str]]:
            calls.append(self.tag)
            return super().filter(pod, nodes, info)

    nodes = make_node_list(["machine1"])
    infos = {"machine1": new_node_info()}
    infos["machine1"].set_node(nodes[0])
    filtered, failed = find_nodes_that_fit(
        Pod(), infos, nodes, {}, [Recording(predicates=[false_predicate_extender], tag="a"),
                                  Recording(tag="b")], empty_metadata_producer)
    assert filtered == [] and calls == ["a"]
    assert failed == {"machine1": [FailureReason("FakeExtender failed")]}


# --- the HTTP extender against a real server (kschedlearn-only) ------------------------------


@attrs.define(eq=False)
class ExtenderServer:
    """A tiny extender: records each request, answers with ``reply(path, body)``."""

    reply: Callable[[str, Any], Any]
    requests: list[tuple[str, Any, str]] = attrs.field(factory=list)
    delay: float = 0.0
    status: int = 200
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}/scheduler"


@pytest.fixture
def extender_server() -> Iterator[Callable[..., ExtenderServer]]:
    started: list[ExtenderServer] = []

    def start(reply: Callable[[str, Any], Any], **kw: Any) -> ExtenderServer:
        state = ExtenderServer(reply=reply, **kw)

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                state.requests.append((self.path, body, self.headers.get("Content-Type", "")))
                if state.delay:
                    time.sleep(state.delay)
                out = json.dumps(state.reply(self.path, body)).encode()
                try:
                    self.send_response(state.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(out)))
                    self.end_headers()
                    self.wfile.write(out)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and went away

            def log_message(self, *args: Any) -> None:
                pass

        state.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        state.server.daemon_threads = True
        threading.Thread(target=state.server.serve_forever, args=(0.01,), daemon=True).start()
        started.append(state)
        return state

    yield start
    for state in started:
        assert state.server is not None
        state.server.shutdown()
        state.server.server_close()


def _pod() -> Pod:
    return Pod(metadata=ObjectMeta(name="web-1", namespace="default"))


def _infos(nodes: list[Node]) -> dict[str, Any]:
    infos = {}
    for n in nodes:
        infos[n.metadata.name] = new_node_info()
        infos[n.metadata.name].set_node(n)
    return infos


def _extender(url: str, **kw: Any) -> HTTPExtender:
    return new_http_extender(ExtenderConfig(url_prefix=url, **kw))


def test_new_http_extender_defaults() -> None:
    ext = _extender("http://127.0.0.1:1/x", filter_verb="filter", weight=3)
    assert ext.client.timeout == DEFAULT_EXTENDER_TIMEOUT == 5.0
    assert ext.client.ssl_context is None
    assert (ext.extender_url, ext.filter_verb, ext.prioritize_verb, ext.weight) == (
        "http://127.0.0.1:1/x", "filter", "", 3)
    assert _extender("http://h", http_timeout=0.25).client.timeout == 0.25


def test_https_without_ca_is_insecure() -> None:
    import ssl
    ext = _extender("https://h", enable_https=True)
    assert ext.client.ssl_context is not None
    assert ext.client.ssl_context.verify_mode == ssl.CERT_NONE


def test_filter_without_verb_passes_every_node_through() -> None:
    nodes = make_node_list(["m1", "m2"])
    ext = _extender("http://127.0.0.1:9")  # nothing listens there: no call may be made
    assert ext.filter(_pod(), nodes, _infos(nodes)) == (nodes, {})


def test_filter_sends_go_shaped_args_and_reads_failed_nodes(extender_server: Any) -> None:
    nodes = make_node_list(["m1", "m2", "m3"])

    def reply(path: str, body: Any) -> Any:
        items = body["Nodes"]["items"]
        return {"nodes": {"items": [i for i in items if i["metadata"]["name"] != "m2"]},
                "failedNodes": {"m2": "no GPU left"}, "error": ""}

    srv = extender_server(reply)
    ext = _extender(srv.url, filter_verb="filter")
    kept, failed = ext.filter(_pod(), nodes, _infos(nodes))
    assert [n.metadata.name for n in kept] == ["m1", "m3"]
    assert kept == [nodes[0], nodes[2]]  # decoded copies equal the originals
    assert failed == {"m2": "no GPU left"}
    path, body, ctype = srv.requests[0]
    assert path == "/scheduler/filter" and ctype == "application/json"
    assert set(body) == {"Pod", "Nodes", "NodeNames"}  # 1.6's internal type has no JSON tags
    assert body["Pod"]["metadata"] == {"name": "web-1", "namespace": "default"}
    assert body["NodeNames"] is None
    assert body["Nodes"]["metadata"] == {}
    assert [i["metadata"]["name"] for i in body["Nodes"]["items"]] == ["m1", "m2", "m3"]


def test_filter_error_field_is_raised(extender_server: Any) -> None:
    srv = extender_server(lambda p, b: {"Error": "extender is sad", "Nodes": None})
    nodes = make_node_list(["m1"])
    with pytest.raises(ExtenderError, match="^extender is sad$"):
        _extender(srv.url, filter_verb="filter").filter(_pod(), nodes, _infos(nodes))


def test_filter_error_aborts_the_scheduling_attempt(extender_server: Any) -> None:
    srv = extender_server(lambda p, b: {"error": "boom"})
    cache = _new_scheduler_cache(0.0, 1.0, None)
    cache.add_node(_node("m1"))
    gs = new_generic_scheduler(cache, {"true": true_predicate}, empty_metadata_producer, _EQ,
                               empty_metadata_producer, [_extender(srv.url, filter_verb="f")])
    with pytest.raises(ExtenderError, match="boom"):
        gs.schedule(_pod(), FakeNodeLister([_node("m1")]))


def test_filter_node_cache_capable_sends_and_reads_names(extender_server: Any) -> None:
    nodes = make_node_list(["m1", "m2"])
    srv = extender_server(lambda p, b: {"NodeNames": ["m2"], "FailedNodes": {"m1": "full"}})
    ext = _extender(srv.url, filter_verb="filter", node_cache_capable=True)
    kept, failed = ext.filter(_pod(), nodes, _infos(nodes))
    assert kept == [nodes[1]] and kept[0] is nodes[1]  # taken from node_name_to_info
    assert failed == {"m1": "full"}
    body = srv.requests[0][1]
    assert body["Nodes"] is None and body["NodeNames"] == ["m1", "m2"]


def test_filter_node_cache_capable_unknown_name_maps_to_none(extender_server: Any) -> None:
    """1.6 hazard: a name the scheduler does not know becomes a nil node."""
    nodes = make_node_list(["m1"])
    srv = extender_server(lambda p, b: {"nodenames": ["m1", "ghost"]})
    kept, _ = _extender(srv.url, filter_verb="f", node_cache_capable=True).filter(
        _pod(), nodes, _infos(nodes))
    assert kept == [nodes[0], None]


def test_prioritize_with_weight(extender_server: Any) -> None:
    nodes = make_node_list(["m1", "m2"])
    srv = extender_server(lambda p, b: [{"host": "m1", "score": 3}, {"Host": "m2", "Score": 7}])
    scores, weight = _extender(srv.url, prioritize_verb="prioritize", weight=5).prioritize(_pod(), nodes)
    assert scores == [HostPriority(host="m1", score=3), HostPriority(host="m2", score=7)]
    assert weight == 5
    assert srv.requests[0][0] == "/scheduler/prioritize"


def test_prioritize_without_verb_gives_zeros_and_weight_zero() -> None:
    nodes = make_node_list(["m1", "m2"])
    scores, weight = _extender("http://127.0.0.1:9", weight=5).prioritize(_pod(), nodes)
    assert scores == [HostPriority(host="m1", score=0), HostPriority(host="m2", score=0)]
    assert weight == 0


def test_prioritize_adds_weighted_scores_in_prioritize_nodes(extender_server: Any) -> None:
    srv = extender_server(lambda p, b: [{"host": "m1", "score": 2}])
    cache = _new_scheduler_cache(0.0, 1.0, None)
    for n in ("m1", "m2"):
        cache.add_node(_node(n))
    ext = _extender(srv.url, prioritize_verb="prio", weight=3)
    gs = new_generic_scheduler(cache, {}, empty_metadata_producer, _EQ, empty_metadata_producer, [ext])
    # EqualPriority gives both 1; the extender adds 2*3 to m1 only
    assert gs.schedule(_pod(), FakeNodeLister(make_node_list(["m1", "m2"]))) == "m1"


def test_timeout_is_an_error(extender_server: Any) -> None:
    srv = extender_server(lambda p, b: {"error": ""}, delay=0.5)
    nodes = make_node_list(["m1"])
    ext = _extender(srv.url, filter_verb="filter", http_timeout=0.05)
    start = time.monotonic()
    with pytest.raises(ExtenderError, match=r"^Post http://127\.0\.0\.1:\d+/scheduler/filter: .*timed out"):
        ext.filter(_pod(), nodes, _infos(nodes))
    assert time.monotonic() - start < 0.45


def test_prioritize_error_is_ignored_by_the_scheduler(extender_server: Any) -> None:
    srv = extender_server(lambda p, b: [{"host": "m2", "score": 100}], delay=0.5)
    cache = _new_scheduler_cache(0.0, 1.0, None)
    for n in ("m1", "m2"):
        cache.add_node(_node(n))
    ext = _extender(srv.url, prioritize_verb="prio", weight=1, http_timeout=0.05)
    gs = new_generic_scheduler(
        cache, {}, empty_metadata_producer,
        [PriorityConfig(function=lambda pod, info, nodes: [
            HostPriority(host=n.metadata.name, score=5 if n.metadata.name == "m1" else 0)
            for n in nodes], weight=1)],
        empty_metadata_producer, [ext])
    assert gs.schedule(_pod(), FakeNodeLister(make_node_list(["m1", "m2"]))) == "m1"


def test_connection_refused_is_an_error() -> None:
    nodes = make_node_list(["m1"])
    with pytest.raises(ExtenderError, match=r"^Post http://127\.0\.0\.1:9/filter: "):
        _extender("http://127.0.0.1:9", filter_verb="filter").filter(_pod(), nodes, _infos(nodes))


def test_status_code_is_not_checked_in_1_6(extender_server: Any) -> None:
    """1.6's send() decodes the body whatever the HTTP status."""
    srv = extender_server(lambda p, b: {"error": "bad request"}, status=400)
    nodes = make_node_list(["m1"])
    with pytest.raises(ExtenderError, match="^bad request$"):
        _extender(srv.url, filter_verb="filter").filter(_pod(), nodes, _infos(nodes))


@pytest.mark.parametrize("reply,message", [
    pytest.param([1, 2], "cannot unmarshal array into Go value of type api.ExtenderFilterResult",
                 id="array instead of object"),
    pytest.param({"FailedNodes": {"m1": 3}}, "FailedNodes", id="failed message not a string"),
    pytest.param({"Nodes": {"items": [{"metadata": {"name": 3}}]}}, r"Nodes\.items\[0\]: .*metadata\.name",
                 id="bad node"),
])
def test_bad_filter_replies_name_the_field(extender_server: Any, reply: Any, message: str) -> None:
    srv = extender_server(lambda p, b: reply)
    nodes = make_node_list(["m1"])
    with pytest.raises(ExtenderError, match=message):
        _extender(srv.url, filter_verb="filter").filter(_pod(), nodes, _infos(nodes))


def test_bad_prioritize_reply_names_the_field(extender_server: Any) -> None:
    srv = extender_server(lambda p, b: [{"host": "m1", "score": 1.5}])
    with pytest.raises(ExtenderError, match=r"Score"):
        _extender(srv.url, prioritize_verb="p").prioritize(_pod(), make_node_list(["m1"]))


def test_extender_call_takes_no_virtual_time(extender_server: Any) -> None:
    """Differs from Go (documented): real I/O, synchronous, the simulated clock stands still."""
    from kschedlearn import sim

    srv = extender_server(lambda p, b: [{"host": "m1", "score": 1}], delay=0.05)
    rt = sim.Runtime(seed=0)
    ext = _extender(srv.url, prioritize_verb="p", weight=1)

    def call() -> tuple[float, float]:
        before = sim.now()
        ext.prioritize(_pod(), make_node_list(["m1"]))
        return before, sim.now()

    before, after = rt.run_fn(call)
    assert before == after == 0.0

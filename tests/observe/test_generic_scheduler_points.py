"""generic_scheduler.py and factory.py carry no notebook lines: their trace points hook them.

kschedlearn-only (ISSUE-14 item 8, issue 21). The mirrored functions take Go's parameters
(podFitsOnNode, selectHost, findNodesThatFit, PrioritizeNodes at v1.6.1), the modules do not
emit, and the hooks of ``observe/generic_scheduler.py`` change no result.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from kschedlearn.scheduler.core import generic_scheduler as gs
from kschedlearn.observe import attach
from kschedlearn.observe.generic_scheduler import observe_module_functions
from kschedlearn.scheduler.factory import factory

ROOT = Path(__file__).resolve().parents[2]

# Go v1.6.1 generic_scheduler.go: the parameter lists, snake_cased
GO_PARAMETERS = {
    "find_nodes_that_fit": ["pod", "node_name_to_info", "nodes", "predicate_funcs", "extenders", "metadata_producer"],
    "pod_fits_on_node": ["pod", "meta", "info", "predicate_funcs"],
    "prioritize_nodes": ["pod", "node_name_to_info", "meta", "priority_configs", "nodes", "extenders"],
    "equal_priority_map": ["pod", "meta", "node_info"],
}


def _parameters(fn: object) -> list[str]:
    return list(inspect.signature(inspect.unwrap(fn)).parameters)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(GO_PARAMETERS))
def test_functions_take_gos_parameters(name: str) -> None:
    assert _parameters(getattr(gs, name)) == GO_PARAMETERS[name]


def test_schedule_and_select_host_take_gos_parameters() -> None:
    assert _parameters(gs.GenericScheduler.schedule) == ["self", "pod", "node_lister"]
    assert _parameters(gs.GenericScheduler._select_host) == ["self", "priority_list"]


def _emits(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    names = []
    for c in calls:
        f = c.func
        if isinstance(f, ast.Name) and f.id == "emit" and c.args and isinstance(c.args[0], ast.Constant):
            names.append(c.args[0].value)
        if isinstance(f, ast.Attribute) and f.attr == "step" and (len(c.args) != 1 or c.keywords):
            names.append(f"trace.step with {len(c.args)} args / {[k.arg for k in c.keywords]}")
    return names


def test_generic_scheduler_emits_nothing() -> None:
    assert _emits(ROOT / "kschedlearn/scheduler/core/generic_scheduler.py") == []


def test_factory_emits_nothing() -> None:
    assert _emits(ROOT / "kschedlearn/scheduler/factory/factory.py") == []
    source = inspect.getsource(factory.ConfigFactory._retry_after_backoff)
    assert "req_in_flight" not in source and "emit(" not in source


def _fits(pod: object, meta: object, info: object) -> tuple[bool, list[object]]:
    return True, []


def _no_ports(pod: object, meta: object, info: object) -> tuple[bool, list[object]]:
    from kschedlearn.scheduler.algorithm.predicates.error import new_failure_reason

    return False, [new_failure_reason("no ports"), new_failure_reason("still no ports")]


def _node_info(name: str) -> object:
    from kschedlearn.api.v1 import Node, ObjectMeta
    from kschedlearn.scheduler.schedulercache.node_info import new_node_info

    info = new_node_info()
    info.set_node(Node(metadata=ObjectMeta(name=name)))
    return info


def test_the_module_hooks_pass_through_outside_an_observed_simulation() -> None:
    from kschedlearn.api.v1 import Pod
    from kschedlearn.sim import Runtime
    from kschedlearn.trace import Tracer

    rt = Runtime(seed=0)
    rt.tracer = Tracer()
    observation = attach(rt)
    observe_module_functions(observation)
    observe_module_functions(observation)  # once per simulation: one layer of hooks
    assert inspect.unwrap(gs.pod_fits_on_node).__name__ == "pod_fits_on_node"
    fits, reasons = gs.pod_fits_on_node(Pod(), None, _node_info("n1"), {"A": _fits, "B": _no_ports})
    assert not fits and [r.get_reason() for r in reasons] == ["no ports", "still no ports"]


def test_predicate_node_records_each_predicates_own_reasons_by_wrapping() -> None:
    from kschedlearn.api.v1 import ObjectMeta, Pod
    from kschedlearn.sim import Runtime
    from kschedlearn.trace import Tracer

    rt = Runtime(seed=0)
    rt.tracer = Tracer()
    observe_module_functions(attach(rt))
    pod = Pod(metadata=ObjectMeta(namespace="default", name="web-1"))
    fits, reasons = rt.run_fn(gs.pod_fits_on_node, pod, None, _node_info("n1"), {"B": _no_ports, "A": _fits})
    assert not fits and len(reasons) == 2
    (event,) = [e for e in rt.tracer.events if e.stage == "schedule.predicate_node"]
    assert event.message == "n1: does not fit"
    assert event.data == {"pod": "default/web-1", "node": "n1", "fits": False,
                          "predicates": {"A": [], "B": ["no ports", "still no ports"]}}
    # the event stands at the call of podFitsOnNode, which has just returned
    assert event.observed is not None and event.observed.phase == "returned"
    assert event.observed.function == "pod_fits_on_node"


def _traced_runtime() -> object:
    from kschedlearn.sim import Runtime
    from kschedlearn.trace import Tracer

    rt = Runtime(seed=0)
    rt.tracer = Tracer()
    observe_module_functions(attach(rt))
    return rt


def _node_events(rt: object) -> list[object]:
    return [e for e in rt.tracer.events if e.stage == "schedule.predicate_node"]  # type: ignore[attr-defined]


def test_a_predicate_swapped_into_the_same_map_between_calls_is_seen() -> None:
    """The recording twins are reused while the map is unchanged; a function an exercise puts
    into the same dict object, a predicate added or removed, is run (and recorded) at the next call."""
    from kschedlearn.api.v1 import ObjectMeta, Pod

    rt = _traced_runtime()
    pod = Pod(metadata=ObjectMeta(namespace="default", name="web-1"))
    predicates = {"A": _fits, "B": _fits}
    info = _node_info("n1")

    def calls() -> list[tuple[bool, list[object]]]:  # in one goroutine, as the scheduler's loop
        outcomes = [gs.pod_fits_on_node(pod, None, info, predicates)]
        predicates["B"] = _no_ports  # the same dict, one function swapped
        outcomes.append(gs.pod_fits_on_node(pod, None, info, predicates))
        predicates["C"] = _fits  # a predicate added
        outcomes.append(gs.pod_fits_on_node(pod, None, info, predicates))
        del predicates["B"], predicates["C"]
        predicates["B"] = _fits  # back as it was (in another insertion order)
        outcomes.append(gs.pod_fits_on_node(pod, None, info, predicates))
        return outcomes

    outcomes = rt.run_fn(calls)  # type: ignore[attr-defined]
    assert [fits for fits, _ in outcomes] == [True, False, False, True]
    assert [e.data["predicates"] for e in _node_events(rt)] == [
        {"A": [], "B": []},
        {"A": [], "B": ["no ports", "still no ports"]},
        {"A": [], "B": ["no ports", "still no ports"], "C": []},
        {"A": [], "B": []},
    ]


def _no_ports_on_n4(pod: object, meta: object, info: object) -> tuple[bool, list[object]]:
    return _no_ports(pod, meta, info) if info.node().metadata.name == "n4" else (True, [])  # type: ignore[attr-defined]


def test_nodes_that_fit_share_one_verdicts_dict_of_the_same_content() -> None:
    """Every node that fits has the same verdicts; its events hold one dict (fewer containers
    kept by a traced run), with the keys in the order the predicates ran; a failing node, or a
    call that ran other predicates, has its own."""
    from kschedlearn.api.v1 import ObjectMeta, Pod

    rt = _traced_runtime()
    pod = Pod(metadata=ObjectMeta(namespace="default", name="web-1"))
    predicates = {"B": _no_ports_on_n4, "A": _fits}

    def calls() -> None:  # in one goroutine, as the scheduler's loop over the nodes
        for name in ("n1", "n2", "n3", "n4", "n5"):
            gs.pod_fits_on_node(pod, None, _node_info(name), predicates)
        gs.pod_fits_on_node(pod, None, _node_info("n6"), {"A": _fits})

    rt.run_fn(calls)  # type: ignore[attr-defined]
    events = _node_events(rt)
    verdicts = [e.data["predicates"] for e in events]
    assert [e.data["node"] for e in events] == ["n1", "n2", "n3", "n4", "n5", "n6"]
    assert [e.data["fits"] for e in events] == [True, True, True, False, True, True]
    assert [list(v.items()) for v in verdicts] == [
        [("A", []), ("B", [])], [("A", []), ("B", [])], [("A", []), ("B", [])],
        [("A", []), ("B", ["no ports", "still no ports"])], [("A", []), ("B", [])], [("A", [])]]
    assert verdicts[0] is verdicts[1] is verdicts[2] is verdicts[4]
    assert verdicts[3] is not verdicts[0] and verdicts[5] is not verdicts[0]
    assert all(type(v) is dict and all(type(r) is list for r in v.values()) for v in verdicts)


def test_priorities_columns_come_from_the_reduce_step_and_follow_a_swapped_map() -> None:
    """Map results are kept through the list PrioritizeNodes hands to the reduce step (no twin
    per map call): each map runs once per node, a reduce's in-place edit is what the column
    shows, and a map function put into the same priority list between calls is used."""
    import attrs

    from kschedlearn.api.v1 import Node, ObjectMeta, Pod
    from kschedlearn.scheduler.algorithm.types import PriorityConfig
    from kschedlearn.scheduler.api.types import HostPriority

    calls: list[str] = []

    def by_name(pod: object, meta: object, info: object) -> HostPriority:
        name = info.node().metadata.name  # type: ignore[attr-defined]
        calls.append(name)
        return HostPriority(host=name, score=int(name[1:]))

    def tens(pod: object, meta: object, info: object) -> HostPriority:
        return HostPriority(host=info.node().metadata.name, score=10)  # type: ignore[attr-defined]

    def halve(pod: object, meta: object, infos: object, result: list[HostPriority]) -> None:
        for i, hp in enumerate(result):
            result[i] = attrs.evolve(hp, score=hp.score // 2)

    rt = _traced_runtime()
    pod = Pod(metadata=ObjectMeta(namespace="default", name="web-1"))
    names = ("n2", "n4", "n6")
    nodes = [Node(metadata=ObjectMeta(name=n)) for n in names]
    infos = {n: _node_info(n) for n in names}
    configs = [PriorityConfig(map_fn=by_name, weight=1, name="ByName"),
               PriorityConfig(map_fn=by_name, reduce=halve, weight=2, name="Halved")]

    def calls_twice() -> list[object]:
        first = gs.prioritize_nodes(pod, infos, None, configs, nodes, [])
        configs[0] = PriorityConfig(map_fn=tens, weight=1, name="ByName")  # swapped in the same list
        return [first, gs.prioritize_nodes(pod, infos, None, configs, nodes, [])]

    first, second = rt.run_fn(calls_twice)  # type: ignore[attr-defined]
    assert calls == ["n2", "n2", "n4", "n4", "n6", "n6", "n2", "n4", "n6"]  # once per priority per node
    scored = [e.data for e in rt.tracer.events if e.stage == "schedule.priorities"]  # type: ignore[attr-defined]
    assert [d["scores"] for d in scored] == [[[2, 4, 6], [1, 2, 3]], [[10, 10, 10], [1, 2, 3]]]
    assert [d["totals"] for d in scored] == [{"n2": 4, "n4": 8, "n6": 12}, {"n2": 12, "n4": 14, "n6": 16}]
    assert [hp.score for hp in first] == [4, 8, 12] and [hp.score for hp in second] == [12, 14, 16]

"""Task 7.4: SelectorSpreadPriority's reduce step - node spread, zone spread (2/3), float32.

Go: plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go (CalculateSpreadPriority)
and selector_spreading_test.go (TestZoneSelectorSpreadPriority, TestSelectorSpreadPriority)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L96-L192

The learner gets the matching-pod counts per node (the map phase, kept from the real code) and
computes the scores. The cases are the Go tables' node layouts reduced to those counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, methods_looked_up_at_call_time, swap_attr
from kschedlearn.scheduler.algorithm.priorities import selector_spreading as ss
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache import node_info as schedulercache_node_info

TASK_ID = "7.4"
NAME = "selector_spread_reduce"
_REAL = ss.SelectorSpread.calculate_spread_priority
MIN_INT64 = -(2**63)

#: TestZoneSelectorSpreadPriority's six nodes: machine1.zone1, machine1.zone2, ...
ZONED = (("machine1.zone1", "zone1"), ("machine1.zone2", "zone2"), ("machine2.zone2", "zone2"),
         ("machine1.zone3", "zone3"), ("machine2.zone3", "zone3"), ("machine3.zone3", "zone3"))
_ZONE_WHY = ("Misconception: 'the zone score replaces the node score'. With zones the score is "
             "1/3 x the node spread + 2/3 x the zone spread, so a node in an empty zone still loses "
             "points for its own pods and a node in a full zone keeps some for being empty itself.")
_F32_WHY = ("Go computes in float32 and 1 - zoneWeighting is an exact constant (1/3 rounded once). "
            "Misconception: 'float32 is just less precise, the answer is the same': rounding 2/3 first and "
            "then subtracting gives 0.33333331, and 6 x 0.33333331 = 1.9999999 truncates to 1, not 2.")
_NAN_WHY = ("1.6 quirk, reproduce it - misconception: 'a zero division is guarded'. The pod has selectors but "
            "no candidate runs a matching pod and the nodes have zones: maxZone is 0, 0/0 is NaN in float32, "
            "and Go's int(NaN) on amd64 is the minimum int64 (fixed upstream only in PR #55172).")


def _zoned(**counts: int) -> dict[str, int]:
    out = {name: 0 for name, _ in ZONED}
    out.update({k.replace("_", "."): v for k, v in counts.items()})
    return out


def _case(name: str, given: str, nodes: tuple[tuple[str, str], ...], counts: dict[str, int],
          expected: list[int], why: str) -> fw.Case:
    return fw.Case(name, given, expected, lambda fn: fn(list(nodes), dict(counts)), why=why)


def _cases() -> list[fw.Case]:
    return [
        _case("nothing scheduled / no services", "six zoned nodes, the pod has no selectors (counts = {})",
              ZONED, {}, [10] * 6, "Without selectors every node gets the maximum, 10, and zones play no part."),
        _case("two pods, 1 matching (in z2)", "one matching pod on machine1.zone2", ZONED,
              _zoned(machine1_zone2=1), [10, 0, 3, 10, 10, 10], _ZONE_WHY),
        _case("five pods, 3 matching (z2=2, z3=1)", "matching pods on machine1.zone2, machine2.zone2, machine2.zone3",
              ZONED, _zoned(machine1_zone2=1, machine2_zone2=1, machine2_zone3=1), [10, 0, 0, 6, 3, 6], _ZONE_WHY),
        _case("four pods, 3 matching (z1=1, z2=1, z3=1)", "matching pods on machine1 of each zone", ZONED,
              _zoned(machine1_zone1=1, machine1_zone2=1, machine1_zone3=1), [0, 0, 3, 0, 3, 3], _ZONE_WHY),
        _case("Replication controller spreading (z1=0, z2=1, z3=2)", "2 matching pods on machine1.zone3, 1 on machine1.zone2",
              ZONED, _zoned(machine1_zone3=2, machine1_zone2=1), [10, 5, 6, 0, 3, 3], _ZONE_WHY),
        _case("TestSelectorSpreadPriority: no zones", "machine1 with 1 and machine2 with 2 matching pods, no zone labels",
              (("machine1", ""), ("machine2", "")), {"machine1": 1, "machine2": 2}, [5, 0],
              "Without zones: int(10 * (maxNode - count) / maxNode)."),
        _case("float32: 1 - zoneWeighting", "node a (zone z1) with 5 matching pods, b and c (zone z2) with 2 and 3",
              (("a", "z1"), ("b", "z2"), ("c", "z2")), {"a": 5, "b": 2, "c": 3}, [0, 2, 1], _F32_WHY),
        _case("1.6: NaN with zones", "a zoned and an unzoned node, selectors but no matching pod anywhere",
              (("zoned-a", "z1"), ("plain", "")), {"zoned-a": 0, "plain": 0}, [MIN_INT64, 10], _NAN_WHY),
    ]


def _counts(self: ss.SelectorSpread, pod: Any, node_name_to_info: Any, nodes: list[Any]) -> dict[str, int]:
    """The map phase of CalculateSpreadPriority (as in the real code): matching pods per node."""
    selectors = self._get_selectors(pod)
    if not selectors:
        return {}
    counts = {}
    for node in nodes:
        count = 0
        for node_pod in schedulercache_node_info.pods(node_name_to_info.get(node.metadata.name)):
            if (node_pod.metadata.namespace == pod.metadata.namespace and node_pod.metadata.deletion_timestamp is None
                    and any(s.matches(node_pod.metadata.labels) for s in selectors)):
                count += 1
        counts[node.metadata.name] = count
    return counts


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    def calculate_spread_priority(self: ss.SelectorSpread, pod: Any, node_name_to_info: Any,
                                  nodes: list[Any]) -> list[HostPriority]:
        scores = fn([(n.metadata.name, ss.get_zone_key(n)) for n in nodes], _counts(self, pod, node_name_to_info, nodes))
        return [HostPriority(host=n.metadata.name, score=int(s)) for n, s in zip(nodes, scores)]

    with swap_attr(ss.SelectorSpread, "calculate_spread_priority", calculate_spread_priority):
        yield


@contextmanager
def _live(fn: Callable[..., Any], log: Any, simulation: Any) -> Iterator[None]:
    """For a running simulation: the patch, reaching schedulers configured before it too."""
    with _patch(log.wrap(fn)), methods_looked_up_at_call_time(simulation, ss.SelectorSpread,
                                                               "calculate_spread_priority"):
        yield


def _real(nodes: list[tuple[str, str]], counts: dict[str, int]) -> list[int]:
    """The real CalculateSpreadPriority on nodes and pods built to give exactly these counts."""
    from kschedlearn.api.v1 import ObjectMeta, Pod
    from kschedlearn.exercises.tasks._common import node as make_node
    from kschedlearn.scheduler.schedulercache.node_info import new_node_info

    pod = Pod(metadata=ObjectMeta(name="p", namespace="default", labels={"app": "x"}))
    objs = [make_node(name, 1000, 1 << 30, labels={ss.LABEL_ZONE_FAILURE_DOMAIN: zone} if zone else {})
            for name, zone in nodes]
    infos = {name: new_node_info(*[Pod(metadata=ObjectMeta(name=f"{name}-{i}", namespace="default",
                                                           labels={"app": "x"}), spec=pod.spec)
                                   for i in range(counts.get(name, 0))]) for name, _ in nodes}
    spread = ss.SelectorSpread(service_lister=None, controller_lister=None, replica_set_lister=None,
                               stateful_set_lister=None)
    with swap_attr(ss.SelectorSpread, "_get_selectors", lambda self, p: [] if not counts else [_everything()]):
        return [h.score for h in _REAL(spread, pod, infos, objs)]


def _everything() -> Any:
    from kschedlearn.apimachinery.labels import everything

    return everything()


def _experiment(reduce: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    nodes = [("a-1", "zone-a"), ("a-2", "zone-a"), ("b-1", "zone-b"), ("b-2", "zone-b"), ("c-1", "")]
    counts: dict[str, int] = {n: 0 for n, _ in nodes}
    for replica in range(1, 6):
        scores = reduce(list(nodes), dict(counts) if replica > 1 else {})
        best = max(range(len(nodes)), key=lambda i: (scores[i], -i))
        rows.append((f"web-{replica}: scores", ", ".join(f"{n}={s}" for (n, _), s in zip(nodes, scores))))
        counts[nodes[best][0]] += 1


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "SelectorSpreadPriority", fn, _real, _experiment, list, NAME,
                   note="Five replicas of one service, each placed on its best-spread node; two zones and an "
                        "unzoned node. The first replica has no matching pods yet (counts = {}).")


def _scenario_plugin(fn: Callable[..., Any], scenario: str | None, *, seed: int, seconds: float) -> Any:
    from kschedlearn.exercises.capstone import run_capstone

    return run_capstone(TASK_ID, fn, (scenario or "spread-and-affinity",), seed=seed, seconds=seconds)


TASK = Task(
    id=TASK_ID, title="SelectorSpreadPriority with zones", slug="selector-spread", function_name=NAME,
    stub_imports=("import math\n\nfrom kschedlearn.scheduler.algorithm.priorities.selector_spreading import "
                  "MAX_PRIORITY, ZONE_WEIGHTING\n"
                  "from kschedlearn.scheduler.algorithm.priorities.selector_spreading import _f32 as f32\n"
                  "from kschedlearn.scheduler.algorithm.priorities.selector_spreading import _go_int as go_int"),
    intro=("SelectorSpreadPriority keeps the pods of one Service / ReplicationController / ReplicaSet / "
           "StatefulSet apart: a node running fewer of them scores higher. With zone labels "
           "(`failure-domain.beta.kubernetes.io/zone`) two thirds of the score come from the *zone's* count, "
           "so replicas spread across zones first. All of it is float32 arithmetic in Go - and the float32 "
           "details change real scores.\n\nThe counting (which pods match the pod's selectors on each node) "
           "is done for you. Write `selector_spread_reduce(nodes, counts)`. "
           "`plug_in_scenario(\"7.4\", selector_spread_reduce)` runs spread-and-affinity (three zones) with your "
           "reduce step and compares every stage."),
    go_links=(("selector_spreading.go CalculateSpreadPriority",
               GO + "plugin/pkg/scheduler/algorithm/priorities/selector_spreading.go#L96-L192"),
              ("selector_spreading_test.go TestZoneSelectorSpreadPriority",
               GO + "plugin/pkg/scheduler/algorithm/priorities/selector_spreading_test.go#L365-L568")),
    hints=("Two normalisations by the maximum: per node and per zone; then blend them 1/3 : 2/3 for nodes "
           "that have a zone. Go does all of it in float32 and truncates with int().",
           "Go, in `CalculateSpreadPriority` (selector_spreading.go L96-L192), the loop over the nodes: `fScore := maxPriority; if maxCountByNodeName > 0 { fScore = maxPriority * "
           "((maxCountByNodeName - countsByNodeName[node.Name]) / maxCountByNodeName) }`; `if haveZones { zoneId := "
           "utilnode.GetZoneKey(node); if zoneId != \"\" { zoneScore := maxPriority * ((maxCountByZone - countsByZone[zoneId]) / "
           "maxCountByZone); fScore = (fScore * (1.0 - zoneWeighting)) + (zoneWeighting * zoneScore) } }`; `int(fScore)`.",
           "Round after every operation: `f = f32(MAX_PRIORITY * f32((max_node - count) / max_node))`; the weight is "
           "`f32(1.0 / 3.0)`, not `f32(1 - ZONE_WEIGHTING)`; with max_zone == 0 the share is `math.nan` and "
           "`go_int(nan)` gives the 1.6 result."),
    returns=list, cases=_cases, patch=_patch, plug_in=_plug_in, solution="nb07:selector_spread_reduce",
    scenario_plugin=_scenario_plugin, live=_live,
)

"""Task 7.3: ``selectHost`` - the highest score wins, ties go round robin.

Go: plugin/pkg/scheduler/core/generic_scheduler.go (selectHost) and generic_scheduler_test.go
(TestSelectHost)
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/core/generic_scheduler.go#L133-L150
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.calls import CallView
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.tasks._common import GO, compare, node, pod, requests, schedule_pods, swap_attr
from kschedlearn.scheduler.algorithm.types import PriorityConfig, empty_metadata_producer
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.core.generic_scheduler import GenericScheduler, SchedulingError, equal_priority_map

TASK_ID = "7.3"
NAME = "select_host"
_REAL_METHOD = GenericScheduler._select_host


def _real(g: GenericScheduler, priority_list: list[HostPriority]) -> str:
    return _REAL_METHOD(g, priority_list)


def _scheduler() -> GenericScheduler:
    return GenericScheduler(cache=None, predicates={}, predicate_meta_producer=empty_metadata_producer,
                            prioritizers=[], priority_meta_producer=empty_metadata_producer)


def _rounds(scores: list[tuple[str, int]], times: int) -> Callable[[Callable[..., Any]], Any]:
    def run(fn: Callable[..., Any]) -> Any:
        g = _scheduler()
        got = [fn(g, [HostPriority(host=h, score=s) for h, s in scores]) for _ in range(times)]
        return got, g.last_node_index
    return run


def _shared(fn: Callable[..., Any]) -> Any:
    g = _scheduler()
    tied = [("a", 1), ("b", 1)]
    got = [fn(g, [HostPriority(host=h, score=s) for h, s in tied])]
    got.append(fn(g, [HostPriority(host="only", score=5)]))
    got += [fn(g, [HostPriority(host=h, score=s) for h, s in tied]) for _ in range(2)]
    return got, g.last_node_index


def _cases() -> list[fw.Case]:
    return [
        fw.Case("one best", "scores machine1.1=1, machine2.1=2; 4 calls",
                (["machine2.1"] * 4, 4), _rounds([("machine1.1", 1), ("machine2.1", 2)], 4),
                why="The single highest score always wins; the counter still advances on every call."),
        fw.Case("equal scores", "machine1.1=1, machine1.2=2, machine1.3=2, machine2.1=2; 6 calls",
                (["machine2.1", "machine1.3", "machine1.2"] * 2, 6),
                _rounds([("machine1.1", 1), ("machine1.2", 2), ("machine1.3", 2), ("machine2.1", 2)], 6),
                why="Sorted by (score, host) descending the ties are machine2.1, machine1.3, machine1.2; "
                    "call i picks tie number last_node_index % 3."),
        fw.Case("out of order scores", "machine1.1=3, machine1.2=3, machine2.1=2, machine3.1=1, machine1.3=3; 3 calls",
                (["machine1.3", "machine1.2", "machine1.1"], 3),
                _rounds([("machine1.1", 3), ("machine1.2", 3), ("machine2.1", 2), ("machine3.1", 1), ("machine1.3", 3)], 3),
                why="Input order does not matter: sort first."),
        fw.Case("counter shared across pods", "ties a=1, b=1; then only=5; then the ties twice",
                (["b", "only", "b", "a"], 4), _shared,
                why="One last_node_index serves every pod, so a pod with a single best host moves it too."),
        fw.Case("empty priorityList", "an empty list", None, _rounds([], 1), expect_raises=SchedulingError,
                why='Raise SchedulingError("empty priorityList").'),
    ]


#: selectHost is judged by the host and by the round-robin counter it leaves
CALL_VIEW = CallView(state=lambda args, kwargs: f"lastNodeIndex {args[0].last_node_index}")


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    def select(self: GenericScheduler, priority_list: list[HostPriority]) -> str:
        return fn(self, priority_list)

    with swap_attr(GenericScheduler, "_select_host", select):
        yield


def _experiment(select: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    nodes = [node(f"machine{i}", 4000, 1 << 30) for i in (1, 2, 3)]
    with _patch(select):
        schedule_pods({}, [PriorityConfig(map_fn=equal_priority_map, weight=1)], nodes,
                      [pod(f"web-{i}", requests(100, 0)) for i in range(5)], rows)


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "genericScheduler.Schedule", fn, _real, _experiment, str, NAME,
                   note="Five pods, three equal nodes, EqualPriority: every node ties, so selectHost's "
                        "round robin alone spreads the pods.")


TASK = Task(
    id=TASK_ID, title="selectHost", slug="select-host", function_name=NAME,
    stub_imports=("from kschedlearn.scheduler.api.types import HostPriority\n"
                  "from kschedlearn.scheduler.core.generic_scheduler import GenericScheduler, SchedulingError"),
    intro=("After the priorities, `Schedule` hands the scored list to `selectHost`. The highest score "
           "wins; among equal scores v1.6.1 takes turns using a counter `lastNodeIndex` shared by all "
           "pods.\n\nWrite `select_host(g, priority_list)` using `g.last_node_index`."),
    go_links=(("generic_scheduler.go selectHost", GO + "plugin/pkg/scheduler/core/generic_scheduler.go#L133-L150"),),
    hints=("Sort so the best come first; count how many share the top score; pick one of them by the "
           "counter and advance the counter.",
           "Go's `selectHost` (generic_scheduler.go L133-L150): `sort.Sort(sort.Reverse(priorityList))` "
           "(ordering by score, then host name), `maxScore := priorityList[0].Score`, "
           "`firstAfterMaxScore` via `sort.Search`, `ix := int(g.lastNodeIndex % uint64(firstAfterMaxScore))`, "
           "`g.lastNodeIndex++`.",
           "`if not priority_list: raise SchedulingError('empty priorityList')`; `ranked = "
           "sorted(priority_list, key=lambda hp: (hp.score, hp.host), reverse=True)`; `ties = number of "
           "leading entries with ranked[0].score`; `ix = g.last_node_index % ties`; "
           "`g.last_node_index += 1`; `return ranked[ix].host`."),
    returns=str, cases=_cases, call_view=CALL_VIEW, patch=_patch, plug_in=_plug_in, solution="nb07:select_host", quiz="select_host",
)

"""Every verdict true (issue #21 item 4): 21 tasks x {counting reference, wrong variant} x
{plug_in_scenario, plug_in into a started simulation}.

The counting wrapper of the reference solution must get "same" with at least one call, and the
calls the report counts must be the calls that happened (a counter in shared memory for the
sandboxed scenario run, a plain counter for the live run's in-process part). A deliberately
wrong variant - one plausible misconception per task - must never get "same", and the report
must name the first call where it differs from the reference. Each task uses the smallest
scenario that reaches its function; the live cases share one simulation per task, plugged in
at the same early cursor (the second plug-in forks the history back there).
"""

from __future__ import annotations

import functools
import multiprocessing
import warnings
from collections.abc import Callable
from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.exercises import all_tasks, get_task, plug_in, plug_in_scenario
from kschedlearn.exercises.sandbox import fork_available
from kschedlearn.exercises.scenario_plugin import DATA
from wrong_answers import WRONG_ANSWERS

pytestmark = [pytest.mark.skipif(not fork_available(), reason="the sandbox and the rehearsals need os.fork"),
              pytest.mark.filterwarnings("ignore::kschedlearn.simulation.checks.SimulatedProcessCrashed")]

#: the smallest bundled scenario in which each task's function decides something
SCENARIO = {
    "1.1": "three-nodes", "2.1": "spread-and-affinity", "3.1": "three-nodes", "3.2": "three-nodes",
    "4.1": "three-nodes", "4.2": "three-nodes", "5.1": "three-nodes", "5.2": "assume-expiry",
    "5.3": "three-nodes", "6.1": "unschedulable-then-fits", "6.2": str(DATA / "host-ports.yaml"),
    "7.1": "three-nodes", "7.2": "three-nodes", "7.3": "three-nodes", "7.4": "spread-and-affinity",
    "8.1": "unschedulable-then-fits", "8.2a": "three-nodes", "8.2": "three-nodes", "8.2b": "three-nodes",
    "9.1": "ha-failover",
    "10.1": str(DATA / "dedicated-nodes.yaml"), "11.1": str(DATA / "quirk-selector-spread-nan.yaml"),
    "15.1": str(DATA / "rc-scale.yaml"),
}
#: tasks whose function is called once to make what the run uses (an order, plugins, a fix):
#: the report counts the uses, the counter the one call
MAKERS = {"1.1", "10.1", "11.1"}


def _wrong_answer(task_id: str, misconception: str) -> Callable[..., Any]:
    return next(w for w in WRONG_ANSWERS if w.task_id == task_id and w.misconception == misconception).build()


def _solution(task_id: str) -> Callable[..., Any]:
    return get_task(task_id).load_solution()


def _ghost_left_behind(f: Any, process: Any) -> Any:
    """3.1: forgets to delete the popped item (the queue line is enough, isn't it?)."""
    item = _solution("3.1")(f, process)
    f._items[f._key_func(item)] = item
    return item


def _missing_key_matches(key: str, operator: str, values: list[str], labels: Any) -> bool:
    """2.1: no label, no constraint - a requirement on a key the object lacks always matches."""
    return key not in labels or _solution("2.1")(key, operator, values, labels)


def _resyncs_dropped(deltas: Any) -> Any:
    """3.2: a resync carries nothing new, so dedup may drop it."""
    out = _solution("3.2")(deltas)
    return type(out)(d for d in out if d.type != "Sync")


def _resync_skipped(client_state: Any, handler: Any, deltas: Any) -> None:
    """4.1: a Sync delta is not a change, so the informer may skip it."""
    _solution("4.1")(client_state, handler, type(deltas)(d for d in deltas if d.type != "Sync"))


def _cpu_only(pod: Any) -> Any:
    """5.1: cpu is all the scheduler cares about (memory requests are dropped)."""
    res, cpu, memory = _solution("5.1")(pod)
    res = res.clone()
    res.memory = 0
    return res, cpu, memory


def _never_expires(cache: Any, now: float) -> None:
    """5.2: the sweep looks but never expires anything."""


def _always_fits(pod: Any, meta: Any, node_info: Any) -> tuple[bool, list[Any]]:
    """6.1 / 6.2: the scheduler will sort it out later - every node fits."""
    return True, []


def _always_five(pod: Any, meta: Any, node_info: Any) -> Any:
    """7.1: a constant priority (the issue's example: the final placements can still match)."""
    got = _solution("7.1")(pod, meta, node_info)
    return type(got)(host=got.host, score=5)


def _balanced_everywhere(pod: Any, meta: Any, node_info: Any) -> Any:
    """7.2: every node is perfectly balanced."""
    got = _solution("7.2")(pod, meta, node_info)
    return type(got)(host=got.host, score=10)


def _no_round_robin(g: Any, priority_list: list[Any]) -> str:
    """7.3: the counter only matters for ties, so it need not advance."""
    index = g.last_node_index
    host = _solution("7.3")(g, priority_list)
    g.last_node_index = index
    return host


def _never_doubles(entry: Any, max_duration: float) -> float:
    """8.1: the wait never grows."""
    duration = _solution("8.1")(entry, max_duration)
    entry.backoff = duration
    return duration


def _fullest_first(registry: Any) -> None:
    """10.1: FewestPods written the wrong way round (more pods, more points)."""
    from kschedlearn.exercises.solutions import nb10
    from kschedlearn.scheduler.api.types import HostPriority
    from kschedlearn.scheduler.factory.plugins import register_fit_predicate, register_priority_function2

    def fewest_pods(pod: Any, meta: Any, node_info: Any) -> Any:
        return HostPriority(host=node_info.node().metadata.name, score=min(10, len(node_info.pods())))

    register_fit_predicate("DedicatedNodes", nb10.dedicated_nodes_predicate, registry=registry)
    register_priority_function2("FewestPods", fewest_pods, None, 1, registry=registry)


WRONG: dict[str, Callable[[], Callable[..., Any]]] = {
    "1.1": lambda: _wrong_answer("1.1", "the HTTP endpoints can come last"),
    "2.1": lambda: _missing_key_matches,
    "3.1": lambda: _ghost_left_behind,
    "3.2": lambda: _resyncs_dropped,
    "4.1": lambda: _resync_skipped,
    "4.2": lambda: _wrong_answer("4.2", "the resourceVersion only matters on a relist"),
    "5.1": lambda: _cpu_only,
    "5.2": lambda: _never_expires,
    "5.3": lambda: _wrong_answer("5.3", "the informer's Add is only a notification"),
    "6.1": lambda: _always_fits,
    "6.2": lambda: _always_fits,
    "7.1": lambda: _always_five,
    "7.2": lambda: _balanced_everywhere,
    "7.3": lambda: _no_round_robin,
    "7.4": lambda: _wrong_answer("7.4", "the zone score replaces the node score"),
    "8.1": lambda: _never_doubles,
    "8.2": lambda: _wrong_answer("8.2", "binds synchronously"),
    # the capstone's other rungs are judged by 8.2's machinery: 8.2's wrong answer is theirs
    "8.2a": lambda: _wrong_answer("8.2", "binds synchronously"),
    "8.2b": lambda: _wrong_answer("8.2", "binds synchronously"),
    "9.1": lambda: _wrong_answer("9.1", "renew without checking the holder"),
    "10.1": lambda: _fullest_first,
    "11.1": lambda: _wrong_answer("11.1", "no pod in a zone means the worst zone"),
    "15.1": lambda: _wrong_answer("15.1", "any surplus pod will do"),
}
TASK_IDS = [t.id for t in all_tasks()]


def _counting(fn: Callable[..., Any], counter: Any) -> Callable[..., Any]:
    @functools.wraps(fn)
    def counted(*args: Any, **kwargs: Any) -> Any:
        counter.value += 1
        return fn(*args, **kwargs)
    return counted


class _Counter:
    value = 0


def _scenario_calls(result: Any) -> int:
    """Calls the report counted: a ScenarioComparison's ``calls.calls``, a CapstoneReport's ``calls``."""
    return result.calls if isinstance(result.calls, int) else result.calls.calls


@functools.cache
def _started(task_id: str) -> tuple[Simulation, int]:
    """One simulation per task, stepped to its first stop (shared by both live cases)."""
    task = get_task(task_id)
    if task_id == "10.1":  # the policy names plugins 1.6 lacks: built with the reference's registered
        with task.patch(task.load_solution()):
            sim = Simulation.from_scenario(SCENARIO[task_id], seed=1)
            sim.start()
    else:
        sim = Simulation.from_scenario(SCENARIO[task_id], seed=1)
        sim.start()
    return sim, sim.cursor


def _plug_live(task_id: str, fn: Callable[..., Any]) -> Any:
    sim, cursor = _started(task_id)
    sim.goto(cursor)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return plug_in(task_id, fn, sim)


def test_every_task_has_a_wrong_variant_and_a_scenario():
    assert set(WRONG) == set(TASK_IDS) == set(SCENARIO)


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_scenario_counting_reference_is_same(task_id):
    counter = multiprocessing.RawValue("i", 0)  # shared with the sandbox child that runs it
    result = plug_in_scenario(task_id, _counting(_solution(task_id), counter), SCENARIO[task_id])
    calls = _scenario_calls(result)
    assert result.same, str(result)
    assert "same outcome" in result.summary()
    assert calls >= 1 and counter.value >= 1
    if task_id not in MAKERS:
        assert calls == counter.value, (calls, counter.value)


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_scenario_wrong_variant_is_not_same(task_id):
    result = plug_in_scenario(task_id, WRONG[task_id](), SCENARIO[task_id])
    assert not result.same, str(result)
    assert "same outcome" not in result.summary()
    text = str(result)
    assert "differs from the reference at call" in text or "first divergence" in text or result.error, text


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_live_counting_reference_is_same(task_id):
    counter = _Counter()
    report = _plug_live(task_id, _counting(_solution(task_id), counter))
    assert report.same, str(report)
    assert report.calls >= 1 and counter.value >= 1, str(report)
    if task_id not in MAKERS:
        assert report.calls == counter.value, (report.calls, counter.value)  # measured in this process
    assert "behaves exactly like" in report.summary()
    assert not any("module-level" in n for n in report.notes), report.notes  # no false "you changed"
    # the learner's rehearsal (a child, without snapshots) made the real run's calls (with them)
    assert not any("differently in the real run" in n for n in report.notes), report.notes


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_live_wrong_variant_is_not_same(task_id):
    report = _plug_live(task_id, WRONG[task_id]())
    assert not report.same, str(report)
    assert "behaves exactly like" not in report.summary()
    assert report.difference or report.changed or report.refused, str(report)
    assert not any("differently in the real run" in n for n in report.notes), report.notes

"""``Simulation.where()``: the mirrored Python statement running at the cursor, and its Go twin.

kschedlearn-only (issue 21 items 1-2). A trace point stands at a call the Go code makes, so
``where()`` names the calling frame at the line making that call — a Go-twin statement, never a
trace line — with the Go function's symbol, its exact range (the link table's) and the Go line
standing for that statement (``simulation/data/go_twins.json``).
"""

from __future__ import annotations

import ast
import csv
import functools
import importlib
import inspect
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn import Simulation
from kschedlearn.scenarios.scenario import bundled_names
from kschedlearn.simulation.where import CodeLocation, go_twin, locate, where

ROOT = Path(__file__).resolve().parents[2]
GO = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/"
#: never shown as "where": the runtime, the tracer, the observation layer, the notebook side
NOT_MIRRORED = ("kschedlearn.sim", "kschedlearn.trace", "kschedlearn.observe", "kschedlearn.simulation",
                "kschedlearn.viz", "kschedlearn.widgets", "kschedlearn.scenarios", "kschedlearn.exercises",
                "kschedlearn.apiserver", "kschedlearn.accelerated")
#: names of the trace layer: a line calling one of them is a trace line, not a Go-twin statement
TRACE_NAMES = {"emit", "register_stage", "point", "observed"}
SYMBOL = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)?$")


def _at(stage: str, scenario: str = "three-nodes") -> Simulation:
    sim = Simulation.from_scenario(scenario, seed=1)
    assert sim.run_until(stage) is not None
    return sim


def _resolve(loc: CodeLocation):
    obj = importlib.import_module(loc.module)
    for part in loc.python_function.split(".<locals>")[0].split("."):
        obj = getattr(obj, part)
    return inspect.unwrap(obj)


@functools.cache
def _link_ranges() -> dict[str, set[str]]:
    """``module:qualname`` -> the ``file#La-Lb`` links the link table has for it."""
    out: dict[str, set[str]] = {}
    with (ROOT / "docs" / "go-links.tsv").open(encoding="utf-8") as f:
        for go_file, _symbol, rng, places in csv.reader(f, delimiter="\t"):
            for place in places.split(", "):
                out.setdefault(place, set()).add(f"{go_file}#{rng}")
    return out


@functools.cache
def _simple_statements(python_file: str) -> tuple[tuple[int, int, frozenset[str]], ...]:
    """Each simple statement of a module (not a def, class or compound statement): its first and
    last line and the names it calls. Parsed once per file (the check below asks at every
    distinct stop: parsing the module each time was most of this file's CPU)."""
    tree = ast.parse((ROOT / python_file).read_text(encoding="utf-8"))
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.stmt) and not isinstance(
                n, (ast.FunctionDef, ast.ClassDef, ast.If, ast.For, ast.While, ast.Try, ast.With)):
            names = {f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                     for node in ast.walk(n) if isinstance(node, ast.Call) for f in (node.func,)}
            out.append((n.lineno, n.end_lineno or 0, frozenset(names)))
    return tuple(out)


def _statement_calls(loc: CodeLocation) -> set[str]:
    """The names the Python statement at ``loc`` calls (its whole statement, however many lines)."""
    return {name for first, last, names in _simple_statements(loc.python_file)
            if first <= loc.python_line <= last for name in names}


@functools.cache
def _source_lines(fn: object) -> tuple[tuple[str, ...], int]:
    """``inspect.getsourcelines(fn)``, read once per function: it tokenizes the function's whole
    block each time (pure-Python ``tokenize``), and the check below meets the same few dozen
    functions at every stop of every scenario (a third of this file's CPU)."""
    lines, first = inspect.getsourcelines(fn)
    return tuple(lines), first


@functools.cache
def _recorded(name: str, engine: str = "mirrored") -> Simulation:
    sim = Simulation.from_scenario(name, seed=1, snapshots=False, engine=engine)
    sim.run_until(lambda e: False)
    return sim


@pytest.mark.filterwarnings("ignore::kschedlearn.simulation.SimulatedProcessCrashed")
@pytest.mark.parametrize("engine", ["mirrored", "accelerated"])
@pytest.mark.parametrize("name", bundled_names())
def test_where_at_every_stop_is_a_go_twin_statement_with_the_functions_exact_range(name: str, engine: str) -> None:
    sim = _recorded(name, engine)
    checked: set[tuple[str, str, int]] = set()
    for event in sim.trace:
        loc = where(event)
        if loc is None:
            assert not any(f.module.startswith("kschedlearn.") and go_twin(f.module, f.function)
                           for f in event.stack), event
            continue
        if (loc.module, loc.python_function, loc.python_line) in checked:
            continue
        checked.add((loc.module, loc.python_function, loc.python_line))
        assert not loc.module.startswith(NOT_MIRRORED), (event.stage, loc)
        lines, first = _source_lines(_resolve(loc))
        assert first <= loc.python_line < first + len(lines), loc
        assert sum(line.current for line in loc.source()) == 1
        assert not _statement_calls(loc) & TRACE_NAMES, (event.stage, loc)  # never a trace line
        assert SYMBOL.match(loc.go_symbol), (event.stage, loc.go_symbol)
        top = loc.python_function.split(".<locals>")[0]
        assert loc.go_url.removeprefix(GO) in _link_ranges()[f"{loc.module}:{top}"], (event.stage, loc)
        assert loc.go_range[0] <= loc.go_line <= loc.go_range[1], (event.stage, loc)


@pytest.mark.parametrize("stage, function, phase, calls, python_text, go_words", [
    ("main", "main", "calling", "NewSchedulerServer", "options.new_scheduler_server()", ()),
    ("createClient", "run", "calling", "createClient", "create_client(s, server)", ()),
    ("NewConfigFactory", "create_scheduler", "calling", "NewConfigFactory", "factory.new_config_factory(", ()),
    ("scheduleOne.pop", "Scheduler.schedule_one", "returned", "ConfigFactory.getNextPod", "self.config.next_pod()",
     ("NextPod",)),
    ("schedule.start", "GenericScheduler.schedule", "calling", "findNodesThatFit", "find_nodes_that_fit(",
     ("findNodesThatFit",)),
    ("schedule.predicate_node", "find_nodes_that_fit.<locals>.check_node", "returned", "podFitsOnNode",
     "pod_fits_on_node(", ("podFitsOnNode",)),
    ("selectHost", "GenericScheduler.schedule", "returned", "genericScheduler.selectHost", "self._select_host(",
     ("selectHost",)),
    ("assume", "Scheduler.schedule_one", "returned", "schedulerCache.AssumePod", "scheduler_cache.assume_pod(",
     ("AssumePod",)),
    ("bind", "Scheduler._bind", "calling", "binder.Bind", "self.config.binder.bind(", ("Binder.Bind",)),
    ("finishBinding", "SchedulerCache.finish_binding", "returned", "schedulerCache.finishBinding",
     "self._finish_binding(", ("finishBinding",)),
    ("cache.addPod", "ConfigFactory.add_pod_to_cache", "calling", "schedulerCache.AddPod", "add_pod(",
     ("AddPod",)),
    ("reflector.watch_event", "Reflector._watch_handler", "calling", "Reflector.watchHandler",
     "self._handle_event(", ("expectedType",)),
    ("reflector.list", "Reflector.list_and_watch", "returned", "Reflector.syncWith", "self._sync_with(",
     ("syncWith",)),
    ("fifo.pop", "FIFO.pop", "running", "", "_run_process(", ("process(item)",)),
])
def test_where_names_the_calling_statement_and_its_go_line(stage: str, function: str, phase: str, calls: str,
                                                           python_text: str, go_words: tuple[str, ...]) -> None:
    loc = _at(stage).where()
    assert loc is not None
    assert (loc.python_function, loc.phase, loc.calls) == (function, phase, calls)
    current = [line.text for line in loc.source() if line.current]
    assert len(current) == 1 and python_text in current[0]
    # the Go line standing for it, read from the v1.6.1 tree's line numbers (the table's facts)
    twin = go_twin(loc.module, function)
    assert twin is not None and loc.go_line in {g for _, g in twin["lines"]}
    for word in go_words:
        assert word in GO_LINE_TEXT.get((twin["go_file"], loc.go_line), word), (stage, loc.go_line)


#: a few Go lines of v1.6.1 as facts (file, line) -> text, to check the pairing without the tree
GO_LINE_TEXT = {
    ("plugin/pkg/scheduler/scheduler.go", 149): "pod := s.config.NextPod()",
    ("plugin/pkg/scheduler/scheduler.go", 179): "if err := s.config.SchedulerCache.AssumePod(&assumed); err != nil {",
    ("plugin/pkg/scheduler/scheduler.go", 204): "err := s.config.Binder.Bind(b)",
    ("plugin/pkg/scheduler/core/generic_scheduler.go", 110):
        "filteredNodes, failedPredicateMap, err := findNodesThatFit(pod, g.cachedNodeInfoMap, nodes, g.predicates, g.extenders, g.predicateMetaProducer)",
    ("plugin/pkg/scheduler/core/generic_scheduler.go", 130): "return g.selectHost(priorityList)",
    ("plugin/pkg/scheduler/core/generic_scheduler.go", 179):
        "fits, failedPredicates, err := podFitsOnNode(pod, meta, nodeNameToInfo[nodeName], predicateFuncs)",
    ("plugin/pkg/scheduler/schedulercache/cache.go", 131): "return cache.finishBinding(pod, time.Now())",
    ("plugin/pkg/scheduler/factory/factory.go", 200): "if err := c.schedulerCache.AddPod(pod); err != nil {",
    ("staging/src/k8s.io/client-go/tools/cache/reflector.go", 258): "if err := r.syncWith(items, resourceVersion); err != nil {",
    ("staging/src/k8s.io/client-go/tools/cache/reflector.go", 362):
        "if e, a := r.expectedType, reflect.TypeOf(event.Object); e != nil && e != a {",
    ("staging/src/k8s.io/client-go/tools/cache/fifo.go", 286): "err := process(item)",
}


def test_the_stated_go_lines_are_the_ones_the_table_gives() -> None:
    """Every fact above is a line the table pairs with a mirrored statement."""
    twins = {}
    for stage in ("scheduleOne.pop", "assume", "bind", "schedule.start", "selectHost", "schedule.predicate_node",
                  "finishBinding", "cache.addPod", "reflector.list", "reflector.watch_event", "fifo.pop"):
        loc = _at(stage).where()
        twins[(go_twin(loc.module, loc.python_function)["go_file"], loc.go_line)] = stage
    assert set(GO_LINE_TEXT) == set(twins)


def test_a_crash_points_at_the_line_that_raised() -> None:
    sim = _recorded("bad-policy")
    crash = next(e for e in sim.trace if e.stage == "process.crash")
    loc = where(crash)
    assert loc is not None and loc.phase == "raised"
    assert loc.python_function == "register_custom_fit_predicate" and loc.go_symbol == "RegisterCustomFitPredicate"


def test_a_fast_path_that_ran_is_named() -> None:
    loc = _at("schedule.priorities", "spread-and-affinity").where()
    assert any("SelectorSpread.CalculateSpreadPriority" in note for note in loc.fast_paths)
    accelerated = Simulation.from_scenario("three-nodes", seed=1, engine="accelerated")
    accelerated.run_until("schedule.predicate_node")
    assert any("accelerated engine" in note for note in accelerated.where().fast_paths)


def test_where_follows_the_cursor_back_and_forth() -> None:
    sim = _at("assume")
    assert sim.where().calls == "schedulerCache.AssumePod"
    sim.back()
    assert sim.where() is None or sim.where().calls != "schedulerCache.AssumePod"
    sim.step()
    assert sim.where().calls == "schedulerCache.AssumePod"


def test_where_before_the_first_event_is_none() -> None:
    assert Simulation.from_scenario("three-nodes").where() is None


def test_locate_without_a_twin_falls_back_to_the_modules_go_file() -> None:
    loc = locate("kschedlearn.client_go.tools.cache.fifo", "_run_process", 1)
    assert loc.go_url == GO + "staging/src/k8s.io/client-go/tools/cache/fifo.go" and loc.go_line == 0


@pytest.mark.filterwarnings("ignore::kschedlearn.simulation.SimulatedProcessCrashed")
@settings(max_examples=examples(25), deadline=None)
@given(name=st.sampled_from(bundled_names()), moves=st.lists(
    st.tuples(st.sampled_from(["step", "back"]), st.sampled_from(["stage", "event", "pod"])), max_size=12),
    start=st.floats(0, 1))
def test_stepping_around_where_stays_on_mirrored_go_twin_lines(name, moves, start):
    sim = _recorded(name)
    sim.cursor = int(start * (len(sim.trace) - 1))
    for how, granularity in moves:
        if granularity == "pod" and not sim.follow:
            granularity = "event"
        if how == "back" or sim.cursor < len(sim.trace) - 1:
            getattr(sim, how)(granularity=granularity)
        loc = sim.where()
        if loc is not None:
            assert not loc.module.startswith(NOT_MIRRORED)
            assert loc.go_url.startswith(GO) and "#L" in loc.go_url


def test_a_module_files_repository_path_is_read_once_and_is_the_resolved_one() -> None:
    """``where``'s file paths come from a per-file memo of ``Path.resolve``: the same as resolving
    at every call, for modules inside the repository and for a file outside it."""
    from kschedlearn.simulation import where as where_module

    files = [m.__file__ for m in (where_module, inspect, importlib) if m.__file__]
    for path in [*files, "/nonexistent/outside/the/repo.py"]:
        assert where_module._repo_file(path) == where_module._repo_file.__wrapped__(path)
    assert where_module._repo_file(where_module.__file__) == "kschedlearn/simulation/where.py"

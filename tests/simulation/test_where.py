"""``Simulation.where()``: the mirrored Python function running at the cursor and its Go twin."""

from __future__ import annotations

import functools
import importlib
import inspect
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kschedlearn import Simulation
from kschedlearn.scenarios.scenario import bundled_names
from kschedlearn.simulation.where import CodeLocation, locate

ROOT = Path(__file__).resolve().parents[2]
GO = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/"
#: never shown as "where": the runtime, the tracer, the trace-point wrappers, the notebook side
NOT_MIRRORED = ("kschedlearn.sim", "kschedlearn.trace", "kschedlearn.simulation", "kschedlearn.viz",
                "kschedlearn.widgets", "kschedlearn.scenarios", "kschedlearn.exercises",
                "kschedlearn.apiserver", "kschedlearn.scheduler.instrument",
                "kschedlearn.client_go.tools.cache.instrument")


def _at(stage: str) -> Simulation:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    assert sim.run_until(stage) is not None
    return sim


def test_where_at_assume_names_assume_pod_and_the_go_range_of_assume_pod():
    loc = _at("assume").where()
    assert isinstance(loc, CodeLocation)
    assert loc.python_function.endswith("assume_pod")
    assert loc.python_file.endswith("schedulercache/cache.py")
    assert loc.go_symbol == "schedulerCache.AssumePod"
    assert loc.go_url == GO + "plugin/pkg/scheduler/schedulercache/cache.go#L109-L128"
    # an after-point: assume_pod has just returned, its last statement is the current line
    assert loc.phase == "returned"
    current = [line for line in loc.source() if line.current]
    assert len(current) == 1 and "_assumed_pods[key] = True" in current[0].text


def test_where_at_select_host_names_the_generic_schedulers_select_host():
    sim = _at("selectHost")
    loc = sim.where()
    assert loc.python_file == "kschedlearn/scheduler/core/generic_scheduler.py"
    assert loc.python_function == "GenericScheduler._select_host"
    assert loc.go_symbol == "genericScheduler.selectHost"
    assert loc.go_url == GO + "plugin/pkg/scheduler/core/generic_scheduler.go#L133-L150"
    # an after-point attached from outside (core/instrument.py): _select_host has just returned
    assert loc.phase == "returned"
    text = {line.number: line.text for line in loc.source()}
    assert text[loc.python_line].strip() == "return priority_list[ix].host"
    # the event still stands in _select_host's frame, as when the function emitted it itself
    ev = sim.event
    assert ev.stack[-1].function == "GenericScheduler._select_host"
    assert tuple(ev.snapshot.stack) == tuple(ev.stack)


def test_where_before_a_call_points_at_its_first_statement():
    loc = _at("bind").where()
    assert loc.python_function == "Binder.bind" and loc.phase == "entering"
    first_body = next(line for line in loc.source() if line.current)
    assert first_body.number > inspect.getsourcelines(_resolve(loc))[1]
    assert not first_body.text.strip().startswith(('"""', "def "))


def test_where_follows_the_cursor_back_and_forth():
    sim = _at("assume")
    assert sim.where().python_function.endswith("assume_pod")
    sim.back()
    assert not sim.where().python_function.endswith("assume_pod")
    sim.step()
    assert sim.where().python_function.endswith("assume_pod")


def test_where_before_the_first_event_is_none():
    assert Simulation.from_scenario("three-nodes").where() is None


def test_locate_falls_back_to_the_modules_go_file_without_a_range():
    # FIFO.add's docstring has no link of its own: the module's Go file is the best there is
    loc = locate("kschedlearn.client_go.tools.cache.fifo", "FIFO.add", 1)
    assert loc.go_url == GO + "staging/src/k8s.io/client-go/tools/cache/fifo.go"


def _resolve(loc: CodeLocation):
    obj = importlib.import_module(loc.module)
    for part in loc.python_function.split(".<locals>")[0].split("."):
        obj = getattr(obj, part)
    return inspect.unwrap(obj)


@functools.cache
def _recorded(name: str) -> Simulation:
    sim = Simulation.from_scenario(name, seed=1, snapshots=False)
    sim.run_until(lambda e: False)
    return sim


@pytest.mark.filterwarnings("ignore::kschedlearn.simulation.SimulatedProcessCrashed")
@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(bundled_names()), moves=st.lists(
    st.tuples(st.sampled_from(["step", "back"]), st.sampled_from(["stage", "event", "pod"])), max_size=12),
    start=st.floats(0, 1))
def test_where_never_names_a_wrapper_the_runtime_or_the_trace(name, moves, start):
    sim = _recorded(name)
    sim.cursor = int(start * (len(sim.trace) - 1))
    for how, granularity in moves:
        if granularity == "pod" and not sim.follow:
            granularity = "event"
        if how == "back" or sim.cursor < len(sim.trace) - 1:
            getattr(sim, how)(granularity=granularity)
        loc = sim.where()
        if loc is None:
            continue
        assert not loc.module.startswith(NOT_MIRRORED), (sim.event.stage, loc)
        assert loc.python_file.startswith("kschedlearn/") and (ROOT / loc.python_file).is_file()
        assert not loc.python_file.startswith(("kschedlearn/sim/", "kschedlearn/trace/"))
        lines, first = inspect.getsourcelines(_resolve(loc))
        assert first <= loc.python_line < first + len(lines), loc
        assert sum(line.current for line in loc.source()) == 1
        assert loc.go_url.startswith(GO) and ".go" in loc.go_url


@pytest.mark.parametrize("stage", ["fifo.add", "cache.addPod", "finishBinding", "scheduleOne.pop"])
def test_where_at_trace_points_names_the_mirrored_function_they_observe(stage):
    loc = _at(stage).where()
    assert loc is not None and not loc.module.startswith(NOT_MIRRORED)
    expected = {"fifo.add": "FIFO.add", "cache.addPod": "SchedulerCache.add_pod",
                "finishBinding": "SchedulerCache._finish_binding", "scheduleOne.pop": "Scheduler.schedule_one"}
    assert loc.python_function == expected[stage]

"""Nothing silent: a typo in a stage, pod or node name is an error that suggests the right name;
a simulated process that crashes stops the step there, warns and is listed; stepping past the
end says so."""

from __future__ import annotations

import warnings

import pytest

from kschedlearn import Simulation
from kschedlearn.simulation import ProcessCrash, ScenarioEnded, SimulatedProcessCrashed, UnknownNameError

FATAL = "FatalError: Invalid configuration: Predicate type not found for PodFitsResourcez"


def test_run_until_a_misspelt_stage_raises_and_suggests_assume():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    with pytest.raises(UnknownNameError, match=r"unknown stage 'asume'; did you mean 'assume'\?") as err:
        sim.run_until("asume")
    assert isinstance(err.value, ValueError) and err.value.suggestions == ("assume",)
    assert sim.cursor == -1  # nothing ran
    assert sim.run_until("assume").stage == "assume"  # the session keeps working


@pytest.mark.parametrize("kwargs, message, suggestion", [
    ({"stage": "selecthost"}, "unknown stage 'selecthost'", "selectHost"),
    ({"pod": "web-1"}, "unknown pod 'web-1'", "default/web-1"),
    ({"pod": "default/web-l"}, "unknown pod 'default/web-l'", "default/web-1"),
    ({"node": "nod-3"}, "unknown node 'nod-3'", "node-3"),
], ids=["stage-case", "pod-without-namespace", "pod-typo", "node-typo"])
def test_unknown_names_raise_with_close_suggestions(kwargs, message, suggestion):
    sim = Simulation.from_scenario("three-nodes", seed=1)
    with pytest.raises(UnknownNameError, match=message) as err:
        sim.run_until(**kwargs)
    assert suggestion in err.value.suggestions and repr(suggestion) in str(err.value)
    with pytest.raises(UnknownNameError, match=message.replace("unknown", "add_breakpoint: unknown")):
        sim.add_breakpoint(**kwargs)
    assert sim.breakpoints == []


def test_known_names_include_pods_and_nodes_that_come_later():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    # web-1 is created by the timeline at t=2; breakpoints on it are fine before it exists
    bp = sim.add_breakpoint(pod="default/web-1")
    ev = sim.run()
    assert "default/web-1" in (ev.data.get("pod"), ev.data.get("key")) and bp in sim.breakpoints
    sim.inject.add_node("node-9")
    sim.check_names(node="node-9")


def _bad_policy_until_crash() -> tuple[Simulation, list[warnings.WarningMessage]]:
    sim = Simulation.from_scenario("bad-policy")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        while sim.step() is not None and sim.event.stage != "process.crash":
            pass
    return sim, caught


def test_a_crash_stops_the_stage_step_and_warns():
    sim, caught = _bad_policy_until_crash()
    assert sim.event.stage == "process.crash"
    crashed = [w for w in caught if issubclass(w.category, SimulatedProcessCrashed)]
    assert len(crashed) == 1 and FATAL in str(crashed[0].message)
    assert crashed[0].filename == __file__  # the warning points at the learner's call
    assert f"scheduler-0 crashed at event {sim.cursor}" in str(crashed[0].message)


def test_sim_crashes_lists_the_crash_as_a_frozen_value():
    sim, _ = _bad_policy_until_crash()
    (crash,) = sim.crashes
    assert isinstance(crash, ProcessCrash)
    assert (crash.process, crash.seq, crash.time, crash.error) == ("scheduler-0", sim.cursor, sim.time, FATAL)
    assert crash.stage == "CreateFromConfig"
    assert crash.location.python_function == "register_custom_fit_predicate"
    assert crash.location.phase == "raised"
    with pytest.raises(AttributeError):
        crash.seq = 0  # type: ignore[misc]
    sim.back()
    assert sim.crashes == ()  # only what happened at or before the cursor


def test_stepping_past_the_end_says_the_scenario_has_ended():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    while sim.step() is not None:
        pass
    last = sim.trace[-1]
    with pytest.warns(ScenarioEnded, match=rf"the scenario has ended at event {last.seq} \(t={last.time:g}s\)"):
        assert sim.step() is None
    assert sim.end_message() == f"the scenario has ended at event {last.seq} (t={last.time:g}s)"
    assert sim.cursor == last.seq

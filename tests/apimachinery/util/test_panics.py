"""Panics are panics: a Go panic in mirrored code is never treated as a returned error.

In Go a panic unwinds past every ``if err != nil``; ``HandleCrash`` (deferred by
``workqueue.Parallelize`` and ``wait.Until``) logs it and re-panics (runtime.go#L38-L61), so the
kube-scheduler process dies. Before this was mirrored, a panic in a predicate became a
``PredicateRunError`` (FailedScheduling and a requeue), one in a priority a FailedScheduling, and
one in an informer handler or in processLoop was wrapped in a ``ProcessError`` and dropped.
Here each injected panic must end the simulated scheduler process with a recorded crash.
"""

from __future__ import annotations

from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.api.v1 import Pod
from kschedlearn.apimachinery.util.runtime import GoPanic, NilPointerDereference, handle_crash, is_panic
from kschedlearn.client_go.tools.cache import store as cache_store
from kschedlearn.scenarios.scenario import load_scenario
from kschedlearn.scheduler.factory import factory as sched_factory
from kschedlearn.scheduler.factory import plugins


def _run(registry: Any = None) -> Simulation:
    sim = Simulation(scenario=load_scenario("three-nodes"), seed=1, registry=registry)
    sim.run_until(lambda e: False)
    return sim


def _assert_scheduler_crashed(sim: Simulation, panic_type: type[BaseException]) -> None:
    crashes = [c for c in sim.world.runtime.crashes if c.process == "scheduler-0"]
    assert len(crashes) == 1, sim.world.runtime.crashes
    assert isinstance(crashes[0].error, panic_type)
    assert not sim.world.replicas["scheduler-0"].process.alive
    # neither requeued as an error nor reported as a scheduling failure
    events = sim.world.api.storage.items("events")
    assert not [e for e in events if e.reason == "FailedScheduling"]
    assert not [e for e in sim.trace if e.stage == "error.requeue"]


def _panic_logged(sim: Simulation) -> list[str]:
    return [e.message for e in sim.trace if e.stage == "log" and e.message.startswith("Observed a panic: ")]


def test_panic_in_a_predicate_kills_the_scheduler():
    def general_predicates(pod, meta, node_info):
        raise NilPointerDereference()

    reg = plugins.copy_registry()
    plugins.register_fit_predicate("GeneralPredicates", general_predicates, registry=reg)
    sim = _run(reg)
    _assert_scheduler_crashed(sim, NilPointerDereference)
    (pod,) = [p for p in sim.world.api.storage.items("pods") if p.metadata.name == "web-1"]
    assert pod.spec.node_name == ""
    # HandleCrash in the Parallelize worker logs the panic once; its re-panic ends the program
    assert _panic_logged(sim) == [
        'Observed a panic: "invalid memory address or nil pointer dereference" '
        "(runtime error: invalid memory address or nil pointer dereference)\n"]


def test_panic_in_a_priority_kills_the_scheduler():
    def least_requested(pod, meta, node_info):
        return [][3]  # Go: index out of range

    reg = plugins.copy_registry()
    plugins.register_priority_function2("LeastRequestedPriority", least_requested, None, 1, registry=reg)
    sim = _run(reg)
    _assert_scheduler_crashed(sim, IndexError)
    assert _panic_logged(sim) == ["Observed a panic: IndexError('list index out of range') (list index out of range)\n"]


def test_panic_in_an_informer_handler_kills_the_scheduler(monkeypatch):
    def add_pod_to_cache(self, obj):
        raise GoPanic("boom in addPodToCache")

    monkeypatch.setattr(sched_factory.ConfigFactory, "add_pod_to_cache", add_pod_to_cache)
    sim = _run()
    crashes = [c for c in sim.world.runtime.crashes if c.process == "scheduler-0"]
    assert [str(c.error) for c in crashes] == ["boom in addPodToCache"]
    assert not sim.world.replicas["scheduler-0"].process.alive
    assert _panic_logged(sim) == ['Observed a panic: "boom in addPodToCache" (boom in addPodToCache)\n']


def test_panic_in_process_loop_kills_the_scheduler(monkeypatch):
    """The informer's own Process (clientState.Add of the bound pod) panics inside processLoop."""
    original = cache_store.Cache.add

    def add(self, obj):
        if isinstance(obj, Pod) and obj.metadata.name == "web-1" and obj.spec.node_name:
            raise ZeroDivisionError("integer divide by zero")
        return original(self, obj)

    monkeypatch.setattr(cache_store.Cache, "add", add)
    sim = _run()
    crashes = [c for c in sim.world.runtime.crashes if c.process == "scheduler-0"]
    assert len(crashes) == 1 and isinstance(crashes[0].error, ZeroDivisionError)
    assert crashes[0].goroutine != ""
    assert not sim.world.replicas["scheduler-0"].process.alive


def test_a_returned_error_is_still_an_error():
    """A predicate returning an error (raising a plain exception) still gives FailedScheduling."""
    def general_predicates(pod, meta, node_info):
        raise RuntimeError("disk says no")

    reg = plugins.copy_registry()
    plugins.register_fit_predicate("GeneralPredicates", general_predicates, registry=reg)
    sim = _run(reg)
    assert sim.world.runtime.crashes == []
    events = sim.world.api.storage.items("events")
    assert any(e.reason == "FailedScheduling" and "disk says no" in e.message for e in events)


def test_handle_crash_runs_handlers_and_repanics():
    seen: list[str] = []
    with pytest.raises(IndexError):
        with handle_crash(lambda r: seen.append(str(r))):
            raise IndexError("index out of range")
    assert seen == ["index out of range"]
    with pytest.raises(RuntimeError):  # not a panic: passes untouched, no handler runs
        with handle_crash(lambda r: seen.append("no")):
            raise RuntimeError("an error value")
    assert seen == ["index out of range"]
    assert is_panic(NilPointerDereference()) and is_panic(AttributeError()) and not is_panic(ValueError())

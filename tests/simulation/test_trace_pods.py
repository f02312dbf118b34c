"""``known_pods`` keeps the trace's pod keys up to date: the same set as a walk of the whole trace.

kschedlearn-only (issue 25): ``asking.TracePods`` reads only the events recorded since it last
looked. Compared here with a walk of every event at every stop, after a fork (a new trace), and
for a list it has not seen or one whose last seen event moved; and the decision view's reading of
events (``decisions_from_events``) gives the same attempts from the events and from their JSON.
"""

from __future__ import annotations

from kschedlearn import Simulation
from kschedlearn.simulation.asking import TracePods
from kschedlearn.viz.decision import decisions_from_events


def _walked(events: list) -> set[str]:
    return {e.data["pod"] for e in events if isinstance(e.data.get("pod"), str) and "/" in e.data["pod"]}


def _storage_and_scenario(sim: Simulation) -> set[str]:
    keys = {f"{p.metadata.namespace}/{p.metadata.name}" for p in sim.world.api.storage.items("pods")}
    for obj in (*sim.scenario.objects, *(a.arg for a in sim.scenario.timeline if a.kind == "create")):
        if type(obj).kind == "Pod":
            keys.add(f"{obj.metadata.namespace or 'default'}/{obj.metadata.name}")
    return keys


def test_known_pods_is_the_whole_walk_at_every_stop_and_after_a_fork() -> None:
    sim = Simulation.from_scenario("unschedulable-then-fits", seed=1)
    ev = sim.start()
    stops = 0
    while ev is not None:
        assert sim.known_pods() == _storage_and_scenario(sim) | _walked(sim.trace)
        stops += 1
        ev = sim.step()
    assert stops > 10
    before = sim.trace
    sim.goto(40)
    sim.inject.add_pod({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "late", "namespace": "default"},
                        "spec": {"containers": [{"name": "c", "image": "nginx"}]}})  # the past changes: a new trace
    assert sim.trace is not before
    sim.run()
    assert sim.known_pods() == _storage_and_scenario(sim) | _walked(sim.trace)
    assert "default/late" in sim.known_pods()


def test_a_list_not_seen_or_changed_is_walked_again() -> None:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run()
    events = list(sim.trace)
    pods = TracePods()
    assert pods.of(events[:50]) == _walked(events[:50])
    assert pods.of(events) == _walked(events)  # another list: from the start
    shorter = events[:-30]
    assert pods.of(shorter) == _walked(shorter)
    grown = list(shorter)
    assert pods.of(grown) == _walked(grown)
    grown[-1] = events[0]  # the event last seen is not there any more
    grown.append(events[-1])
    assert pods.of(grown) == _walked(grown)
    assert pods.of([]) == set()


def test_decisions_read_the_same_from_events_and_from_their_json() -> None:
    sim = Simulation.from_scenario("spread-and-affinity", seed=1)
    sim.run()
    pods = sorted(_walked(sim.trace))
    assert len(pods) > 3
    as_json = [e.to_json() for e in sim.trace]
    for pod in pods:
        assert decisions_from_events(sim.trace, pod) == decisions_from_events(as_json, pod)
    assert any(decisions_from_events(sim.trace, pod) for pod in pods)

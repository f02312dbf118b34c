"""Task 1.1: wire the start-up chain of ``app.Run`` (a Parsons problem).

Go: plugin/cmd/kube-scheduler/app/server.go (Run, startHTTP) and configurator.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/server.go#L65-L140

The check does not compare the list with the answer: it *runs* kube-scheduler with the steps in
the learner's order (``startup_wiring.run_in_order``) in two scenarios - three-nodes (one
replica, ``--leader-elect=false``) and ha-failover (two replicas with leader election) - and
compares what was observed with the real run (``startup_observation``): crashes, informers,
the cache's nodes, pending pods, who bound pods while whom held the lease, /healthz.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises.registry import Task
from kschedlearn.exercises.startup_observation import SAME, explain, observe
from kschedlearn.exercises.startup_wiring import STEPS, wired
from kschedlearn.exercises.tasks._common import GO, compare

TASK_ID = "1.1"
NAME = "wire_startup_chain"
SHUFFLED = ("informerFactory.Start", "sched.Run", "createRecorder", "go startHTTP",
            "leaderelection", "createClient", "createScheduler", "NewSharedInformerFactory")
SCENARIOS = ("three-nodes", "ha-failover")


def _real(steps: list[str]) -> list[str]:
    return list(STEPS)


def order_of(fn: Callable[..., Any], shuffled: tuple[str, ...] = SHUFFLED) -> tuple[str, ...]:
    """Call the learner's function and check that it returned each step exactly once."""
    got = fn(list(shuffled))
    if not isinstance(got, (list, tuple)) or sorted(map(str, got)) != sorted(STEPS):
        raise ValueError(f"{NAME}() must return the 8 steps {sorted(STEPS)} each exactly once, got {got!r}")
    return tuple(got)


def _run(scenario: str, order: tuple[str, ...] | None) -> Any:
    from kschedlearn import Simulation

    sim = Simulation.from_scenario(scenario, seed=1, snapshots=False)
    if order is None:
        sim.run()
    else:
        with wired(order):
            sim.run()
    return sim


def _verdict(scenario: str, shuffled: tuple[str, ...] = SHUFFLED) -> Callable[[Callable[..., Any]], Any]:
    def run(fn: Callable[..., Any]) -> str:
        order = order_of(fn, shuffled)
        return explain(observe(_run(scenario, None)), observe(_run(scenario, order)))
    return run


def _cases() -> list[fw.Case]:
    return [
        fw.Case("each step once", "the 8 shuffled steps", sorted(STEPS), lambda fn: sorted(order_of(fn)),
                why="Return every step of app.Run exactly once."),
        fw.Case("three-nodes", "kube-scheduler started with your order in three-nodes (one replica, "
                "--leader-elect=false)", SAME, _verdict("three-nodes"), show=str,
                why="Each consequence was observed in the simulated run with your order."),
        fw.Case("ha-failover", "two replicas started with your order in ha-failover (leader election on)",
                SAME, _verdict("ha-failover"), show=str,
                why="Each consequence was observed in the simulated run with your order."),
        fw.Case("another shuffle", "the same steps in another shuffled order, in three-nodes",
                SAME, _verdict("three-nodes", tuple(reversed(SHUFFLED))), show=str,
                why="The order of app.Run does not depend on the order you were given the steps in."),
    ]


@contextmanager
def _patch(fn: Callable[..., Any]) -> Iterator[None]:
    with wired(order_of(fn)):
        yield


@contextmanager
def _recording(fn: Callable[..., Any], log: Any) -> Iterator[None]:
    """``_patch``, each kube-scheduler start recorded with the order it ran in."""
    log.what = f"the start-up order of your {NAME}()"
    with wired(order_of(fn), log):
        yield


def _experiment(wire: Callable[..., Any], rows: list[tuple[str, str]]) -> None:
    order = order_of(wire)
    rows.append(("your order", " → ".join(order) if order != STEPS else "app.Run's order"))
    for scenario in SCENARIOS:
        obs = observe(_run(scenario, order))
        for line in obs.lines():
            rows.append((f"{scenario}: {line[0]}", line[1]))


def _plug_in(fn: Callable[..., Any], simulation: Any = None) -> fw.PlugInReport:
    return compare(TASK_ID, "app.Run", fn, _real, _experiment, None, NAME,
                   note="Both scenarios run with kube-scheduler's start-up steps in your order.")


def _scenario_plugin(fn: Callable[..., Any], scenario: str | None, *, seed: int, seconds: float) -> Any:
    from kschedlearn.exercises.capstone import run_capstone

    return run_capstone(TASK_ID, fn, (scenario,) if scenario else SCENARIOS, seed=seed, seconds=seconds)


TASK = Task(
    id=TASK_ID, title="wire the start-up chain", slug="startup-chain", function_name=NAME,
    stub_imports="",
    intro=("`app.Run` wires kube-scheduler together in a fixed order: a clientset, an event recorder, the "
           "shared informer factory, the scheduler (whose ConfigFactory registers its informers with the "
           "factory and starts the pod watches), the HTTP endpoints, `informerFactory.Start`, and then "
           "either `sched.Run` directly or - with leader election - `RunOrDie`, whose OnStartedLeading calls "
           "`sched.Run`.\n\nThis is a Parsons problem: `wire_startup_chain(steps)` gets the eight steps "
           "shuffled and returns them in the right order. The check *runs* kube-scheduler with your order in "
           "two scenarios and tells you what broke, from what the simulation observed."),
    go_links=(("server.go Run", GO + "plugin/cmd/kube-scheduler/app/server.go#L65-L140"),
              ("server.go startHTTP", GO + "plugin/cmd/kube-scheduler/app/server.go#L142-L167"),
              ("configurator.go createClient / createRecorder / createScheduler",
               GO + "plugin/cmd/kube-scheduler/app/configurator.go#L49-L109")),
    hints=("Each step needs what earlier steps built: the client first; the recorder and the informer factory "
           "need the client; the scheduler needs all three. Informers must be requested before they are "
           "started. Whatever only the leader may do comes after the leader-election step; `sched.Run` never "
           "returns.",
           "Go's app.Run (server.go L65-L140): `kubecli, err := createClient(s)`, `recorder := createRecorder(kubecli, s)`, "
           "`informerFactory := informers.NewSharedInformerFactory(kubecli, 0)`, `sched, err := createScheduler(...)`, "
           "`go startHTTP(s)`, `informerFactory.Start(stop)`, `run := func(_ <-chan struct{}) { sched.Run(); select {} }`, "
           "`if !s.LeaderElection.LeaderElect { run(nil) }`, else `leaderelection.RunOrDie(... OnStartedLeading: run ...)`.",
           "`return [\"createClient\", \"createRecorder\", \"NewSharedInformerFactory\", ...]` - the informer factory "
           "is started after createScheduler and go startHTTP, and sched.Run is the last step, after leaderelection."),
    returns=list, cases=_cases, patch=_patch, plug_in=_plug_in, solution="nb01:wire_startup_chain",
    scenario_plugin=_scenario_plugin, time_limit=60.0, recording=_recording,
)

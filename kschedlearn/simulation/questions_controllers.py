"""The scenario and the predict-then-check questions of unit 15 ("Who creates the pods?").

Go: none — kschedlearn-only. Like :mod:`kschedlearn.simulation.questions`, each question runs the
simulator (with kube-controller-manager) to find its answer; the answer is what that run did.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import attrs
import yaml

from kschedlearn.scenarios.scenario import Scenario, parse_scenario
from kschedlearn.simulation.questions import Question
from kschedlearn.simulation.simulation import Simulation

NAME = "who-creates-the-pods"


def _node(name: str) -> dict[str, Any]:
    alloc = {"cpu": "8", "memory": "16Gi", "pods": "110"}
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
            "status": {"capacity": alloc, "allocatable": alloc, "conditions": [{"type": "Ready", "status": "True"}]}}


def _template(app: str, image: str) -> dict[str, Any]:
    return {"metadata": {"labels": {"app": app}},
            "spec": {"containers": [{"name": app, "image": image, "resources": {"requests": {"cpu": "100m"}}}]}}


def _shop(image: str) -> dict[str, Any]:
    return {"apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": "shop"},
            "spec": {"replicas": 3, "template": _template("shop", image)}}


#: t=1 an RC of 3; t=8 scaled to 50; t=16 a Deployment of 3 (extensions defaults: maxSurge 1,
#: maxUnavailable 1); t=24 rolled to a new image; t=34 a DaemonSet
SCENARIO: dict[str, Any] = {
    "name": NAME,
    # the notebook prints it before its predict cells: it says what happens, not what comes of it
    "description": "kube-controller-manager creates the pods: an RC of 3 scaled to 50, a Deployment rolled to a "
                   "new image, a DaemonSet.",
    "duration": 45, "controller_manager": True, "follow": "",
    "objects": [_node(f"node-{i}") for i in (1, 2, 3)],
    "timeline": [
        {"at": 1, "create": {"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "web"},
                             "spec": {"replicas": 3, "template": _template("web", "nginx")}}},
        {"at": 8, "scale": "replicationcontroller default/web 50"},
        {"at": 16, "create": _shop("shop:1")},
        {"at": 24, "apply": _shop("shop:2")},
        {"at": 34, "create": {"apiVersion": "extensions/v1beta1", "kind": "DaemonSet", "metadata": {"name": "agent"},
                              "spec": {"template": _template("agent", "agent:1")}}},
    ],
}


def scenario() -> Scenario:
    """The notebook's scenario (see :data:`SCENARIO`)."""
    return parse_scenario(yaml.safe_dump(SCENARIO, sort_keys=False), source=f"{NAME}.yaml")


def simulation(seed: int = 1, **kwargs: Any) -> Simulation:
    """A simulation of :func:`scenario` (snapshots on, for the views)."""
    return Simulation(scenario=scenario(), seed=seed, **kwargs)


@attrs.frozen
class Facts:
    """What one run of the scenario did, for the questions."""

    web_nodes: tuple[str, ...]  # the nodes of the RC's first three pods
    burst: int  # the creations expected by the sync after the scale to 50
    burst_seq: int
    queue_peak: int  # most pods waiting in podQueue at once
    surge: int  # the replicas the rollout's new ReplicaSet was created with
    surge_seq: int
    daemon_pods: int
    daemon_pops: int  # DaemonSet pods popped by scheduleOne
    daemon_seq: int


@functools.lru_cache(maxsize=8)
def facts(seed: int) -> Facts:
    """Run the scenario to its end (no snapshots) and read the answers off the trace."""
    sim = Simulation(scenario=scenario(), seed=seed, snapshots=False)
    sim.run_until(lambda e: False)
    trace = sim.trace
    binds = [e for e in trace if e.stage == "apiserver.bind" and str(e.data.get("pod", "")).startswith("default/web-")]
    web_nodes = tuple(e.data["node"] for e in binds[:3])
    burst = next(e for e in trace if e.stage == "controller.expect" and e.time >= 8 and e.data["key"] == "default/web")
    peak = max((len(e.data.get("queue_keys", ())) for e in trace if e.stage == "fifo.add"
                and e.data.get("queue") == "podQueue"), default=0)
    shop_rs = [e for e in trace if e.stage == "apiserver.create" and e.data.get("resource") == "replicasets"
               and e.time >= 24]
    surge_event = shop_rs[0]
    first_size = _created_size(sim, surge_event)
    daemon = [e for e in trace if e.stage == "daemonset.bind"]
    pops = [e for e in trace if e.stage == "scheduleOne.pop" and str(e.data.get("pod", "")).startswith("default/agent-")]
    return Facts(web_nodes, burst.data["count"], burst.seq, peak, first_size, surge_event.seq, len(daemon), len(pops),
                 daemon[0].seq if daemon else -1)


def _created_size(sim: Simulation, create_event: Any) -> int:
    """``spec.replicas`` of the replica set as it was stored by ``create_event`` (its first version)."""
    history = sim.world.api.storage.history("replicasets")
    rv = int(create_event.data["resource_version"])
    entry = next(e for e in history.since(rv - 1) if e.rv == rv)
    return entry.object.spec.replicas


def spread_question(seed: int) -> Question:
    """"On how many different nodes do the RC's three pods land?" (SelectorSpreadPriority)."""
    f = facts(seed)
    truth = str(len(set(f.web_nodes)))
    return Question(
        f"{NAME}, seed {seed}: the ReplicationController `web` asks for 3 replicas on three empty, equal nodes. "
        "On how many different nodes does kube-scheduler put them?", ("1", "2", "3"), truth,
        f"They went to {', '.join(f.web_nodes)}. Each pod carries the RC's labels; SelectorSpreadPriority counts the "
        "pods of the same controller already on each node and scores the emptier nodes higher, so the copies "
        "spread out — the scheduler knows nothing of the RC but its selector.", None, NAME, seed)


def burst_question(seed: int) -> Question:
    """"web is scaled 3 → 50: how many creates does one sync send?" (no slow start in 1.6)."""
    f = facts(seed)
    truth = str(f.burst)
    rng = random.Random(seed)
    choices = tuple(sorted({truth, "1", "16", "50"} | ({"500"} if rng.random() < 0.5 else {"8"}), key=int))
    return Question(
        f"{NAME}, seed {seed}: `web` is scaled from 3 to 50 replicas. How many pod creations does the "
        "ReplicationManager start in that one sync?", choices, truth,
        f"manageReplicas computed a diff of {f.burst} (below burstReplicas = 500) and started one goroutine per pod "
        f"at once — 1.6 has no slow-start batching (it came in 1.7). kube-scheduler's podQueue held up to "
        f"{f.queue_peak} pods at a time.", f.burst_seq, NAME, seed)


def surge_question(seed: int) -> Question:
    """"The Deployment is rolled: how many replicas does the new ReplicaSet start with?" (maxSurge)."""
    f = facts(seed)
    truth = str(f.surge)
    return Question(
        f"{NAME}, seed {seed}: Deployment `shop` (3 replicas, extensions/v1beta1 defaults: maxSurge 1, "
        "maxUnavailable 1) gets a new image. With how many replicas is the new ReplicaSet created?",
        ("0", "1", "2", "3"), truth,
        f"The new ReplicaSet was created with {f.surge}: NewRSNewReplicas allows replicas + maxSurge = 4 pods in all, "
        "and the old ReplicaSet still has 3. The scheduler sees the rollout as new pods arriving a few at a time "
        "while old ones are deleted.", f.surge_seq, NAME, seed)


def daemonset_question(seed: int) -> Question:
    """"How many of the DaemonSet's pods does scheduleOne pop?" (none in 1.6)."""
    f = facts(seed)
    truth = str(f.daemon_pops)
    return Question(
        f"{NAME}, seed {seed}: DaemonSet `agent` runs one pod on each of the {f.daemon_pods} nodes. How many of "
        "those pods does kube-scheduler's scheduleOne pop from podQueue?", ("0", "1", str(f.daemon_pods)), truth,
        "None: the 1.6 DaemonSet controller runs its own copy of the scheduler's predicates (nodeShouldRunDaemonPod) "
        "and creates each pod with spec.nodeName already set, so the unassigned-pod reflector never sees it.",
        f.daemon_seq, NAME, seed)


__all__ = ["Facts", "NAME", "SCENARIO", "burst_question", "daemonset_question", "facts", "scenario", "simulation",
           "spread_question", "surge_question"]

"""Predict-then-check questions about real clients and replayed clusters (notebook 13).

Go: none — kschedlearn-only. Like :mod:`kschedlearn.simulation.questions`, each factory runs the
simulator to find its answer. The "kubectl apply" question sends exactly the request kubectl
sends (a POST of the manifest through the HTTP face's REST layer), without a network, so it
runs the same headless and on Binder.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from kschedlearn.apiserver.rest import RestRequest
from kschedlearn.scenarios.scenario import Action
from kschedlearn.simulation.questions import Question, _choices
from kschedlearn.simulation.simulation import Simulation

SAMPLE_DUMP = Path(__file__).resolve().parents[1] / "scenarios" / "data" / "dumps" / "sample-cluster.yaml"
#: real captures of real clusters (sources and licences in the README there)
REAL_DUMPS = SAMPLE_DUMP.parent / "real"


def apply_pod(sim: Simulation, name: str, cpu: str, memory: str = "128Mi", labels: dict[str, str] | None = None) -> None:
    """What ``kubectl apply -f pod.yaml`` does to a fresh pod: POST it (recorded at the cursor)."""
    body = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": labels or {"app": name}},
            "spec": {"containers": [{"name": name, "image": "nginx",
                                     "resources": {"requests": {"cpu": cpu, "memory": memory}}}]}}
    req = RestRequest.from_target("POST", "/api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply",
                                  body=json.dumps(body), content_type="application/json")
    answer = sim.apply_external(Action(at=sim.time, kind="request", arg=req))
    if answer.code != 201:
        raise ValueError(f"apply_pod {name}: {answer.code} {answer.body.get('message')}")


def kubectl_apply_question(seed: int, scenario: str = "three-nodes") -> Question:
    """"kubectl apply a pod of N millicores once web-1 is bound: which node gets it?" """
    rng = random.Random(seed)
    cpu = rng.choice(("100m", "300m", "700m", "1200m"))
    sim = Simulation.from_scenario(scenario, seed=seed)
    sim.run_until("cache.addPod", pod="default/web-1")
    apply_pod(sim, "applied", cpu)
    pick = sim.run_until("selectHost", pod="default/applied")
    nodes = [n.name for n in sim.snapshot.cache.nodes] if sim.snapshot is not None else []
    if pick is None:
        raise ValueError(f"kubectl_apply_question: the applied pod was never scheduled in {scenario} seed {seed}")
    truth = pick.data["host"]
    totals = ", ".join(f"{h} {t}" for h, t in pick.data["ranked"])
    prompt = (f"{scenario}, seed {seed}: once web-1 is bound, `kubectl apply` creates pod `applied` asking for "
              f"{cpu} of CPU. Which node will the 1.6 scheduler bind it to?")
    explanation = (f"kubectl POSTs the pod; the unassigned-pod reflector sees ADDED, the pod joins podQueue, and "
                   f"scheduleOne ranks the nodes that fit (totals: {totals}); selectHost picked {truth} at event "
                   f"{pick.seq}. The least-requested and balanced priorities favour the emptiest node.")
    return Question(prompt, _choices(truth, nodes or [h for h, _ in pick.data["ranked"]], rng, n=4), truth,
                    explanation, pick.seq, scenario, seed)


def replay_placement_question(seed: int, dump: str | Path = SAMPLE_DUMP) -> Question:
    """"Where does 1.6 put this pending pod of the replayed cluster?" — the seed picks the pod."""
    rng = random.Random(seed)
    sim = Simulation.from_manifests(dump, seed=seed)
    pending = sorted(f"{o.metadata.namespace}/{o.metadata.name}" for o in sim.scenario.objects
                     if type(o).kind == "Pod" and not o.spec.node_name)
    key = rng.choice(pending)
    pick = sim.run_until("selectHost", pod=key)
    if pick is None:
        raise ValueError(f"replay_placement_question: {key} was never scheduled")
    attempt = sim.decision(key)[-1]
    fitting = [v.node for v in attempt.verdicts if v.fits]
    truth = attempt.host
    short = {n: n.split(".")[0] for n in fitting}
    failing = len(attempt.verdicts) - len(fitting)
    prompt = (f"Replaying `{Path(dump).name}` (seed {seed}): the pending pod `{key}` is scheduled by 1.6. "
              f"{len(fitting)} of {len(attempt.verdicts)} nodes pass every predicate. Which one wins?")
    top = ", ".join(f"{short.get(h, h)} {t}" for h, t in attempt.ranked[:4])
    explanation = (f"{failing} node{'s' if failing != 1 else ''} fail{'' if failing != 1 else 's'} a predicate (see `sim.decision({key!r})`); of the rest the ranked totals "
                   f"begin {top}; selectHost picked {short.get(truth, truth)} at event {pick.seq}.")
    choices = _choices(short[truth], list(short.values()), rng, n=4)
    return Question(prompt, choices, short[truth], explanation, pick.seq, Path(dump).stem, seed)


__all__ = ["apply_pod", "kubectl_apply_question", "replay_placement_question", "SAMPLE_DUMP", "REAL_DUMPS"]

"""Predict-then-check questions about client-go's building blocks: FIFO, DeltaFIFO, Indexer,
field selectors. The truth comes from running the mirrored code itself.

Go: none — kschedlearn-only (notebooks 02 and 03). Like :mod:`kschedlearn.simulation.questions`
the seed picks the operations; the answer is whatever the mirrored FIFO / DeltaFIFO / Indexer /
selector does with them, run on a fresh :class:`~kschedlearn.sim.Runtime`.
"""

from __future__ import annotations

import random
from kschedlearn.api.v1 import Pod
from kschedlearn.simulation.questions import Question, _choices
from kschedlearn.observe.views import queue_state

_DELTA_TYPES = ("Added", "Updated", "Deleted", "Sync")


def _pod(name: str, rv: int = 1, namespace: str = "default", node: str = "", phase: str = "") -> Pod:
    return Pod.from_dict({"metadata": {"name": name, "namespace": namespace, "resourceVersion": str(rv)},
                          "spec": {"nodeName": node, "containers": [{"name": "c", "image": "busybox"}]},
                          "status": {"phase": phase} if phase else {}})


def fifo_pop_question(seed: int) -> Question:
    """"After these adds, updates and deletes, what does ``Pop`` return?" (client-go FIFO)."""
    from kschedlearn.client_go.tools.cache import meta_namespace_key_func, new_fifo, pop
    from kschedlearn.sim import Runtime

    rng = random.Random(seed)
    names = ["a", "b", "c", "d"]
    ops: list[tuple[str, str, int]] = [("add", n, 1) for n in rng.sample(names, 3)]
    for _ in range(3):
        op = rng.choice(("update", "delete", "add"))
        ops.append((op, rng.choice(names), 2))
    fifo = new_fifo(meta_namespace_key_func)
    for op, name, rv in ops:
        getattr(fifo, op)(_pod(name, rv))
    if not queue_state(fifo).items:  # keep at least one item so that Pop returns
        fifo.add(_pod("d", 3))
        ops.append(("add", "d", 3))
    rt = Runtime(seed=seed)
    got = rt.run_fn(pop, fifo)
    truth = f"default/{got.metadata.name} (resourceVersion {got.metadata.resource_version})"
    pool = [f"default/{n} (resourceVersion {rv})" for n in names for rv in (1, 2, 3)]
    script = "; ".join(f"{op}({n}, rv {rv})" for op, n, rv in ops)
    prompt = f"client-go FIFO, seed {seed}: {script}. What does the next Pop return?"
    line = list(queue_state(fifo).queue)
    explanation = (f"Add/Update keep a queued key's place and replace its object (so Pop returns the newest "
                   f"version); Delete removes the item but leaves its key in the line as a ghost that Pop "
                   f"skips; a deleted key that is added again goes to the back only if it is not still in the "
                   f"line. The mirrored FIFO popped {truth}; the line left behind is {line}.")
    return Question(prompt, _choices(truth, pool, rng), truth, explanation, None, "client-go FIFO", seed)


def delta_fifo_question(seed: int) -> Question:
    """"Which Deltas does Pop hand over for this key?" (client-go DeltaFIFO, optionally with a
    relist — Replace — against known objects)."""
    from kschedlearn.client_go.tools.cache import meta_namespace_key_func, new_delta_fifo, new_store
    from kschedlearn.sim import Runtime

    rng = random.Random(seed)
    known = new_store(meta_namespace_key_func)
    with_known = rng.random() < 0.5
    if with_known:
        known.add(_pod("p", 1))
    d = new_delta_fifo(meta_namespace_key_func, None, known)
    ops: list[str] = []
    for _ in range(rng.randint(2, 4)):
        op = rng.choice(("add", "update", "delete", "replace"))
        rv = len(ops) + 2
        if op == "replace":
            listed = [_pod("p", rv)] if rng.random() < 0.6 else []
            d.replace(listed, str(rv))
            ops.append(f"replace([{'p' if listed else ''}])")
        else:
            getattr(d, op)(_pod("p", rv))
            ops.append(f"{op}(p)")
    rt = Runtime(seed=seed)
    if not queue_state(d).queue:
        truth = "nothing: the key p is not queued"
    else:
        deltas = rt.run_fn(d.pop, lambda _deltas: None)
        truth = " → ".join(str(x.type) for x in deltas)
    pool = {truth, "nothing: the key p is not queued"}
    while len(pool) < 6:
        pool.add(" → ".join(rng.choice(_DELTA_TYPES) for _ in range(rng.randint(1, len(ops)))))
    knows = "knownObjects (the informer's store) already holds p" if with_known else "knownObjects is empty"
    prompt = f"client-go DeltaFIFO, seed {seed}: {knows}; then {', '.join(ops)}. Which Deltas does Pop hand over for default/p?"
    explanation = ("A DeltaFIFO keeps every change of a key since the last Pop, oldest first; two Deleted in a "
                   "row collapse into one (dedupDeltas); Replace gives each listed object a Sync and, for a key "
                   "knownObjects holds but the list lacks, a Deleted with a DeletedFinalStateUnknown tombstone — "
                   "unless the key's last queued delta is already Deleted. The mirrored DeltaFIFO handed over: "
                   f"{truth}.")
    return Question(prompt, _choices(truth, sorted(pool), rng), truth, explanation, None, "client-go DeltaFIFO", seed)


def selector_question(seed: int) -> Question:
    """"Which of the scheduler's two pod watches delivers this pod?" (field selectors)."""
    from kschedlearn.apimachinery import fields

    rng = random.Random(seed)
    node = rng.choice(("", "node-2"))
    phase = rng.choice(("Pending", "Running", "Succeeded", "Failed"))
    pod = _pod("x", node=node, phase=phase)
    unassigned = fields.parse_selector("spec.nodeName==,status.phase!=Succeeded,status.phase!=Failed")
    assigned = fields.parse_selector("spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed")
    f = {"spec.nodeName": pod.spec.node_name, "status.phase": pod.status.phase}
    hits = [name for name, sel in (("unassigned-pods (podQueue)", unassigned), ("assigned-pods (scheduler cache)", assigned))
            if sel.matches(f)]
    options = ("unassigned-pods (podQueue)", "assigned-pods (scheduler cache)", "both", "neither")
    truth = hits[0] if len(hits) == 1 else ("both" if hits else "neither")
    prompt = (f"field selectors, seed {seed}: a pod with spec.nodeName={node or '(empty)'!s} and status.phase={phase}. "
              f"Which of the scheduler's pod watches lists it?")
    explanation = ("unassigned-pods uses `spec.nodeName==,status.phase!=Succeeded,status.phase!=Failed`, "
                   "assigned-pods `spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed` "
                   "(factory.go createUnassignedNonTerminatedPodLW / createAssignedNonTerminatedPodLW); "
                   f"the mirrored selectors say: {truth}.")
    return Question(prompt, options, truth, explanation, None, "field selectors", seed)


def index_question(seed: int) -> Question:
    """"How many pods does ``by_index("namespace", ns)`` return after these operations?" (Indexer)."""
    from kschedlearn.client_go.tools.cache import (NAMESPACE_INDEX, meta_namespace_index_func,
                                                   meta_namespace_key_func, new_indexer)

    rng = random.Random(seed)
    indexer = new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
    ops: list[str] = []
    for i in range(rng.randint(4, 6)):
        name, ns = rng.choice("abcd"), rng.choice(("default", "kube-system"))
        op = rng.choice(("add", "add", "update", "delete"))
        p = _pod(name, rv=i + 1, namespace=ns)
        if op == "delete":
            indexer.delete(p)
        else:
            getattr(indexer, op)(p)
        ops.append(f"{op}({ns}/{name})")
    ns = rng.choice(("default", "kube-system"))
    count = len(indexer.by_index(NAMESPACE_INDEX, ns))
    truth = str(count)
    prompt = f"client-go Indexer, seed {seed}: {', '.join(ops)}. How many pods does by_index('namespace', {ns!r}) return?"
    explanation = (f"Add and Update are the same in a ThreadSafeStore (the key's object is replaced and its "
                   f"index entries recomputed); Delete of a key that is not stored does nothing. The mirrored "
                   f"Indexer returned {count}: {sorted(meta_namespace_key_func(p) for p in indexer.by_index(NAMESPACE_INDEX, ns))}.")
    return Question(prompt, tuple(str(n) for n in range(0, 5)), truth, explanation, None, "client-go Indexer", seed)


__all__ = ["fifo_pop_question", "delta_fifo_question", "selector_question", "index_question"]

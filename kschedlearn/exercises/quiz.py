"""Predict-the-next-state quizzes, generated from a seed and answered by the mirrored code.

Go: none (kschedlearn-only). Each generator builds a small random setup with
``random.Random(seed)`` (deterministic per seed), asks one question, and computes the answer
by *running* the mirrored FIFO / scheduler cache / generic scheduler. An independent
plain-Python model of the rule produces the explanation; the generator refuses to return a
question on which the model and the simulator disagree (``verify()`` re-runs both).
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.client_go.tools.cache.fifo import new_fifo
from kschedlearn.exercises.tasks._common import node, pod, requests
from kschedlearn.exercises.tasks.t03_1_fifo_pop import Obj, _key
from kschedlearn.scheduler.schedulercache.cache import _new_scheduler_cache
from kschedlearn.observe.views import cache_state, queue_state

KINDS = ("fifo", "cache", "select_host")


@attrs.frozen
class Question:
    """One quiz question; ``answer(guess)`` checks a guess and explains the right answer."""

    kind: str
    seed: int
    text: str
    correct: Any
    explanation: str
    _simulate: Callable[[], Any] = attrs.field(repr=False)
    _model: Callable[[], Any] = attrs.field(repr=False)

    def verify(self) -> bool:
        """Re-run the simulator and the model from scratch; both must give ``correct``."""
        return self._simulate() == self.correct and self._model() == self.correct

    def answer(self, guess: Any) -> str:
        if guess is None:
            return f"No guess given. The answer is {self.correct!r}. {self.explanation}"
        ok = guess == self.correct or (isinstance(guess, (list, tuple)) and list(guess) == list(self.correct))
        verdict = "Right!" if ok else f"Not quite: you said {guess!r}, the simulator says {self.correct!r}."
        return f"{verdict} {self.explanation}"

    def __str__(self) -> str:
        return f"Quiz ({self.kind}, seed {self.seed}): {self.text}"

    def _repr_html_(self) -> str:
        return f"<p><b>Quiz ({self.kind}, seed {self.seed}).</b> {html.escape(self.text)}</p>"


def make_question(kind: str, seed: int = 0) -> Question:
    makers = {"fifo": _fifo_question, "cache": _cache_question, "select_host": _select_question}
    if kind not in makers:
        raise ValueError(f"quiz kind must be one of {', '.join(KINDS)}, got {kind!r}")
    q = makers[kind](seed)
    if not q.verify():  # the model of the rule and the mirrored code must agree
        raise AssertionError(f"quiz {kind} seed {seed}: the model disagrees with the simulator")
    return q


# --- FIFO ---------------------------------------------------------------------------------

def _fifo_ops(rng: random.Random) -> list[tuple[str, str]]:
    ops: list[tuple[str, str]] = []
    for _ in range(rng.randint(4, 7)):
        ops.append((rng.choice(["add", "add", "update", "delete", "pop"]), f"default/p{rng.randint(1, 4)}"))
    return ops


def _op_text(op: str, name: str) -> str:
    return "pop()" if op == "pop" else f"{op}({name})"


def _fifo_sim(ops: list[tuple[str, str]]) -> list[str]:
    f = new_fifo(_key)
    for i, (op, name) in enumerate(ops):
        if op == "pop":
            if any(k in queue_state(f).items for k in queue_state(f).queue):
                f.pop(lambda item: None)
        else:
            getattr(f, op)(Obj(name, i))
    return list(queue_state(f).queue)


def _fifo_model(ops: list[tuple[str, str]]) -> list[str]:
    line: list[str] = []
    items: set[str] = set()
    for op, name in ops:
        if op in ("add", "update"):
            if name not in items:
                line.append(name)
            items.add(name)
        elif op == "delete":
            items.discard(name)  # the key stays in line as a ghost
        elif any(k in items for k in line):
            while line[0] not in items:
                line.pop(0)
            items.discard(line.pop(0))
    return line


def _fifo_question(seed: int) -> Question:
    rng = random.Random(seed)
    ops = _fifo_ops(rng)
    before, last = ops[:-1], ops[-1]
    text = (f"podQueue (a FIFO) went through {', '.join(_op_text(o, n) for o, n in before)}; its key line is "
            f"{_fifo_sim(before)}. What is the key line (ghost keys included) after {_op_text(*last)}?")
    why = ("Add/update appends a key only if it has no item yet; delete drops the item but leaves the "
           "key as a ghost; pop skips ghosts at the head and removes the first live key.")
    return Question("fifo", seed, text, _fifo_sim(ops), why, lambda: _fifo_sim(ops), lambda: _fifo_model(ops))


# --- cache expiry -------------------------------------------------------------------------

def _cache_setup(rng: random.Random) -> tuple[float, list[tuple[str, float | None, bool]], float]:
    ttl = float(rng.choice([10, 30]))
    pods = []
    for i in range(rng.randint(3, 5)):
        finished = rng.random() < 0.75
        pods.append((f"default/p{i + 1}", float(rng.randint(0, 40)) if finished else None,
                     rng.random() < 0.2))
    now = float(rng.randint(20, 70))
    return ttl, pods, now


def _cache_sim(ttl: float, pods: list[tuple[str, float | None, bool]], now: float) -> list[str]:
    cache = _new_scheduler_cache(ttl, 1.0, None)
    objs = {}
    for key, finished, confirmed in pods:
        p = pod(key.split("/")[1], requests(100, 0), node="machine1")
        objs[key] = p
        cache.assume_pod(p)
        if finished is not None:
            cache._finish_binding(p, finished)
        if confirmed:
            cache.add_pod(p)
    before = {p.key for p in cache_state(cache).assumed_pods}
    cache._cleanup_assumed_pods(now)
    after = {p.key for p in cache_state(cache).assumed_pods}
    return sorted(before - after)


def _cache_model(ttl: float, pods: list[tuple[str, float | None, bool]], now: float) -> list[str]:
    return sorted(k for k, fin, conf in pods if not conf and fin is not None and now > fin + ttl)


def _cache_question(seed: int) -> Question:
    ttl, pods, now = _cache_setup(random.Random(seed))
    desc = "; ".join(
        f"{k} " + ("binding still in flight" if fin is None else f"bound at t={fin:g}")
        + (", confirmed by the informer" if conf else "") for k, fin, conf in pods)
    text = f"TTL {ttl:g} s. All pods were assumed: {desc}. Which pods does cleanupAssumedPods(now={now:g}) expire?"
    why = ("Only pods still in assumedPods whose binding finished can expire, and only when now is strictly "
           "after finish time + TTL; confirmed pods already left assumedPods.")
    return Question("cache", seed, text, _cache_sim(ttl, pods, now), why,
                    lambda: _cache_sim(ttl, pods, now), lambda: _cache_model(ttl, pods, now))


# --- selectHost ---------------------------------------------------------------------------

def _select_setup(rng: random.Random) -> tuple[list[tuple[str, int, int]], tuple[int, int], int]:
    nodes = [(f"node-{c}", rng.choice([2000, 4000]), rng.choice([4, 8]) << 30) for c in "abc"]
    pending = (rng.choice([100, 500, 1000]), rng.choice([256, 1024]) << 20)
    return nodes, pending, rng.randint(0, 5)


def _select_scores(nodes: list[tuple[str, int, int]], pending: tuple[int, int]) -> list[tuple[str, int]]:
    from kschedlearn.scheduler.algorithm.priorities.least_requested import least_requested_priority_map  # noqa: PLC0415
    from kschedlearn.scheduler.schedulercache.node_info import new_node_info  # noqa: PLC0415

    out = []
    p = pod("new", requests(*pending))
    for name, cpu, mem in nodes:
        info = new_node_info()
        info.set_node(node(name, cpu, mem))
        out.append((name, least_requested_priority_map(p, None, info).score))
    return out


def _select_sim(nodes: list[tuple[str, int, int]], pending: tuple[int, int], counter: int) -> str:
    from kschedlearn.scheduler.algorithm.priorities.least_requested import least_requested_priority_map  # noqa: PLC0415
    from kschedlearn.scheduler.algorithm.types import PriorityConfig, empty_metadata_producer  # noqa: PLC0415
    from kschedlearn.scheduler.core.generic_scheduler import new_generic_scheduler  # noqa: PLC0415
    from kschedlearn.scheduler.testing import FakeNodeLister  # noqa: PLC0415

    cache = _new_scheduler_cache(30.0, 1.0, None)
    objs = [node(n, c, m) for n, c, m in nodes]
    for n in objs:
        cache.add_node(n)
    g = new_generic_scheduler(cache, {}, empty_metadata_producer,
                              [PriorityConfig(map_fn=least_requested_priority_map, weight=1)],
                              empty_metadata_producer, [])
    g.last_node_index = counter
    return g.schedule(pod("new", requests(*pending)), FakeNodeLister(objs))


def _select_model(nodes: list[tuple[str, int, int]], pending: tuple[int, int], counter: int) -> str:
    ranked = sorted(_select_scores(nodes, pending), key=lambda hs: (hs[1], hs[0]), reverse=True)
    ties = [h for h, s in ranked if s == ranked[0][1]]
    return ties[counter % len(ties)]


def _select_question(seed: int) -> Question:
    nodes, pending, counter = _select_setup(random.Random(seed))
    desc = ", ".join(f"{n} ({c}m cpu, {m >> 30}Gi)" for n, c, m in nodes)
    text = (f"Empty nodes {desc}; a pod requesting {pending[0]}m cpu and {pending[1] >> 20}Mi; priority "
            f"LeastRequestedPriority only; lastNodeIndex is {counter}. Which node does selectHost pick?")
    why = (f"The scores are {_select_scores(nodes, pending)}. selectHost sorts by (score, name) descending and "
           f"picks tie number lastNodeIndex % (number of top-score ties).")
    return Question("select_host", seed, text, _select_sim(nodes, pending, counter), why,
                    lambda: _select_sim(nodes, pending, counter), lambda: _select_model(nodes, pending, counter))

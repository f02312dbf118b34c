"""Predict-cell questions of the course's own notebooks (00b, 08b), answered by a run.

Go: none — kschedlearn-only (the contract of :mod:`kschedlearn.simulation.questions`: a factory
``(seed) -> Question`` builds the run, poses the question and reads the truth from the run).
"""

from __future__ import annotations

import random
from kschedlearn.curriculum.activities_cache import _two_conflicts
from kschedlearn.curriculum.activities_intro import WEB1, _sim
from kschedlearn.simulation.questions import Question, _choices, _ev

CONFIRMATION = ("apiserver.bind", "finishBinding", "reflector.watch_event", "fifo.delete", "delta_fifo.add",
                "delta_fifo.pop", "controller.process_loop", "handler.OnAdd", "cache.addPod")


def confirmation_question(seed: int) -> Question:
    """"Between the binding and the confirmation, which step comes next for web-1?" — the seed
    picks the moment; the truth is the next of web-1's events in the run."""
    sim = _sim(seed=seed)
    sim.run_until(lambda e: e.stage == "cache.addPod" and e.data.get("pod") == WEB1)
    bind = next(e for e in sim.trace if e.stage == "apiserver.bind" and e.data.get("pod") == WEB1)
    events = [e for e in sim.trace if e.seq >= bind.seq and e.stage in CONFIRMATION
              and WEB1 in (e.data.get("pod"), e.data.get("key"))]
    steps = [k for k in range(len(events) - 1) if events[k].stage != events[k + 1].stage]
    rng = random.Random(seed)
    k = rng.choice(steps)
    now, nxt = events[k], events[k + 1]
    prompt = (f"three-nodes, seed {seed}: web-1 is on its way back. The cursor is at {_ev(now)} — {now.message}. "
              f"Which of web-1's steps comes next?")
    return Question(prompt, _choices(nxt.stage, [s for s in CONFIRMATION if s != now.stage], rng), nxt.stage,
                    f"{_ev(nxt)}: {nxt.message}. {nxt.why}", nxt.seq, "three-nodes", seed)


def conflict_event_question(seed: int) -> Question:
    """"The binding fails with a 409 Conflict: what does the event say?" — truth from the run."""
    rng = random.Random(seed)
    t2 = _two_conflicts()
    events = sorted(t2.world.api.storage.items("events"), key=lambda ev: ev.reason)
    failed = next(ev for ev in events if ev.reason == "FailedScheduling")
    truth = f"{failed.type} {failed.reason}: {failed.message}"
    variants = [f"Warning FailedScheduling: {failed.message}", f"Normal FailedScheduling: Binding rejected",
                f"Warning BindingRejected: {failed.message}", f"{failed.type} Scheduled: {failed.message}"]
    prompt = ("`three-nodes`: the next two bindings fail with **409 Conflict**. What does the FailedScheduling "
              "event about `default/web-1` say (type, reason, message)?")
    why = (f"The API server stores {', '.join(f'{ev.reason} (×{ev.count})' for ev in events)}. The binding "
           "goroutine records the refusal as a *Normal* event (1.6's choice) with the error's text after "
           "\"Binding rejected: \"; identical events are counted, not repeated.")
    return Question(prompt, _choices(truth, variants, rng), truth, why, None, "three-nodes", seed)



__all__ = ["CONFIRMATION", "confirmation_question", "conflict_event_question"]

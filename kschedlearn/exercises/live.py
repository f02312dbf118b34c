"""``plug_in(task, fn, simulation)``: the learner's function inside a live, steppable simulation.

Go: none (kschedlearn-only, DESIGN §10). The learner's function is called many times from inside
the running simulated scheduler, and the experiment must change the caller's own ``Simulation``
(its views then show the effect), so the real run happens in the notebook's process. The rest of
the run, from the cursor (a cursor in the past forks the history there, as ``sim.inject`` does),
goes in three passes:

1. **Two rehearsals in forked children** (``sandbox.run_in_child``; a child has an exact copy of
   the simulation as it stands - fork copies the whole heap, cursor and live world included):
   one with the task's reference function plugged in, one with the learner's, each for at most
   ``seconds`` of wall time and each call recorded (``calls.CallLog``). An endless loop (even
   one catching ``BaseException``), ``os._exit``, a crash below Python or a blocked wait ends
   only the child; then the caller's simulation is left exactly as it was (history, cursor,
   world) and the report names the cause. When the learner's rehearsal never called the
   function (the scheduler is past it, or every pod is placed), the plug-in is *refused*: the
   simulation is left as it was and the report says why - it never claims a function was
   plugged in that did not run.
2. **The real run**, only after a clean rehearsal: the same continuation in-process, each call
   recorded and counted. Every call goes through a guard (``framework.guard``): an exception it
   raises - ``SystemExit`` from ``sys.exit`` and a ``KeyboardInterrupt`` it raises itself
   included - becomes a :class:`LearnerFunctionError` naming the exception and the learner's
   line; a changed read-only input (``protect``; the function gets deep copies of its read-only
   inputs, so the write reaches neither the cache nor the API server's objects) or a wrong
   return type likewise. That error escapes the goroutine that called the function, so the
   simulated process dies of it exactly as a Go panic would end the binary: the simulation
   records a ``process.crash`` event carrying that message and warns
   ``SimulatedProcessCrashed``; everything recorded stays, and the session keeps stepping.
   Output printed during the run is capped (``sandbox.OUTPUT_LIMIT``). The mirror's module
   globals and classes are restored after the run (``mirror_state``); the report names any the
   learner's code changed.
3. **The verdict**: the real run's calls against the reference rehearsal's, call by call
   (``calls.compare_calls``), and where the pods ended up in each.

Honest limits: the real run repeats the rehearsal only when the learner's function behaves the
same both times (the world is deterministic; a function that reads the wall clock or a global
random generator may not be - the report says so when the calls differ). A stop pressed in the
notebook during the real run stops it (a ``KeyboardInterrupt`` that comes from the SIGINT handler
is not counted as the learner's own). A later fork of the history (``sim.inject`` at an earlier
event) replays without the learner's function. Without ``os.fork`` (Windows) there is no
rehearsal: the run is in-process under the SIGALRM limit (``limits.time_limit``), which a loop
catching ``BaseException`` defeats and ``os._exit`` ends the kernel - use
``check()``/``plug_in()`` without a simulation there.
"""

from __future__ import annotations

import copy
import inspect
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import attrs

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises import sandbox
from kschedlearn.exercises.calls import CallLog, Calls, compare_calls
from kschedlearn.exercises.limits import TimeLimitExceeded, time_limit
from kschedlearn.exercises.mirror_state import MirrorState, restored_note
from kschedlearn.exercises.plugged_runs import Outcome, outcome_of
from kschedlearn.exercises.registry import Task


class LearnerFunctionError(fw.LearnerFailure):
    """The learner's function failed inside a live simulation (the simulated process dies of it).

    Its text is the whole story (``your f() raised SystemExit: 3 - line 2 of f(): sys.exit(3)``),
    because the simulation records ``type: text`` in its ``process.crash`` event.
    """

    def __init__(self, failure: fw.LearnerFailure, name: str) -> None:
        super().__init__(failure.original, failure.frames)
        self.function = name

    def __str__(self) -> str:
        return f"your {self.function}() raised {self.describe()}"


@attrs.define(eq=False)
class Interrupts:
    """Tells a stop pressed in the notebook (SIGINT) from a KeyboardInterrupt the learner raises."""

    pressed: bool = False

    @contextmanager
    def watching(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.getsignal(signal.SIGINT)

        def on_sigint(signum: int, frame: Any) -> None:
            self.pressed = True
            if callable(previous):
                previous(signum, frame)
            raise KeyboardInterrupt

        signal.signal(signal.SIGINT, on_sigint)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)


def params_of(task: Task) -> tuple[str, ...]:
    """The parameter names of the reference solution (what ``Task.protected`` refers to)."""
    try:
        return tuple(inspect.signature(task.load_solution()).parameters)
    except (ValueError, TypeError, ImportError, AttributeError):
        return ()


def live_guard(task: Task, fn: Callable[..., Any], params: tuple[str, ...], interrupts: Interrupts, *,
               copies: bool = True) -> Callable[..., Any]:
    """``fn`` wrapped for calls from inside the simulated scheduler (see the module docstring);
    ``copies``: hand it deep copies of its read-only inputs (a live run: the objects are shared)."""
    name = task.function_name
    guarded = fw.guard(fn, task.returns, name, protected=task.protected, params=params, interruptible=False)

    def call(*args: Any, **kwargs: Any) -> Any:
        if copies:
            args, kwargs = _copies(args, kwargs, params, task.protected)
        try:
            return guarded(*args, **kwargs)
        except LearnerFunctionError:
            raise
        except fw.LearnerFailure as failure:
            if isinstance(failure.original, KeyboardInterrupt) and interrupts.pressed:
                raise failure.original from None  # the learner pressed stop: stop the run
            raise LearnerFunctionError(failure, name) from None

    call.__name__ = name
    call.__qualname__ = getattr(fn, "__qualname__", name)
    call.__doc__ = fn.__doc__
    call.__wrapped__ = fn  # type: ignore[attr-defined]
    return call


def _copies(args: tuple[Any, ...], kwargs: dict[str, Any], params: tuple[str, ...],
            protected: tuple[str, ...]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The call's arguments with deep copies of the read-only ones.

    The scheduler's cache shares its pod objects with the simulated API server's storage, so a
    learner's write to a pod would otherwise change what the API server holds; on a copy the
    write is still detected (``protect``) but nothing else sees it.
    """
    if not protected:
        return args, kwargs
    positions = {name: i for i, name in enumerate(params)}
    out = list(args)
    for name in protected:
        if name in kwargs:
            kwargs = {**kwargs, name: _copy(kwargs[name])}
        elif positions.get(name, len(out)) < len(out):
            out[positions[name]] = _copy(out[positions[name]])
    return tuple(out), kwargs


def _copy(value: Any) -> Any:
    try:
        return copy.deepcopy(value)
    except Exception:  # noqa: BLE001 - an uncopyable input is handed over as it is (still checked)
        return value


def _live_patch(task: Task, fn: Callable[..., Any], log: CallLog, simulation: Any) -> AbstractContextManager[None]:
    """The task's patch for a running simulation, each call (or use) recorded in ``log``."""
    if task.live is not None:
        return task.live(fn, log, simulation)
    return task.recorded_patch(fn, log)


@attrs.frozen
class _Rehearsal:
    """What a child's run of the rest of the simulation ended with (plain data)."""

    events: int
    crashes: tuple[str, ...]
    finished: bool
    calls: Calls
    outcome: Outcome
    own_changes: tuple[str, ...] = ()
    """Module-level names of the mirror that the run itself changed (``mirror_state``)."""


def _crash_texts(simulation: Any) -> tuple[str, ...]:
    world = getattr(simulation, "world", None)
    runtime = getattr(world, "runtime", None)
    return tuple(f"{c.process}: {c.message}" for c in getattr(runtime, "crashes", ()))


def _stand_at_cursor(simulation: Any) -> None:
    """A cursor in the past: fork the history there (as ``sim.inject`` does) so the rest of the
    run is run again - with the plugged-in function - rather than replayed from the record."""
    fork = getattr(simulation, "_fork_here", None)
    if callable(fork):
        fork()


def _without_snapshots(simulation: Any) -> None:
    """In a rehearsal's child only: record the rest of the run without a state snapshot per event.

    Nothing of the child's world comes back but plain data (the calls, the outcome, counts), so
    no one ever sees a snapshot built there, and building them was about half of a rehearsal's
    CPU. A snapshot only reads the world (``trace.snapshot.SnapshotBuilder``); without it the run,
    its calls and its events are the same - each live verdict compares the reference rehearsal's
    calls with the real run's, which keeps its snapshots, call by call
    (``tests/exercises/test_verdicts.py``, every task). A world built from now on - the world a
    cursor in the past replays to, or a first one - is built without them, as
    ``Simulation(..., snapshots=False)`` builds it (only this child's copy is changed)."""
    if isinstance(getattr(simulation, "snapshots", None), bool):
        simulation.snapshots = False
    world = getattr(simulation, "_world", None)
    if world is not None:  # (one built without snapshots, or made some other way, stays as it is)
        world.stop_snapshots()


def _refusal(task: Task, simulation: Any) -> str:
    """Why nothing can be plugged in at all, before anything runs ("" when it can)."""
    if getattr(simulation, "engine", "mirrored") != "mirrored":
        return (f"the simulation runs the {simulation.engine!r} engine, which replaces parts of the mirror "
                "with faster code; plug your function into a Simulation(..., engine='mirrored')")
    if getattr(simulation, "finished", False):
        cursor = getattr(simulation, "cursor", -1)
        return (f"the simulation has already run to its end (event {cursor}): nothing is left to run with "
                f"your {task.function_name}(). Go back to an earlier event (sim.goto(n)) or start a new "
                "simulation; your simulation was not changed")
    return ""


def plug_into_simulation(task: Task, fn: Callable[..., Any], simulation: Any, seconds: float,
                         params: tuple[str, ...]) -> fw.PlugInReport:
    """Rehearse the rest of the run in children; run it for real only if that was clean."""
    if not callable(getattr(simulation, "run", None)):
        raise TypeError(f"plug_in({task.id!r}, fn, simulation): the simulation has no run() method")
    owner_check = getattr(simulation, "check_thread", None)
    if callable(owner_check):
        owner_check("plug_in")
    refused = _refusal(task, simulation)
    if refused:
        return _report(task, refused=refused)
    interrupts = Interrupts()
    wrapped = live_guard(task, fn, params, interrupts)
    before = _crash_texts(simulation)
    if not sandbox.fork_available():
        return _real_run(task, wrapped, simulation, interrupts, before, seconds, None, None)
    reference_done = _rehearse(task, task.load_solution(), simulation, seconds)  # both run at once
    try:
        learner = _rehearse(task, wrapped, simulation, seconds)()
    finally:
        reference = reference_done()
    if not isinstance(learner, _Rehearsal):
        return learner
    if learner.calls.started == 0:
        return _report(task, refused=_never_called(task, simulation, reference))
    return _real_run(task, wrapped, simulation, interrupts, before, None, reference, learner)


def _never_called(task: Task, simulation: Any, reference: Any) -> str:
    cursor = getattr(simulation, "cursor", -1)
    real = (f"the reference {task.function_name}() plugged in the same way is called {reference.calls.started} "
            "times there" if isinstance(reference, _Rehearsal) and reference.calls.started
            else "nor was the reference solution plugged in the same way")
    return (f"a rehearsal of the rest of this run (from event {cursor}, in a separate process) never called "
            f"your {task.function_name}() ({real}), so plugging it in would test nothing: what would call it "
            f"is not reached again in this run, or was set up before event {cursor} with the real function. "
            "Your simulation was not changed. Plug it in at an earlier event (sim.goto(n): the history forks "
            "there) or on a new simulation before sim.start()")


def _report(task: Task, **kw: Any) -> fw.PlugInReport:
    baseline = "the scheduler's" if task.baseline == "real" else "the reference solution's"
    return fw.PlugInReport(task.id, task.title, kw.pop("rows", ()), function=task.function_name,
                           baseline=baseline, **kw)


def _rehearse(task: Task, fn: Callable[..., Any], simulation: Any,
              seconds: float) -> Callable[[], _Rehearsal | fw.PlugInReport]:
    """Start the rest of the run in a forked child; call the result for what it ended with (a
    report when it did not end cleanly)."""

    def work(send: Callable[[Any], None]) -> None:
        log = CallLog(task.function_name)
        _without_snapshots(simulation)  # first: a replay to the cursor is then made without them too
        _stand_at_cursor(simulation)
        state = MirrorState.take()
        with _live_patch(task, fn, log, simulation):
            simulation.run()
        send(_Rehearsal(len(simulation.trace), _crash_texts(simulation), bool(simulation.finished),
                        log.calls(), outcome_of(simulation), state.changes()))

    child = sandbox.start_child(work, seconds)

    def collect() -> _Rehearsal | fw.PlugInReport:
        run = child.collect()
        if run.items:
            return run.items[0]
        run.replay()  # what the learner printed before things went wrong helps to find out why
        why = (f"time limit of {seconds:g} s reached: the simulation with your {task.function_name}() "
               f"plugged in was still running after {seconds:g} s of wall time (look for a loop that "
               "never ends, or a wait that nothing wakes up)") if run.timed_out else run.ending
        return _report(task, rows=(("simulation.run()", "finished", f"stopped: {why}"),), note=(
            f"The run was rehearsed in a separate process and did not finish: {why}. Your simulation was "
            "not changed: its recorded history, cursor and world are as they were."), notes=run.notes())

    return collect


def _real_run(task: Task, wrapped: Callable[..., Any], simulation: Any, interrupts: Interrupts,
              before: tuple[str, ...], seconds: float | None, reference: Any,
              rehearsal: _Rehearsal | None) -> fw.PlugInReport:
    out = sandbox._CappedText(sandbox.OUTPUT_LIMIT)
    saved = sys.stdout
    start = getattr(simulation, "cursor", -1)
    forked = start < len(simulation.trace) - 1
    log = CallLog(task.function_name)
    _stand_at_cursor(simulation)  # a replay of the recorded past runs the real code only
    state = MirrorState.take()
    result = "finished"
    try:
        sys.stdout = out  # type: ignore[assignment]
        with interrupts.watching(), time_limit(seconds):
            with _live_patch(task, wrapped, log, simulation):
                result = fw.outcome(simulation.run, show=lambda r: "finished" if r is None else f"stopped at {r}",
                                    limit=None)
    except TimeLimitExceeded:
        result = f"stopped after {seconds:g} s (time limit)"
    except LearnerFunctionError as err:  # called outside any simulated process (e.g. while building)
        result = f"raised {err}"
    finally:
        sys.stdout = saved
        # what the reference's run changed by itself is the simulation's doing, not the learner's
        changed = state.restore(reference.own_changes if isinstance(reference, _Rehearsal) else ())
    sandbox.ChildRun((), "", False, out.value(), out.dropped).replay()
    mine = log.calls()
    notes = list(sandbox.notes_for(out.size + out.dropped, out.dropped, 0))
    if changed:
        notes.append(restored_note(changed))
    if forked:
        notes.append(f"The recorded history after event {start} was discarded: the run went on from there with "
                     f"your {task.function_name}() (as sim.inject does).")
    if rehearsal is not None and rehearsal.calls.digest != mine.digest:
        notes.append("Your function behaved differently in the real run than in its rehearsal (does it read "
                     "the wall clock, or a random generator?); the verdict is about the real run.")
    rows: list[tuple[str, str, str]] = [("simulation.run()", "finished", result)]
    difference = ""
    if isinstance(reference, _Rehearsal):
        comparison = compare_calls(reference.calls, mine)
        diff = comparison.first_difference
        difference = diff.describe(task.function_name) if diff else ""
        rows.append((f"calls of {task.function_name}()", str(reference.calls.started), str(mine.started)))
        rows += _placement_rows(reference.outcome, outcome_of(simulation))
    elif reference is not None:
        difference = "(not compared: the reference rehearsal did not finish)"
    name = mine.what or f"your {task.function_name}()"
    counted = (f"{name[:1].upper()}{name[1:]} was called {mine.started} time{'s' if mine.started != 1 else ''} "
               f"in the rest of the run (from event {start}); see the simulation's views for the effect.")
    crashed = [c for c in _crash_texts(simulation)[len(before):] if "LearnerFunctionError" in c]
    note = counted
    if crashed:
        note += (f" Your function failed inside the simulation, and the simulated process that called it died "
                 f"of it (as a Go panic ends the binary): {crashed[0]}.")
        rows.append(("your function", "no error", crashed[0]))
    return _report(task, rows=tuple(rows), note=note, calls=mine.started, difference=difference, notes=tuple(notes),
                   what=mine.what)


def _placement_rows(reference: Outcome, yours: Outcome) -> list[tuple[str, str, str]]:
    ref, mine = dict(reference.placements), dict(yours.placements)
    rows = [(f"pod {p}", ref.get(p, "") or "(pending)", mine.get(p, "") or "(pending)")
            for p in sorted(set(ref) | set(mine)) if ref.get(p, "") != mine.get(p, "")]
    if reference.crashes != yours.crashes:
        rows.append(("crashed processes", "; ".join(reference.crashes) or "none", "; ".join(yours.crashes) or "none"))
    if not rows:
        rows.append(("where the pods ended up", "same", "same"))
    return rows


__all__ = ["Interrupts", "LearnerFunctionError", "live_guard", "params_of", "plug_into_simulation"]

"""``plug_in(task, fn, simulation)``: the learner's function inside a live, steppable simulation.

Go: none (kschedlearn-only, DESIGN §10). The learner's function is called many times from inside
the running simulated scheduler, and the experiment must change the caller's own ``Simulation``
(its views then show the effect), so the real run happens in the notebook's process. To keep
the kernel safe anyway, the run goes in two passes:

1. **A rehearsal in a forked child** (``sandbox.run_in_child``): the child has an exact copy of
   the simulation as it stands (fork copies the whole heap, cursor and live world included) and
   runs it on with the learner's function patched in, for at most ``seconds`` of wall time. An
   endless loop (even one catching ``BaseException``), ``os._exit``, a crash below Python or a
   blocked wait ends only the child. Then the caller's simulation is left exactly as it was
   (history, cursor, world): the report names the cause and nothing else happens.
2. **The real run**, only after a clean rehearsal: the same continuation in-process. Every call
   of the learner's function goes through a guard (``framework.guard``): an exception it raises
   - ``SystemExit`` from ``sys.exit`` and a ``KeyboardInterrupt`` it raises itself included -
   becomes a :class:`LearnerFunctionError` naming the exception and the learner's line; a
   changed read-only input (``protect``; the function gets deep copies of its read-only inputs,
   so the write reaches neither the cache nor the API server's objects) or a wrong return type
   likewise. That error escapes the
   goroutine that called the function, so the simulated process dies of it exactly as a Go
   panic would end the binary: the simulation records a ``process.crash`` event carrying that
   message and warns ``SimulatedProcessCrashed``; everything recorded stays, and the session
   keeps stepping. Output printed during the run is capped (``sandbox.OUTPUT_LIMIT``).

Honest limits: the real run repeats the rehearsal only when the learner's function behaves the
same both times (the world is deterministic; a function that reads the wall clock or a global
random generator may not be). A stop pressed in the notebook during the real run stops it (a
``KeyboardInterrupt`` that comes from the SIGINT handler is not counted as the learner's own).
Without ``os.fork`` (Windows) there is no rehearsal: the run is in-process under the SIGALRM
limit (``limits.time_limit``), which a loop catching ``BaseException`` defeats and
``os._exit`` ends the kernel - use ``check()``/``plug_in()`` without a simulation there.
"""

from __future__ import annotations

import copy
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from kschedlearn.exercises import framework as fw
from kschedlearn.exercises import sandbox
from kschedlearn.exercises.limits import TimeLimitExceeded, time_limit
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
class _Interrupts:
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


def live_guard(task: Task, fn: Callable[..., Any], params: tuple[str, ...],
               interrupts: _Interrupts) -> Callable[..., Any]:
    """``fn`` wrapped for calls from inside the simulated scheduler (see the module docstring)."""
    name = task.function_name
    guarded = fw.guard(fn, task.returns, name, protected=task.protected, params=params, interruptible=False)

    def call(*args: Any, **kwargs: Any) -> Any:
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


@attrs.frozen
class _Rehearsal:
    """What the child's run of the simulation ended with (plain data)."""

    events: int
    crashes: tuple[str, ...]
    finished: bool


def _crash_texts(simulation: Any) -> tuple[str, ...]:
    world = getattr(simulation, "world", None)
    runtime = getattr(world, "runtime", None)
    return tuple(f"{c.process}: {c.message}" for c in getattr(runtime, "crashes", ()))


def plug_into_simulation(task: Task, fn: Callable[..., Any], simulation: Any, seconds: float,
                         params: tuple[str, ...]) -> fw.PlugInReport:
    """Rehearse ``task.plug_in(fn, simulation)`` in a child; run it for real only if that was clean."""
    if not callable(getattr(simulation, "run", None)):
        raise TypeError(f"plug_in({task.id!r}, fn, simulation): the simulation has no run() method")
    interrupts = _Interrupts()
    wrapped = live_guard(task, fn, params, interrupts)
    before = _crash_texts(simulation)
    if sandbox.fork_available():
        stopped = _rehearse(task, wrapped, simulation, seconds)
        if stopped:
            return stopped
        return _real_run(task, wrapped, simulation, interrupts, before, None)
    return _real_run(task, wrapped, simulation, interrupts, before, seconds)


def _rehearse(task: Task, wrapped: Callable[..., Any], simulation: Any, seconds: float) -> fw.PlugInReport | None:
    """The run in a forked child; a report when it did not end cleanly (else None)."""

    def work(send: Callable[[Any], None]) -> None:
        task.plug_in(wrapped, simulation)
        send(_Rehearsal(len(simulation.trace), _crash_texts(simulation), bool(simulation.finished)))

    run = sandbox.run_in_child(work, seconds)
    if run.items:
        return None
    run.replay()  # what the learner printed before things went wrong helps to find out why
    why = (f"time limit of {seconds:g} s reached: the simulation with your {task.function_name}() "
           f"plugged in was still running after {seconds:g} s of wall time (look for a loop that "
           "never ends, or a wait that nothing wakes up)") if run.timed_out else run.ending
    return fw.PlugInReport(task.id, task.title, (("simulation.run()", "finished", f"stopped: {why}"),), note=(
        f"The run was rehearsed in a separate process and did not finish: {why}. Your simulation was "
        "not changed: its recorded history, cursor and world are as they were."))


def _real_run(task: Task, wrapped: Callable[..., Any], simulation: Any, interrupts: _Interrupts,
              before: tuple[str, ...], seconds: float | None) -> fw.PlugInReport:
    out = sandbox._CappedText(sandbox.OUTPUT_LIMIT)
    saved = sys.stdout
    try:
        sys.stdout = out  # type: ignore[assignment]
        with interrupts.watching(), time_limit(seconds):
            report = task.plug_in(wrapped, simulation)
    except TimeLimitExceeded:
        report = fw.PlugInReport(task.id, task.title, (("simulation.run()", "finished",
                                                        f"stopped after {seconds:g} s"),),
                                 note=f"time limit of {seconds:g} s reached; the simulation stands where it stopped.")
    except LearnerFunctionError as err:  # called outside any simulated process (e.g. while building)
        report = fw.PlugInReport(task.id, task.title, (("simulation.run()", "finished", f"raised {err}"),),
                                 note="Your function failed outside the simulated processes.")
    finally:
        sys.stdout = saved
    sandbox.ChildRun((), "", False, out.value(), out.dropped).replay()
    crashed = [c for c in _crash_texts(simulation)[len(before):] if "LearnerFunctionError" in c]
    if not crashed:
        return report
    note = (f"{report.note} Your function failed inside the simulation, and the simulated process that "
            f"called it died of it (as a Go panic ends the binary): {crashed[0]}.").strip()
    return attrs.evolve(report, rows=report.rows + (("your function", "no error", crashed[0]),), note=note)

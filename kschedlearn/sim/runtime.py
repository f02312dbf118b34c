"""The deterministic runtime: goroutines as greenlets, a virtual clock, processes.

Go: there is no Go file for this — it stands in for the Go runtime itself (the goroutine
scheduler, ``time``, ``chan``) so that mirrored code can block exactly where Go blocks.

How it works
------------
A *hub* greenlet runs ready goroutines one at a time, in FIFO order, each until it blocks
(channel, mutex, cond, sleep) or returns. When nothing is ready, the hub advances the virtual
clock to the earliest timer and fires it. When nothing is ready and no timer is due, the hub
hands control back to the *driver* — the code that called :meth:`Runtime.run` (a test, the
notebook). Nothing here reads the wall clock, so the same program and seed always produce the
same interleaving.

A trace point may *pause* a goroutine mid-function: control jumps straight back to the driver
(no other goroutine runs), and the next :meth:`Runtime.run` switches back into that goroutine,
which continues on the very next line.

An exception escaping a goroutine kills every goroutine of its :class:`Process` — as a Go panic
or ``glog.Fatalf`` ends the whole binary — and is recorded in :attr:`Runtime.crashes`. Other
processes (another scheduler replica, the API server) go on.
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections import deque
from collections.abc import Callable
from typing import Any

import attrs
import greenlet

from kschedlearn.sim.gc_policy import freeze_for_run, raise_young_threshold, restore_threshold, thaw


class WouldBlockError(RuntimeError):
    """Raised when code outside any goroutine (the notebook, a test) would have to block."""


class GoroutineExit(greenlet.GreenletExit):
    """Thrown into the goroutines of a process that crashed, to unwind them."""


class _GoGreenlet(greenlet.greenlet):
    """A greenlet that knows which goroutine it runs (so ``sim.go`` needs no globals)."""

    goroutine: Goroutine | None = None


@attrs.define(eq=False)
class Process:
    """A simulated OS process (an API server, one kube-scheduler replica, the kubelet sim).

    Differs from Go: Go has one process per binary; the simulation runs several side by side.
    """

    name: str
    runtime: Runtime = attrs.field(repr=False)
    pid: int
    alive: bool = True
    exit_reason: str | None = None
    goroutines: list[Goroutine] = attrs.field(factory=list, repr=False)
    # Go's utilfeature.DefaultFeatureGate is one per binary: here one per simulated process
    # (a features.FeatureGate, created on first use by features.default_feature_gate).
    feature_gate: Any = attrs.field(default=None, repr=False)
    # glog's flag-set state (a trace.glog_flags.Logging) when the process's command line gave a
    # glog flag; None = record V(n) lines up to the tracer's log_verbosity.
    glog: Any = attrs.field(default=None, repr=False)

    def go(self, fn: Callable[..., Any], *args: Any, name: str | None = None) -> Goroutine:
        """Start a goroutine in this process."""
        return self.runtime.go(fn, *args, name=name, process=self)


@attrs.define(eq=False)
class Goroutine:
    """One goroutine: its greenlet, its process and what it is waiting for."""

    gid: int
    name: str
    process: Process
    runtime: Runtime = attrs.field(repr=False)
    glet: _GoGreenlet | None = attrs.field(default=None, repr=False)
    _state: str = "runnable"  # runnable | running | blocked | sleeping | paused | done | killed
    _waiting_on: str = ""
    killed: bool = False
    #: what :attr:`waiting_on` will read, written only when first asked (see :meth:`wait_on_later`)
    _waiting_on_later: Callable[[], str] | None = attrs.field(default=None, repr=False)

    @property
    def state(self) -> str:
        return self._state

    @state.setter
    def state(self, value: str) -> None:
        self._state = value
        self.runtime.changed(self)

    @property
    def waiting_on(self) -> str:
        later = self._waiting_on_later
        if later is not None:
            self._waiting_on, self._waiting_on_later = later(), None
        return self._waiting_on

    @waiting_on.setter
    def waiting_on(self, value: str) -> None:
        self._waiting_on, self._waiting_on_later = value, None
        self.runtime.changed(self)

    def wait_on_later(self, describe: Callable[[], str]) -> None:
        """Set :attr:`waiting_on` to ``describe()``, called when something first reads it: a
        blocking ``select`` names every case's channel, and in most runs nobody reads it before
        the goroutine wakes (the fault campaign takes no snapshots)."""
        self._waiting_on, self._waiting_on_later = "", describe
        self.runtime.changed(self)

    @property
    def alive(self) -> bool:
        return self._state not in ("done", "killed")


@attrs.frozen
class Crash:
    """A record of a process killed by an exception escaping one of its goroutines."""

    time: float
    process: str
    goroutine: str
    error: BaseException
    message: str


@attrs.define(eq=False)
class _Timer:
    when: float
    seq: int
    fire: Callable[[], None]
    cancelled: bool = False
    owner: Goroutine | None = None  # a sleeping goroutine: a dead owner makes the timer moot

    def __lt__(self, other: _Timer) -> bool:
        # ((when, seq) < (other.when, other.seq) without building two tuples per heap comparison;
        # a tuple's elements are the same when identical or equal)
        when, other_when = self.when, other.when
        return when < other_when or ((when is other_when or when == other_when) and self.seq < other.seq)


@attrs.define(eq=False)
class Runtime:
    """The hub: ready queue, timer heap, virtual clock, processes, seeded randomness."""

    seed: int = 0
    start_time: float = 0.0
    rand: random.Random = attrs.field(init=False)
    now: float = attrs.field(init=False)
    processes: list[Process] = attrs.field(factory=list, init=False)
    goroutines: list[Goroutine] = attrs.field(factory=list, init=False, repr=False)
    crashes: list[Crash] = attrs.field(factory=list, init=False)
    tracer: Any = attrs.field(default=None, init=False)  # kschedlearn.trace.Tracer, set from outside
    #: the simulation's trace points (a kschedlearn.observe.Observation), set from outside
    observation: Any = attrs.field(default=None, init=False)
    max_switches: int | None = None
    #: set by :meth:`close`: every goroutine has been unwound and nothing runs any more
    closed: bool = attrs.field(default=False, init=False)
    #: set by the first :meth:`run`: before it no goroutine has run a statement
    started: bool = attrs.field(default=False, init=False)
    #: bumped whenever a goroutine starts or any goroutine's state or waiting_on changes, so the
    #: trace snapshots reuse the goroutine views they built while it stands still
    version: int = attrs.field(default=0, init=False, repr=False)
    #: the goroutines whose state or waiting_on changed (or that started), by gid, one dict per
    #: follower that asked for it (a snapshot builder keeps its goroutine views from them)
    goroutine_logs: list[dict[int, Goroutine]] = attrs.field(factory=list, init=False, repr=False)
    _ready: deque[tuple[Goroutine, Any]] = attrs.field(factory=deque, init=False, repr=False)
    _to_unwind: deque[Goroutine] = attrs.field(factory=deque, init=False, repr=False)
    _timers: list[_Timer] = attrs.field(factory=list, init=False, repr=False)
    _seq: itertools.count[int] = attrs.field(factory=itertools.count, init=False, repr=False)
    _gids: itertools.count[int] = attrs.field(factory=lambda: itertools.count(1), init=False, repr=False)
    _hub: greenlet.greenlet | None = attrs.field(default=None, init=False, repr=False)
    _driver: greenlet.greenlet | None = attrs.field(default=None, init=False, repr=False)
    _paused: Goroutine | None = attrs.field(default=None, init=False, repr=False)
    _until: float | None = attrs.field(default=None, init=False, repr=False)
    _stop_when: Callable[[], bool] | None = attrs.field(default=None, init=False, repr=False)
    current: Goroutine | None = attrs.field(default=None, init=False, repr=False)
    main_process: Process = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self.rand = random.Random(self.seed)
        self.now = self.start_time
        self.main_process = self.new_process("main")

    # -- processes and goroutines -------------------------------------------------------
    def new_process(self, name: str) -> Process:
        """Create a simulated process that goroutines can belong to."""
        proc = Process(name=name, runtime=self, pid=len(self.processes) + 1)
        self.processes.append(proc)
        return proc

    def go(
        self,
        fn: Callable[..., Any],
        *args: Any,
        name: str | None = None,
        process: Process | None = None,
    ) -> Goroutine:
        """Start ``fn(*args)`` as a new goroutine (Go's ``go fn(args)``); it runs later."""
        if process is None:
            process = self.current.process if self.current is not None else self.main_process
        g = Goroutine(
            gid=next(self._gids),
            name=name or getattr(fn, "__qualname__", repr(fn)),
            process=process,
            runtime=self,
        )
        if not process.alive:
            g.state = "killed"
            return g
        g.glet = _GoGreenlet(lambda: self._body(g, fn, args), parent=self._ensure_hub())
        g.glet.goroutine = g
        process.goroutines.append(g)
        self.goroutines.append(g)
        self.changed(g)
        if g.gid % 512 == 0:  # forget finished goroutines now and then (keeps lists short)
            self.goroutines = [x for x in self.goroutines if x.alive]
            for p in self.processes:
                p.goroutines = [x for x in p.goroutines if x.alive]
        self._ready.append((g, None))
        return g

    def _body(self, g: Goroutine, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            fn(*args)
        except greenlet.GreenletExit:
            g.state = "killed"
            return
        except BaseException as exc:  # noqa: BLE001 - a panic of any kind kills the process
            g.state = "done"
            self._crash(g, exc)
            return
        g.state = "done"

    def _crash(self, g: Goroutine, exc: BaseException) -> None:
        proc = g.process
        message = f"{type(exc).__name__}: {exc}"
        self.crashes.append(Crash(self.now, proc.name, g.name, exc, message))
        proc.alive = False
        proc.exit_reason = message
        if self.tracer is not None:
            self.tracer.on_crash(self, g, exc)
        for other in list(proc.goroutines):
            if other is not g and other.alive:
                self._kill(other)

    def _kill(self, g: Goroutine) -> None:
        # Mark now; the hub unwinds its stack (finally blocks run) at its next turn, so that
        # nothing depends on garbage-collection timing and control always returns to the hub.
        g.killed = True
        g.state = "killed"
        if g.glet is not None and not g.glet.dead:
            self._to_unwind.append(g)

    def _unwind_killed(self) -> None:
        while self._to_unwind:
            g = self._to_unwind.popleft()
            if g.glet is not None and not g.glet.dead:
                self.current = g
                g.glet.throw(GoroutineExit)
                self.current = None

    def kill_process(self, proc: Process, reason: str = "killed") -> None:
        """Kill a process from outside (the notebook's fault injection): all its goroutines end."""
        if not proc.alive:
            return
        proc.alive = False
        proc.exit_reason = reason
        if self._paused is not None and self._paused.process is proc:
            self._paused = None
        for g in list(proc.goroutines):
            if g.alive:
                self._kill(g)

    # -- blocking and waking (used by channels, mutexes, timers) ------------------------
    def _park(self, state: str, waiting_on: str | Callable[[], str]) -> Any:
        """Block the current goroutine until something wakes it; returns the wake value.
        ``waiting_on``: what it waits for, or a function that says it when first asked."""
        g = self.current
        if g is None:
            what = waiting_on if isinstance(waiting_on, str) else waiting_on()
            raise WouldBlockError(f"would block outside a goroutine ({what})")
        if g.killed:
            raise GoroutineExit()
        g.state = state
        if isinstance(waiting_on, str):
            g.waiting_on = waiting_on
        else:
            g.wait_on_later(waiting_on)
        value = self._hub.switch()  # type: ignore[union-attr]
        if g.killed:
            raise GoroutineExit()
        return value

    def _wake(self, g: Goroutine, value: Any = None) -> None:
        if g.alive:
            g.state, g.waiting_on = "runnable", ""
            self._ready.append((g, value))

    def call_at(
        self, when: float, fire: Callable[[], None], owner: Goroutine | None = None
    ) -> _Timer:
        """Run ``fire()`` (from the hub, must not block) when the virtual clock reaches ``when``."""
        timer = _Timer(max(when, self.now), next(self._seq), fire, owner=owner)
        heapq.heappush(self._timers, timer)
        return timer

    def sleep(self, d: float) -> None:
        """Block the current goroutine for ``d`` virtual seconds (Go's ``time.Sleep``)."""
        g = self.current
        if g is None:
            raise WouldBlockError("time.Sleep outside a goroutine")
        until = self.now + max(d, 0.0)
        self.call_at(until, lambda: self._wake(g), owner=g)
        self._park("sleeping", lambda: f"sleep until t={until:g}")

    def yield_now(self) -> None:
        """Let every other ready goroutine run first (Go's ``runtime.Gosched``)."""
        g = self.current
        if g is None:
            return
        self._ready.append((g, None))
        self._park("runnable", "")

    # -- the hub and the driver ---------------------------------------------------------
    def _ensure_hub(self) -> greenlet.greenlet:
        if self._hub is None or self._hub.dead:
            self._hub = greenlet.greenlet(self._loop)
        return self._hub

    def _loop(self) -> None:
        switches = 0
        while True:
            if self._to_unwind:
                self._unwind_killed()
                continue
            if self._ready:
                g, value = self._ready.popleft()
                if not g.alive or g.glet is None:
                    continue
                self.current, g.state = g, "running"
                if g.glet:  # started: hand it the wake value
                    g.glet.switch(value)
                else:
                    g.glet.switch()
                self.current = None
                switches += 1
                if self._stop_when is not None and self._stop_when():
                    self._driver.switch(("stopped", None))  # type: ignore[union-attr]
                    switches = 0
                if self.max_switches is not None and switches > self.max_switches:
                    self._driver.switch(("limit", None))  # type: ignore[union-attr]
                    switches = 0
                continue
            while self._timers and (
                self._timers[0].cancelled
                or (self._timers[0].owner is not None and not self._timers[0].owner.alive)
            ):
                heapq.heappop(self._timers)
            if self._timers and (self._until is None or self._timers[0].when <= self._until):
                timer = heapq.heappop(self._timers)
                if timer.cancelled or (timer.owner is not None and not timer.owner.alive):
                    continue
                self.now = max(self.now, timer.when)
                timer.fire()
                continue
            self._driver.switch(("idle", None))  # type: ignore[union-attr]
            switches = 0

    def run(
        self, until: float | None = None, stop_when: Callable[[], bool] | None = None
    ) -> Any:
        """Drive the runtime until it is idle, virtual time ``until`` is reached, or a pause.

        ``stop_when`` is checked after every goroutine switch; when it returns True the run
        stops there. Returns the pause payload (a trace event) if a trace point paused, else
        ``None``.
        """
        if isinstance(greenlet.getcurrent(), _GoGreenlet):
            raise RuntimeError("Runtime.run() must be called from outside any goroutine")
        if self.closed:
            return None
        self._driver = greenlet.getcurrent()
        self.started = True
        self._until = until
        self._stop_when = stop_when
        hub = self._ensure_hub()
        hub.parent = self._driver
        # fewer collections while goroutines run, none of them walking what existed before the
        # run: a big world is millions of long-lived objects (sim/gc_policy.py)
        found = raise_young_threshold()
        frozen = freeze_for_run()
        try:
            if self._paused is not None:
                g, self._paused = self._paused, None
                self.current, g.state = g, "running"
                kind, payload = g.glet.switch()  # type: ignore[union-attr]
            else:
                kind, payload = hub.switch()
        finally:
            thaw(frozen)
            restore_threshold(found)
        if kind == "pause":
            return payload
        if kind == "idle" and until is not None and self.now < until:
            self.now = until
        return None

    def pause(self, payload: Any) -> bool:
        """Called by a trace point: hand control to the driver; resume here on the next run().

        Returns False (and does not pause) when called outside a goroutine of this runtime.
        """
        g = self.current
        if g is None or self._driver is None or greenlet.getcurrent() is not g.glet:
            return False
        self._paused = g
        g.state = "paused"
        self._driver.switch(("pause", payload))
        g.state = "running"
        self.current = g
        if g.killed:
            raise GoroutineExit()
        return True

    @property
    def paused(self) -> Goroutine | None:
        """The goroutine stopped at a trace point, if any."""
        return self._paused

    def changed(self, g: Goroutine) -> None:
        """``g`` started, or its state or waiting_on changed: bump :attr:`version` and note it in
        every goroutine log."""
        self.version += 1
        for log in self.goroutine_logs:
            log[g.gid] = g

    def close(self) -> None:
        """Unwind every goroutine still suspended and the hub; afterwards nothing runs
        (kschedlearn-only: ``sim/closing.py`` says why)."""
        from kschedlearn.sim.closing import close_runtime

        close_runtime(self)

    def run_fn(self, fn: Callable[..., Any], *args: Any, until: float | None = None) -> Any:
        """Run ``fn(*args)`` as a goroutine and drive the runtime until it returns.

        Handy in tests and exercises: blocking calls inside ``fn`` park the goroutine, not the
        caller. Raises the goroutine's exception, or ``WouldBlockError`` on deadlock.
        """
        box: dict[str, Any] = {}

        def wrapper() -> None:
            try:
                box["value"] = fn(*args)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the driver
                box["error"] = exc

        proc = self.new_process(f"run_fn:{getattr(fn, '__name__', 'fn')}")
        g = self.go(wrapper, name=getattr(fn, "__name__", "run_fn"), process=proc)
        while g.alive:
            paused = self.run(until=until, stop_when=lambda: not g.alive)
            if paused is None and g.alive:
                if until is not None:
                    break
                raise WouldBlockError(
                    f"deadlock: goroutine {g.name!r} is blocked on {g.waiting_on or 'nothing'}"
                    " and nothing else can run"
                )
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def next_timer(self) -> float | None:
        """When the earliest pending timer fires (None if there is none)."""
        live = [
            t.when
            for t in self._timers
            if not t.cancelled and (t.owner is None or t.owner.alive)
        ]
        return min(live) if live else None


def exit_process(code: int, stdout: str = "") -> None:
    """Go's ``fmt.Print`` of ``stdout`` then ``os.Exit(code)``, for the calling goroutine's
    process: the tracer (if any) records it, then every goroutine of the process ends — the
    calling one at once (``os.Exit`` never returns)."""
    g = current_goroutine()
    assert g is not None, "exit_process is called from a goroutine"
    rt = g.runtime
    if rt.tracer is not None:
        rt.tracer.on_exit(rt, g, code, stdout)
    rt.kill_process(g.process, f"exit status {code}")
    raise GoroutineExit()


def current_goroutine() -> Goroutine | None:
    """The goroutine running right now, or None when called from the driver."""
    glet = greenlet.getcurrent()
    return glet.goroutine if isinstance(glet, _GoGreenlet) else None

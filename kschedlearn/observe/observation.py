"""One simulation's observation: the hooks its trace points run, and what they found.

Go: none — kschedlearn-only (DESIGN principle 5). An :class:`Observation` is made per
simulated world (:func:`attach`) and hung on its runtime: process-wide probes
(:mod:`kschedlearn.observe.wrap`) ask the calling goroutine's runtime for it, so two simulations
in one kernel never see each other's trace points, and an object never observed pays nothing.

It also keeps, per simulated process, the handles the notebook needs on a running kube-scheduler
(:class:`ReplicaHandles`): the trace points that see ``createClient``, ``createScheduler`` and
the others return fill them in, so the mirrored ``app.Run`` carries no line for the notebook.
A kube-controller-manager's process gets :class:`ControllerManagerHandles` the same way
(:mod:`kschedlearn.observe.controllers`).
"""

from __future__ import annotations

from collections.abc import Callable
from types import CodeType, FrameType
from typing import Any, TypeVar

import attrs

from kschedlearn.observe.wrap import Around, Call, Hook, Hooks, global_probe, release_when_gone
from kschedlearn.sim.runtime import Process, Runtime, current_goroutine

H = TypeVar("H")

#: a hook at a glog line: ``hook(call)``, where ``call.args`` is ``(format, *values)`` and
#: ``call.caller`` the mirrored frame that logs
LogHook = Hook


@attrs.define(eq=False)
class ReplicaHandles:
    """What one kube-scheduler replica built, as its trace points saw it (for the notebook and
    the views): the options, clientset, informer factory, scheduler, ConfigFactory, HTTP
    endpoints, leader elector and stop channel."""

    s: Any = None
    kubecli: Any = None
    informer_factory: Any = None
    scheduler: Any = None
    config_factory: Any = None
    http: Any = None
    elector: Any = None
    stop: Any = None


@attrs.define(eq=False)
class ControllerManagerHandles:
    """What one kube-controller-manager built, as its trace points saw it: the options, the
    clientset, the shared informer factory, each controller its InitFunc made (by 1.6's
    controller name), the HTTP endpoints, the leader elector and the stop channel."""

    s: Any = None
    kube_client: Any = None
    informer_factory: Any = None
    controllers: dict[str, Any] = attrs.field(factory=dict)
    http: Any = None
    elector: Any = None
    stop: Any = None


@attrs.define(eq=False)
class Observation:
    """The trace points of one simulation (see the module docstring)."""

    runtime: Runtime
    #: process-wide probe -> the hooks this simulation runs around its calls
    hooks: dict[Any, Hooks] = attrs.field(factory=dict)
    #: calling function's code -> hooks at its glog lines (``(format, hook)`` pairs)
    log_hooks: dict[CodeType, list[tuple[str, LogHook]]] = attrs.field(factory=dict)
    #: simulated process -> its kube-scheduler's handles
    replicas: dict[Process, ReplicaHandles] = attrs.field(factory=dict)
    #: simulated process -> its kube-controller-manager's handles
    controller_managers: dict[Process, ControllerManagerHandles] = attrs.field(factory=dict)
    #: fast paths that ran in the mirror's place since the last trace point (the next event's
    #: ``observed.fast_paths``: the source pane says so)
    fast_paths_ran: list[str] = attrs.field(factory=list)
    _probes: list[Any] = attrs.field(factory=list, repr=False)
    _done: set[Any] = attrs.field(factory=set, repr=False)
    _finalizer: Any = attrs.field(default=None, repr=False)

    def first_time(self, key: Any) -> bool:
        """True the first time ``key`` is asked (a set of process-wide hooks is added once)."""
        if key in self._done:
            return False
        self._done.add(key)
        return True

    def on_attribute(self, owner: Any, name: str, *, before: Hook | None = None, after: Hook | None = None,
                     around: Around | None = None, site: CodeType | None = None) -> None:
        """Run hooks around calls of ``owner.name`` (a module's function or a class's method) that
        this simulation's goroutines make (from ``site`` only, if given)."""
        probe = global_probe(owner, name)
        hooks = self.hooks.get(probe)
        if hooks is None:
            hooks = self.hooks[probe] = Hooks()
            probe.users += 1
            self._probes.append(probe)
        hooks.add(site, before, after, around)

    def on_log(self, site: CodeType, fmt: str, hook: LogHook) -> None:
        """Run ``hook`` after the glog line of format ``fmt`` in the function ``site``."""
        self.log_hooks.setdefault(site, []).append((fmt, hook))

    def close(self) -> None:
        """Take this simulation's hooks off every process-wide probe now (a world that is
        replaced calls it); a probe no other observation uses gives its attribute back."""
        self.hooks.clear()
        self.log_hooks.clear()
        if self._finalizer is not None:
            self._finalizer()

    def after_log(self, fmt: str, args: tuple[Any, ...], caller: FrameType) -> None:
        """Called by the glog shim after each line: run the hooks at that line, if any."""
        found = self.log_hooks.get(caller.f_code)
        if not found:
            return
        for hook_fmt, hook in found:
            if hook_fmt == fmt:
                hook(Call(None, (fmt, *args), {}, caller))

    def handles(self, process: Process | None = None) -> ReplicaHandles:
        """The handles of ``process``'s kube-scheduler (default: the calling goroutine's)."""
        return _handles_of(self.replicas, ReplicaHandles, process, "handles()")

    def controller_manager(self, process: Process | None = None) -> ControllerManagerHandles:
        """The handles of ``process``'s kube-controller-manager (default: the calling goroutine's)."""
        return _handles_of(self.controller_managers, ControllerManagerHandles, process, "controller_manager()")


def _handles_of(table: dict[Process, H], make: Callable[[], H], process: Process | None, asked: str) -> H:
    """``table``'s entry for ``process`` (default: the calling goroutine's), made on first ask."""
    if process is None:
        g = current_goroutine()
        assert g is not None, f"{asked} without a process is asked from a goroutine"
        process = g.process
    found = table.get(process)
    if found is None:
        found = table[process] = make()
    return found


def attach(runtime: Runtime) -> Observation:
    """A new observation for ``runtime``'s simulation; its process-wide probes are released when
    it is garbage-collected."""
    observation = Observation(runtime)
    runtime.observation = observation
    observation._finalizer = release_when_gone(observation, observation._probes)
    return observation


def observation_of(runtime: Runtime | None) -> Observation | None:
    """The observation attached to ``runtime`` (None when it has none)."""
    return getattr(runtime, "observation", None) if runtime is not None else None


__all__ = ["ControllerManagerHandles", "LogHook", "Observation", "ReplicaHandles", "attach", "observation_of"]

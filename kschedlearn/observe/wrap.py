"""The observation layer's one wrapping mechanism: probes on the calls the Go code makes.

Go: none — kschedlearn-only (DESIGN principle 5: the mirrored code holds only Go-twin
statements; everything the notebook needs is attached from outside).

A *probe* watches one callable attribute and runs *hooks* around each call of it:

- **on one instance** (:func:`on_method`, :func:`on_field`): a machinery object of one
  simulation — its scheduler cache, a queue, a reflector. The probe is put in that instance's
  ``__dict__``, where it shadows the class's method for this instance alone, and at every call
  it looks the method up on the instance's class *then*: a method an exercise or a learner swaps
  onto the class afterwards is what runs, and what is observed. No other instance pays anything,
  and no object changes class.
- **on a module or a class** (:func:`on_attribute`): a function the mirrored code calls by name
  (``podFitsOnNode``, ``schedulercache.New``). The attribute is replaced process-wide, but the
  probe only calls through unless the calling goroutine's runtime carries an
  :class:`~kschedlearn.observe.observation.Observation` with hooks for it; the attribute is
  restored once no observation uses it any more.

A hook gets a :class:`Call`: the receiver, the arguments, the frame that made the call (a
mirrored frame: its ``f_locals`` are the values Go's statement has at hand) and, after the call,
the result. ``site`` restricts a probe to the calls made from one function (its code object): the
trace point stands at that call in that function, as the event's stack shows.
"""

from __future__ import annotations

import contextlib
import inspect
import sys
import weakref
from collections.abc import Callable, Iterator
from types import CodeType, FrameType
from typing import Any

import attrs

from kschedlearn.sim.runtime import current_goroutine


@attrs.define(eq=False)
class Call:
    """One observed call, as a hook sees it."""

    receiver: Any
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    caller: FrameType
    result: Any = None

    def local(self, name: str) -> Any:
        """A variable of the calling frame (a local, or a variable of an enclosing Go closure)."""
        return self.caller.f_locals[name]


Hook = Callable[[Call], None]
#: ``around(proceed, call)``: runs the call itself (``proceed(*args, **kwargs)``), e.g. with
#: recording twins of its arguments; returns the call's result
Around = Callable[[Callable[..., Any], Call], Any]


@attrs.define(eq=False)
class Hooks:
    """What runs around one probed call: ``before`` hooks, one ``around``, ``after`` hooks.
    Each is kept with its ``site`` (None: any caller)."""

    before: list[tuple[CodeType | None, Hook]] = attrs.field(factory=list)
    after: list[tuple[CodeType | None, Hook]] = attrs.field(factory=list)
    around: list[tuple[CodeType | None, Around]] = attrs.field(factory=list)
    #: id(calling code) -> (that code, its before, after and around hooks): chosen once per
    #: calling function, not at every call (an informer's first list calls the probed queue and
    #: cache methods once per object); emptied when a hook is added. Keyed by id, the entry
    #: holding the code: a code object's hash walks its bytecode and constants.
    _chosen: dict[int, tuple[CodeType, list[Hook], list[Hook], list[Around]]] = attrs.field(factory=dict)

    def add(self, site: CodeType | None, before: Hook | None, after: Hook | None, around: Around | None) -> None:
        if before is not None:
            self.before.append((site, before))
        if after is not None:
            self.after.append((site, after))
        if around is not None:
            self.around.append((site, around))
        self._chosen.clear()

    def _hooks_at(self, code: CodeType) -> tuple[CodeType, list[Hook], list[Hook], list[Around]]:
        chosen = (code, [h for s, h in self.before if s is None or s is code],
                  [h for s, h in self.after if s is None or s is code],
                  [h for s, h in self.around if s is None or s is code])
        self._chosen[id(code)] = chosen
        return chosen

    def run(self, call_through: Callable[..., Any], receiver: Any, args: tuple[Any, ...],
            kwargs: dict[str, Any], caller: FrameType) -> Any:
        """Call ``call_through`` with the hooks whose site is ``caller``'s function."""
        code = caller.f_code
        chosen = self._chosen.get(id(code))
        if chosen is None or chosen[0] is not code:
            chosen = self._hooks_at(code)
        _, before, after, around = chosen
        if not before and not after and not around:
            return call_through(*args, **kwargs)
        call = Call(receiver, args, kwargs, caller)
        for hook in before:
            hook(call)
        proceed = call_through
        for wrap in reversed(around):  # the first around hook is the outermost
            proceed = _nested(wrap, proceed, call)
        call.result = proceed(*args, **kwargs)
        for hook in after:
            hook(call)
        return call.result


def _nested(wrap: Around, proceed: Callable[..., Any], call: Call) -> Callable[..., Any]:
    """``proceed`` seen through the around hook ``wrap``."""

    def through(*args: Any, **kwargs: Any) -> Any:
        # (the call with these arguments: attrs.evolve(call, args=..., kwargs=...), built directly)
        return wrap(proceed, Call(call.receiver, args, kwargs, call.caller, call.result))

    return through


def site_of(fn: Callable[..., Any], *nested: str) -> CodeType:
    """The code object of ``fn`` — or of a function defined inside it, by name (``nested``:
    ``site_of(LeaderElector._acquire, "try_once")`` is the ``try_once`` closure)."""
    code: CodeType = inspect.unwrap(fn).__code__
    for name in nested:
        code = next(c for c in code.co_consts if isinstance(c, CodeType) and c.co_name == name)
    return code


# -- probes on one instance ------------------------------------------------------------------

@attrs.define(eq=False)
class _MethodProbe:
    """The callable put in an instance's ``__dict__`` (see the module docstring)."""

    owner: Any  # a weak reference would do; the instance holds the probe, a cycle the GC frees
    name: str
    hooks: Hooks = attrs.field(factory=Hooks)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        owner = self.owner
        method = getattr(type(owner), self.name).__get__(owner)  # looked up now: a swap is seen
        return self.hooks.run(method, owner, args, kwargs, sys._getframe(1))


@attrs.define(eq=False)
class _FieldProbe:
    """The callable put in place of a function-valued field (``config.next_pod``)."""

    owner: Any
    name: str
    original: Callable[..., Any]
    hooks: Hooks = attrs.field(factory=Hooks)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.hooks.run(self.original, self.owner, args, kwargs, sys._getframe(1))


def on_method(obj: Any, name: str, *, before: Hook | None = None, after: Hook | None = None,
              around: Around | None = None, site: CodeType | None = None) -> None:
    """Run hooks around calls of ``obj.name(...)`` (this instance only; see the module docstring)."""
    probe = obj.__dict__.get(name)
    if not isinstance(probe, _MethodProbe):
        getattr(type(obj), name)  # a typo is an AttributeError now, not at the first call
        probe = _MethodProbe(obj, name)
        obj.__dict__[name] = probe
    probe.hooks.add(site, before, after, around)


def on_field(obj: Any, name: str, *, before: Hook | None = None, after: Hook | None = None,
             around: Around | None = None, site: CodeType | None = None) -> None:
    """Run hooks around calls of the function held in the field ``obj.name``."""
    probe = getattr(obj, name)
    if not isinstance(probe, _FieldProbe):
        probe = _FieldProbe(obj, name, probe)
        setattr(obj, name, probe)
    probe.hooks.add(site, before, after, around)


def remove_probes(obj: Any) -> None:
    """Take every probe off ``obj`` (its class's methods and its fields' functions are back)."""
    for name, value in list(vars(obj).items()):
        if isinstance(value, _MethodProbe):
            del obj.__dict__[name]
        elif isinstance(value, _FieldProbe):
            setattr(obj, name, value.original)


def probed(obj: Any, name: str) -> bool:
    """Whether ``obj.name`` carries a probe."""
    return isinstance(vars(obj).get(name) if hasattr(obj, "__dict__") else None, (_MethodProbe, _FieldProbe))


# -- probes on a module or class attribute (process-wide, per-runtime hooks) ------------------

class _GlobalProbe:
    """A module's function (or a class's method) replaced by a probe that asks the calling
    goroutine's runtime for hooks. On a class it binds like the function it replaces
    (:meth:`__get__`), and the instance is the hooks' ``receiver``."""

    __slots__ = ("owner", "name", "original", "users", "__weakref__")

    def __init__(self, owner: Any, name: str, original: Callable[..., Any]) -> None:
        self.owner = owner
        self.name = name
        self.original = original
        self.users = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        g = current_goroutine()
        observation = g.runtime.observation if g is not None else None
        hooks = observation.hooks.get(self) if observation is not None else None
        if hooks is None:
            return self.original(*args, **kwargs)
        return hooks.run(self.original, args[0] if args else None, args, kwargs, sys._getframe(1))

    @property
    def __wrapped__(self) -> Callable[..., Any]:
        """The function it stands in front of (``inspect.unwrap`` finds it)."""
        return self.original

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        """On a class, behave like the function it replaces (bound to ``instance``)."""
        if instance is None:
            return self
        return _BoundProbe(self, instance)


@attrs.frozen
class _BoundProbe:
    """A class-attribute probe bound to one instance (what ``instance.method`` gives)."""

    probe: _GlobalProbe
    instance: Any

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        probe, instance = self.probe, self.instance
        g = current_goroutine()
        observation = g.runtime.observation if g is not None else None
        hooks = observation.hooks.get(probe) if observation is not None else None
        if hooks is None:
            return probe.original(instance, *args, **kwargs)
        return hooks.run(probe.original, instance, (instance, *args), kwargs, sys._getframe(1))


def global_probe(owner: Any, name: str) -> _GlobalProbe:
    """The process-wide probe on ``owner.name``, put in place if it is not there yet."""
    current = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name)
    if isinstance(current, _GlobalProbe):
        return current
    if current is None:
        raise AttributeError(f"{owner!r} has no attribute {name!r} to observe")
    probe = _GlobalProbe(owner, name, current)
    setattr(owner, name, probe)
    return probe


def is_probe(value: Any) -> bool:
    """Whether ``value`` is a process-wide probe standing in front of a function."""
    return isinstance(value, _GlobalProbe)


@contextlib.contextmanager
def behind_probe(probe: Any, replacement: Callable[..., Any]) -> Iterator[None]:
    """Run ``replacement`` instead of the function ``probe`` stands in front of, for a block:
    an exercise that swaps a probed function keeps its trace points (the probe looks the
    function up at call time, so the learner's code is what runs and what is observed)."""
    was = probe.original
    probe.original = replacement
    try:
        yield
    finally:
        probe.original = was


def release(probe: _GlobalProbe) -> None:
    """One observation less uses ``probe``; the last one puts the original back (unless somebody
    replaced the probe meanwhile — then it is theirs to restore)."""
    probe.users -= 1
    if probe.users > 0:
        return
    owner, name = probe.owner, probe.name
    current = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name, None)
    if current is probe:
        setattr(owner, name, probe.original)


def release_when_gone(holder: Any, probes: list[_GlobalProbe]) -> weakref.finalize:
    """Release ``probes`` when ``holder`` (an observation) is garbage-collected, or when the
    returned finalizer is called (at most once)."""
    return weakref.finalize(holder, _release_all, probes)


def _release_all(probes: list[_GlobalProbe]) -> None:
    for probe in probes:
        release(probe)


__all__ = ["Around", "Call", "Hook", "Hooks", "behind_probe", "global_probe", "is_probe", "on_field", "on_method",
           "probed", "release",
           "release_when_gone", "remove_probes", "site_of"]

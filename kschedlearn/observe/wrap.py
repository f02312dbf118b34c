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
import operator
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
    #: id(calling code) -> (that code, its before, after and around hooks): the filtering done
    #: once per calling function, not at every call (keyed by id: a code object's hash walks its
    #: bytecode); emptied when a hook is added
    _by_site: dict[int, tuple[CodeType, list[Hook], list[Hook], list[Around]]] = attrs.field(
        factory=dict, init=False, repr=False)

    def add(self, site: CodeType | None, before: Hook | None, after: Hook | None, around: Around | None) -> None:
        self._by_site.clear()
        if before is not None:
            self.before.append((site, before))
        if after is not None:
            self.after.append((site, after))
        if around is not None:
            self.around.append((site, around))

    def run(self, call_through: Callable[..., Any], receiver: Any, args: tuple[Any, ...],
            kwargs: dict[str, Any], caller: FrameType) -> Any:
        """Call ``call_through`` with the hooks whose site is ``caller``'s function."""
        code = caller.f_code
        known = self._by_site.get(id(code))
        if known is None or known[0] is not code:
            if len(self._by_site) > 64:
                self._by_site.clear()
            known = self._by_site[id(code)] = (
                code, [h for s, h in self.before if s is None or s is code],
                [h for s, h in self.after if s is None or s is code],
                [h for s, h in self.around if s is None or s is code])
        _, before, after, around = known
        if not before and not after:
            if not around:
                return call_through(*args, **kwargs)
            if len(around) == 1:  # (what follows, without the Call no before / after hook reads)
                return around[0](call_through, Call(receiver, args, {**kwargs}, caller))
        call = Call(receiver, args, kwargs, caller)
        for hook in before:
            hook(call)
        if around:
            proceed = call_through
            for wrap in reversed(around[1:]):  # the first around hook is the outermost
                proceed = _nested(wrap, proceed, call)
            # (the outermost is called here, with what _nested's closure would hand it)
            call.result = around[0](proceed, Call(receiver, args, {**kwargs}, caller, call.result))
        else:
            call.result = call_through(*args, **kwargs)
        for hook in after:
            hook(call)
        return call.result


def _nested(wrap: Around, proceed: Callable[..., Any], call: Call) -> Callable[..., Any]:
    """``proceed`` seen through the around hook ``wrap``."""

    def through(*args: Any, **kwargs: Any) -> Any:
        # (the call with these arguments: a new Call, as attrs.evolve would make, built directly)
        return wrap(proceed, Call(call.receiver, args, kwargs, call.caller, call.result))

    return through


def site_of(fn: Callable[..., Any], *nested: str) -> CodeType:
    """The code object of ``fn`` — or of a function defined inside it, by name (``nested``:
    ``site_of(LeaderElector._acquire, "try_once")`` is the ``try_once`` closure)."""
    code: CodeType = inspect.unwrap(fn).__code__
    for name in nested:
        code = next(c for c in code.co_consts if isinstance(c, CodeType) and c.co_name == name)
    return code


def closure_cells(fn: Callable[..., Any]) -> dict[str, Any]:
    """A closure's free variables by name (what a hook made by this layer holds)."""
    code = fn.__code__
    return dict(zip(code.co_freevars, (c.cell_contents for c in fn.__closure__ or ())))


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


def instance_hooks(obj: Any, name: str) -> Hooks | None:
    """The hooks of the probe :func:`on_method` / :func:`on_field` put on ``obj.name`` (None:
    no probe there)."""
    probe = vars(obj).get(name) if hasattr(obj, "__dict__") else None
    return probe.hooks if isinstance(probe, (_MethodProbe, _FieldProbe)) else None


def field_probe_parts(value: Any) -> tuple[Callable[..., Any], Hooks] | None:
    """(the function it stands in front of, its hooks) when ``value`` is a field probe
    (:func:`on_field`), else None."""
    return (value.original, value.hooks) if isinstance(value, _FieldProbe) else None


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


# -- is a class's method still the mirror's own? (fast paths and indexes stand for its statements)

def mirror_function(cls: type, name: str, module: str, qualname: str) -> bool:
    """Whether ``cls.name`` is the mirror's own function (behind a process-wide probe or not),
    not one an exercise swapped in."""
    # ``inspect.getattr_static(cls, name)`` for a class attribute: the first class of the MRO
    # whose own namespace holds the name (no descriptor is run). Asked for 17 methods before
    # every pod's refresh, getattr_static's own checks were 13 % of the engine's time at 100 nodes.
    fn = next((klass.__dict__[name] for klass in cls.__mro__ if name in klass.__dict__), None)
    if is_probe(fn):
        fn = fn.original
    return getattr(fn, "__module__", None) == module and getattr(fn, "__qualname__", "") == qualname


@attrs.define(eq=False)
class MirrorMethods:
    """Whether a class's methods ``names`` are all the mirror's own functions (:func:`mirror_function`),
    asked before every pod or snapshot: the answer is remembered for a class without a base of
    its own and checked again only when one of the methods, or the function behind one of its
    probes (:func:`behind_probe`), is another object than when it last passed — a comparison by
    identity at C speed."""

    names: tuple[str, ...]
    module: str
    #: the qualname's class part (None: the asking class's own name)
    class_name: str | None = None
    #: per class: (the methods in its namespace, the probes among them, the function each ran)
    _verified: dict[type, tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]] = attrs.field(
        factory=dict, init=False, repr=False)
    _held: Callable[[Any], tuple[Any, ...]] = attrs.field(init=False, repr=False)

    @_held.default
    def _held_default(self) -> Callable[[Any], tuple[Any, ...]]:
        getter = operator.itemgetter(*self.names)
        return getter if len(self.names) > 1 else (lambda namespace: (getter(namespace),))

    def check(self, cls: type) -> tuple[bool, bool]:
        """(all the mirror's, the answer was worked out anew rather than remembered)."""
        try:
            held = self._held(cls.__dict__)
        except KeyError:  # a method not defined by the class itself
            held = None
        own = held is not None and cls.__bases__ == (object,)
        verified = self._verified.get(cls)
        if (own and verified is not None and all(map(operator.is_, held, verified[0]))
                and all(map(operator.is_, map(_ORIGINAL_OF, verified[1]), verified[2]))):
            return True, False
        name = self.class_name or cls.__name__
        ok = all(mirror_function(cls, n, self.module, f"{name}.{n}") for n in self.names)
        if ok and own:
            probes = tuple(fn for fn in held if is_probe(fn))
            self._verified[cls] = (held, probes, tuple(map(_ORIGINAL_OF, probes)))
        else:
            self._verified.pop(cls, None)
        return ok, True


_ORIGINAL_OF = operator.attrgetter("original")


__all__ = ["Around", "Call", "Hook", "Hooks", "MirrorMethods", "behind_probe", "field_probe_parts", "global_probe",
           "instance_hooks", "is_probe",
           "mirror_function", "on_field", "on_method", "probed", "release", "release_when_gone", "remove_probes",
           "site_of"]

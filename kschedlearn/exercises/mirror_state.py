"""The mirror's module globals and classes before a plug-in, restored after it.

Go: none (kschedlearn-only, DESIGN §10). A plug-in that runs in the notebook's own process (a
live ``plug_in(task, fn, sim)``, or any run where ``os.fork`` is missing) swaps the learner's
function into the mirror and swaps it back; the learner's code itself may change more - assign
a module's function (``predicates.pod_fits_resources = ...``), a class's method, a module-level
table, or register a plugin in the default registry. ``MirrorState.take()`` records, for every
loaded module of the mirrored packages, its globals, the contents of its module-level dicts,
lists and sets, the attributes of the classes it defines, and the default plugin registry's
tables; ``restore()`` puts back whatever differs and names it, so nothing a plug-in changed
stays changed in the kernel. The contents of private module-level tables (``_name``) are
restored but not named: they are caches the run fills itself (a compiled selector's memo).
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

import attrs

#: the packages of the Go mirror (DESIGN §3)
MIRRORED = ("kschedlearn.api", "kschedlearn.apimachinery", "kschedlearn.apis", "kschedlearn.client_go",
            "kschedlearn.client", "kschedlearn.scheduler", "kschedlearn.cmd", "kschedlearn.controller",
            "kschedlearn.features")
_CONTAINERS = (dict, list, set)
_SKIP_CLASS_ATTRS = frozenset({"__dict__", "__weakref__", "__doc__", "_abc_impl", "__abstractmethods__",
                               "__parameters__", "__annotations__"})


def _mirrored_modules() -> list[tuple[str, ModuleType]]:
    return [(name, module) for name, module in list(sys.modules.items())
            if module is not None and name.startswith(MIRRORED)
            and (name in MIRRORED or name.startswith(tuple(p + "." for p in MIRRORED)))]


def _registry() -> Any:
    plugins = sys.modules.get("kschedlearn.scheduler.factory.plugins")
    return plugins.default_registry() if plugins is not None else None


@attrs.frozen
class MirrorState:
    """A record of the mirror's module-level state (see the module docstring)."""

    globals: dict[str, dict[str, Any]]
    containers: dict[tuple[str, str], tuple[Any, Any]]  # (module, name) -> (the object, a copy)
    classes: dict[str, tuple[type, dict[str, Any]]]
    registry: tuple[Any, dict[str, dict[str, Any]]]

    @classmethod
    def take(cls) -> MirrorState:
        registry = _registry()  # created now if it was not yet: not a change made by the plug-in
        glob: dict[str, dict[str, Any]] = {}
        containers: dict[tuple[str, str], tuple[Any, Any]] = {}
        classes: dict[str, tuple[type, dict[str, Any]]] = {}
        copies: dict[int, Any] = {}  # id -> its copy: one per table (every module holds __builtins__)
        for name, module in _mirrored_modules():
            values = dict(vars(module))
            glob[name] = values
            for key, value in values.items():
                if type(value) in _CONTAINERS:
                    copy = copies.get(id(value))
                    if copy is None:
                        copy = copies[id(value)] = value.copy()
                    containers[(name, key)] = (value, copy)
                elif isinstance(value, type) and getattr(value, "__module__", None) == name:
                    classes[f"{name}.{value.__qualname__}"] = (value, dict(vars(value)))
        tables = {}
        if registry is not None:
            tables = {f.name: dict(getattr(registry, f.name)) for f in attrs.fields(type(registry))
                      if isinstance(getattr(registry, f.name), dict)}
        return cls(glob, containers, classes, (registry, tables))

    def changes(self) -> tuple[str, ...]:
        """The names that differ now, without restoring anything (see :meth:`restore`)."""
        return self._walk(restore=False, keep=frozenset())

    def restore(self, keep: Iterable[str] = ()) -> tuple[str, ...]:
        """Put back what differs, except the names in ``keep`` (what the run does by itself, as
        measured in the reference rehearsal: a trace point installed once, say); the names of
        what was put back that are the learner's to know (``module.name``, ``Class.attr``)."""
        return self._walk(restore=True, keep=frozenset(keep))

    def _walk(self, *, restore: bool, keep: frozenset[str]) -> tuple[str, ...]:
        changed: list[str] = []
        for name, before in self.globals.items():
            module = sys.modules.get(name)
            if module is None:
                continue
            now = vars(module)
            if _same_entries(before, now):
                continue  # (the loop below would find nothing: the common case, checked in C)
            for key in set(before) | set(now):
                if key in before and key in now and before[key] is now[key]:
                    continue
                if isinstance(now.get(key), ModuleType) and key not in before:
                    continue  # a submodule imported meanwhile: the import system's doing
                label = f"{name}.{key}"
                if label in keep:
                    continue
                changed.append(label)
                if not restore:
                    continue
                if key in before:
                    now[key] = before[key]
                else:
                    del now[key]
        differs: dict[int, bool] = {}  # id -> whether it differs now (a table held by many modules)
        for (module, key), (obj, copy) in self.containers.items():
            label = f"{module}.{key} (its contents)"
            found = differs.get(id(obj))
            if found is None:
                found = differs[id(obj)] = _differs(obj, copy)
            if not found or label in keep:
                continue
            if not key.startswith("_"):  # a private table is a cache the run fills itself
                changed.append(label)
            if restore:
                obj.clear()
                if isinstance(obj, list):
                    obj.extend(copy)
                else:
                    obj.update(copy)
                differs[id(obj)] = False  # put back: its other holders find it as it was
        for qualname, (klass, before) in self.classes.items():
            if _same_entries(before, vars(klass)):
                continue
            now = dict(vars(klass))
            for key in (set(before) | set(now)) - _SKIP_CLASS_ATTRS:
                label = f"{qualname}.{key}"
                if (key in before and key in now and before[key] is now[key]) or label in keep:
                    continue
                changed.append(label)
                if not restore:
                    continue
                if key in before:
                    setattr(klass, key, before[key])
                else:
                    delattr(klass, key)
        registry, tables = self.registry
        for field, before in tables.items():
            now = getattr(registry, field)
            label = f"the default plugin registry's {field}"
            if not _differs(now, before) or label in keep:
                continue
            changed.append(label)
            if restore:
                now.clear()
                now.update(before)
        return tuple(sorted(changed))


def _same_entries(before: Mapping[str, Any], now: Mapping[str, Any]) -> bool:
    """Whether ``now`` has ``before``'s keys in the same order, each bound to the same object
    (then a key-by-key walk of the two finds no difference)."""
    return (len(before) == len(now) and list(before) == list(now)
            and all(map(operator.is_, before.values(), now.values())))


def _differs(obj: Any, copy: Any) -> bool:
    """Whether a module-level table's contents differ from its copy (by identity, in C)."""
    if isinstance(obj, dict):
        return obj.keys() != copy.keys() or any(map(operator.is_not, obj.values(), map(copy.__getitem__, obj)))
    if isinstance(obj, list):
        return len(obj) != len(copy) or any(map(operator.is_not, obj, copy))
    return obj != copy


def restored_note(changed: tuple[str, ...]) -> str:
    """The report's sentence for what the learner's code changed (empty when nothing)."""
    if not changed:
        return ""
    shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
    return (f"Your code changed {len(changed)} module-level name{'s' if len(changed) != 1 else ''} of the "
            f"mirror while it ran ({shown}); {'they were' if len(changed) != 1 else 'it was'} restored "
            "after the run.")


__all__ = ["MIRRORED", "MirrorState", "restored_note"]

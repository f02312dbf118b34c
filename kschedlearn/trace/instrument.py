"""Observe mirrored objects from outside: wrap one instance's methods to emit trace events.

Go: none — kschedlearn-only (DESIGN principle 5: mirrored code carries no notebook lines).
``wrap_instance(obj, {"assume_pod": make_wrapper, ...})`` swaps ``obj``'s class for a generated
subclass whose listed methods are ``make_wrapper(original_function)``. Everyone already holding
``obj`` sees the change; other instances are untouched; an object never wrapped pays nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

WrapperFactory = Callable[[Callable[..., Any]], Callable[..., Any]]


def wrap_instance(obj: Any, wrappers: dict[str, WrapperFactory], tag: str) -> Any:
    """Wrap methods of this one instance (idempotent per ``tag``); returns ``obj``."""
    base = type(obj)
    if tag in getattr(base, "_kschedlearn_tags", ()):
        return obj
    namespace: dict[str, Any] = {"_kschedlearn_tags": (*getattr(base, "_kschedlearn_tags", ()), tag)}
    if hasattr(base, "__slots__"):
        namespace["__slots__"] = ()
    for name, factory in wrappers.items():
        namespace[name] = factory(getattr(base, name))
    obj.__class__ = type(f"Traced{base.__name__}", (base,), namespace)
    return obj


def untraced_class(obj: Any) -> type:
    """The class ``obj`` had before its first ``wrap_instance``."""
    cls = type(obj)
    while getattr(cls, "_kschedlearn_tags", ()):
        cls = cls.__mro__[1]
    return cls


def call_untraced(obj: Any, name: str, *args: Any) -> Any:
    """Call ``obj``'s own method ``name`` (looked up now on its untraced class, so a method
    swapped on that class after wrapping — an exercise's plug-in — is the one that runs)."""
    return getattr(untraced_class(obj), name)(obj, *args)


def unwrap_instance(obj: Any) -> Any:
    """Restore the class an object had before its first ``wrap_instance``."""
    obj.__class__ = untraced_class(obj)
    return obj

"""Go's ``sort.Sort`` for a ``Less`` written over two elements.

Go: none — kschedlearn-only (stands for the standard library's ``sort.Sort`` / ``sort.Reverse``,
https://pkg.go.dev/sort): the mirrored sort types (``ActivePods``, ``ReplicaSetsByCreationTimestamp``,
...) are written as ``less(a, b)`` functions and sorted with :func:`sort_by_less`.

Differs from Go: the sort is stable (Python's); Go 1.7's ``sort.Sort`` is an insertion sort for
up to 12 elements (stable too) and a quicksort beyond, where elements that compare equal may end
up in any order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def sort_by_less(items: list[T], less: Callable[[T, T], bool]) -> None:
    """Sort ``items`` in place, ascending by ``less``."""
    items.sort(key=functools.cmp_to_key(lambda a, b: -1 if less(a, b) else (1 if less(b, a) else 0)))


def reverse(less: Callable[[T, T], bool]) -> Callable[[T, T], bool]:
    """Go: ``sort.Reverse`` — the opposite order."""
    return lambda a, b: less(b, a)


__all__ = ["reverse", "sort_by_less"]

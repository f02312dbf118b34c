"""A fast path for equality-only label selectors, installed beside the mirror.

Go: none — kschedlearn-only (issue 13, item 1: "a fast path for equality-only label
selectors"). The mirror, ``selector.InternalSelector.matches``, asks every ``Requirement`` in
turn (Go's ``internalSelector.Matches`` calling ``Requirement.Matches``,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/labels/selector.go);
its text is untouched. SelectorSpreadPriority matches every pod of every candidate node against
the pod's Service and controller selectors — 30,000 matches per scheduled pod at 1,000 nodes /
30,000 pods — and there the generic path (a generator, ``all``, one method call per
requirement, an operator dispatch) costs several times the check itself.

What this module does: :func:`install` (called through ``kschedlearn.accelerated.fast_paths``
by the simulations and benchmarks that want it, never at import) replaces ``InternalSelector.matches`` from outside (as
the trace instruments wrap mirrored methods) by :func:`fast_matches`. For a selector whose every
requirement is ``in`` / ``=`` / ``==`` (the selectors of Services, RCs and most RSs) it checks
the labels against ``(key, values)`` pairs computed once per selector; for any other selector it
calls the mirror. The answer is the mirror's by construction — the same two tests Go's
``Requirement.Matches`` makes for these operators (key present, value in the set) — and proved
by ``tests/apimachinery/test_fast_selector.py`` (a Hypothesis property against the
mirror on random labels and selectors).

Standing down: while ``Requirement.matches`` is not the mirror's own function (exercise 2.1's
plug-in swaps the learner's code in, ``exercises/tasks/t02_1_requirement_matches.py``), every
call goes to the mirror, so the learner's ``matches`` is asked requirement by requirement as Go
would. :func:`uninstall` (or ``with mirror_only():``) puts the mirror back entirely.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from kschedlearn.apimachinery import selection
from kschedlearn.apimachinery.labels.selector import InternalSelector, Requirement

#: the mirrored functions, as the selector module defines them
MIRROR_SELECTOR_MATCHES = InternalSelector.matches
MIRROR_REQUIREMENT_MATCHES = Requirement.matches

_POSITIVE = frozenset((selection.IN, selection.EQUALS, selection.DOUBLE_EQUALS))

Terms = tuple[tuple[str, tuple[str, ...]], ...]

#: id(selector) -> (selector, its terms or None). The entry holds the selector, so its id cannot
#: be reused while the entry lives; cleared when full (selectors are built per scheduling cycle).
_compiled: dict[int, tuple[InternalSelector, Terms | None]] = {}
_COMPILED_LIMIT = 4096


def equality_terms(selector: InternalSelector) -> Terms | None:
    """``(key, values)`` per requirement when every operator is ``in``/``=``/``==``, else None.

    kschedlearn-only: the values tuple is the requirement's own (sorted) one, so membership is
    tested exactly as ``Requirement._has_value`` tests it.
    """
    reqs, _ = selector.requirements()
    terms = []
    for r in reqs:
        if r.operator() not in _POSITIVE:
            return None
        terms.append((r.key(), r._str_values))  # noqa: SLF001 - the value tuple _has_value reads
    return tuple(terms)


def _terms_of(selector: InternalSelector) -> Terms | None:
    if len(_compiled) >= _COMPILED_LIMIT:
        _compiled.clear()
    terms = equality_terms(selector)
    _compiled[id(selector)] = (selector, terms)
    return terms


def fast_matches(self: InternalSelector, labels: Mapping[str, str]) -> bool:
    """``InternalSelector.matches`` with the equality-only fast path (kschedlearn-only).

    Same verdict as the mirror: for ``in``/``=``/``==`` Go's ``Requirement.Matches`` is "the
    key is present and its value is one of the values"; all requirements must hold.
    """
    if Requirement.matches is not MIRROR_REQUIREMENT_MATCHES:
        # a learner's Requirement.matches is plugged in: ask it, requirement by requirement
        return MIRROR_SELECTOR_MATCHES(self, labels)
    entry = _compiled.get(id(self))
    terms = entry[1] if entry is not None and entry[0] is self else _terms_of(self)
    if terms is None:
        return MIRROR_SELECTOR_MATCHES(self, labels)
    for key, values in terms:
        if key not in labels or labels[key] not in values:
            return False
    return True


def install() -> None:
    """Route ``InternalSelector.matches`` through :func:`fast_matches` (kschedlearn-only)."""
    InternalSelector.matches = fast_matches  # type: ignore[method-assign]


def uninstall() -> None:
    """Put the mirror's ``InternalSelector.matches`` back (kschedlearn-only)."""
    InternalSelector.matches = MIRROR_SELECTOR_MATCHES  # type: ignore[method-assign]
    _compiled.clear()


def installed() -> bool:
    """Whether the fast path is in place (kschedlearn-only)."""
    return InternalSelector.matches is fast_matches


@contextmanager
def mirror_only() -> Iterator[None]:
    """Run a block on the mirror's ``matches`` alone, then restore what was there (kschedlearn-only)."""
    was = InternalSelector.matches
    uninstall()
    try:
        yield
    finally:
        InternalSelector.matches = was  # type: ignore[method-assign]

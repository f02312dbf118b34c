"""The mirror's two fast paths, put in place for as long as a simulation (or benchmark) wants them.

Go: none — kschedlearn-only. ``fast_selector`` (equality-only label selectors) and
``fast_spread`` (SelectorSpreadPriority's walk over every pod) replace one mirrored method each,
process-wide, with code that gives the mirror's answers (Hypothesis properties in the tests) and
stands down when a learner's code is plugged into a slot it relies on. Nothing installs them at
import: a simulated world (and the benchmarks) take a :class:`Lease`; the first lease puts them
in place, the last one released — or garbage-collected with its world — puts the mirror back.
"""

from __future__ import annotations

import weakref

import attrs

from kschedlearn.accelerated import fast_selector, fast_spread

#: leases alive now
_leases = 0


@attrs.define(eq=False)
class Lease:
    """One holder's claim on the fast paths; :meth:`release` (or garbage collection) ends it."""

    _finalizer: weakref.finalize | None = attrs.field(default=None, init=False, repr=False)

    def release(self) -> None:
        """End this claim now (idempotent)."""
        if self._finalizer is not None:
            self._finalizer()


def acquire() -> Lease:
    """Make sure the fast paths are in place while the returned lease lives."""
    global _leases
    if _leases == 0:
        fast_selector.install()
        fast_spread.install()
    _leases += 1
    lease = Lease()
    lease._finalizer = weakref.finalize(lease, _release_one)
    return lease


def _release_one() -> None:
    global _leases
    _leases -= 1
    if _leases == 0:
        fast_spread.uninstall()
        fast_selector.uninstall()


def in_place() -> bool:
    """Whether the fast paths are installed now."""
    return fast_selector.installed() and fast_spread.installed()


__all__ = ["Lease", "acquire", "in_place"]

"""A test file's fixture: what the worker holds when the file starts is frozen while it runs.

kschedlearn-only test support (issue 25). Late in ``make test`` a worker holds millions of
objects that earlier files left (module-scoped worlds, caches, imported modules); each full
collection in a later file walked them all, and an explicit ``gc.collect()`` (the scale harness
collects before it times) walked them every time: ``test_scale.py`` took 0.6 CPU-s alone and
13.5 in the suite. :func:`kschedlearn.sim.gc_policy.frozen_before` keeps that heap out of every
collection until the file ends. Collections only free unreachable objects; no test depends on
when (``tests/sim/test_gc_policy.py``, ``tests/sim/test_frozen_heap.py``).

For files that call ``gc.collect()`` (or whose code under test does) outside a runtime's run.
While a world runs, ``Runtime.run`` freezes the heap itself (``gc_policy.freeze_for_run``), and
inside this block it steps aside, so a file of many runs gains nothing and its runs' collections
walk what the file made (``test_e2e_properties.py`` and ``test_first_list_snapshots.py`` with a
10-million-object heap: no gain measured, suite7a in ``benchmarks/README.md``).

Use: ``from tests.frozen_heap import frozen_heap  # noqa: F401 - autouse`` in a test module.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kschedlearn.sim.gc_policy import frozen_before


@pytest.fixture(scope="module", autouse=True)
def frozen_heap() -> Iterator[None]:
    """The worker's heap as the module starts stays frozen until its last test ends."""
    with frozen_before():
        yield

"""kschedlearn: run the Kubernetes v1.6.1 scheduler step by step, and see how it works.

``from kschedlearn import Simulation`` is the notebook entry point (see DESIGN §7). The
mirrored Go packages live under ``kschedlearn.api``, ``kschedlearn.client_go``,
``kschedlearn.scheduler``, ``kschedlearn.cmd`` and ``kschedlearn.client``; the runtime they run
on under ``kschedlearn.sim``; drawing under ``kschedlearn.viz``.

Importing it installs nothing into the mirrored code: the observation layer
(``kschedlearn.observe``) and the fast paths beside the mirror (``kschedlearn.accelerated``)
are attached by each simulated world that wants them. The notebook side is wired together
lazily, so that importing a mirrored package (``import kschedlearn.scheduler``) never loads the
simulation world (``kschedlearn.simulation``, ``widgets``, ``viz``):

- ``Simulation`` is imported from ``kschedlearn.simulation`` the first time it is asked for
  (a module ``__getattr__``, PEP 562 — the one allowed in the package, see
  ``tests/test_conformance.py``);
- :func:`open_explorer` builds the ipywidgets explorer for ``Simulation.explorer()``, so that
  ``kschedlearn.simulation`` does not import ``kschedlearn.widgets`` (which imports it).
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

__all__ = ["Simulation", "__version__", "course", "open_explorer", "progress"]


def __getattr__(name: str) -> Any:
    """``kschedlearn.Simulation``, imported on first use (PEP 562)."""
    if name == "Simulation":
        from kschedlearn.simulation import Simulation

        globals()["Simulation"] = Simulation  # found directly from now on
        return Simulation
    raise AttributeError(f"module 'kschedlearn' has no attribute {name!r}")


def open_explorer(simulation: Any) -> Any:
    """The interactive explorer widget over ``simulation``, displayed (``Simulation.explorer()``)."""
    from kschedlearn.widgets.explorer import Explorer

    return Explorer(simulation).display()


def course() -> Any:
    """The course map: the notebooks in order, their measured time, and your progress."""
    from kschedlearn.curriculum.report import course as course_map

    return course_map()


def progress() -> Any:
    """What you passed (objectives, predictions, checks, exercises, mastery); ``.reset()`` starts over."""
    from kschedlearn.curriculum.report import progress as read_progress

    return read_progress()

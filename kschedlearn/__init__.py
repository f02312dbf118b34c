"""kschedlearn: run the Kubernetes v1.6.1 scheduler step by step, and see how it works.

``from kschedlearn import Simulation`` is the notebook entry point (see DESIGN §7). The
mirrored Go packages live under ``kschedlearn.api``, ``kschedlearn.client_go``,
``kschedlearn.scheduler``, ``kschedlearn.cmd`` and ``kschedlearn.client``; the runtime they run
on under ``kschedlearn.sim``; drawing under ``kschedlearn.viz``.
"""

__version__ = "0.1.0"


from kschedlearn.simulation import Simulation  # noqa: E402  (after __version__: import order)

__all__ = ["Simulation", "__version__"]

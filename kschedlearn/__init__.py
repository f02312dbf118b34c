"""kschedlearn: run the Kubernetes v1.6.1 scheduler step by step, and see how it works.

``from kschedlearn import Simulation`` is the notebook entry point (see DESIGN §7). The
mirrored Go packages live under ``kschedlearn.api``, ``kschedlearn.client_go``,
``kschedlearn.scheduler``, ``kschedlearn.cmd`` and ``kschedlearn.client``; the runtime they run
on under ``kschedlearn.sim``; drawing under ``kschedlearn.viz``.
"""

__version__ = "0.1.0"


from kschedlearn.simulation import Simulation  # noqa: E402  (after __version__: import order)
from kschedlearn.apimachinery.labels import fast_selector as _fast_selector  # noqa: E402

# The equality-only selector fast path lives beside the mirror and is put in place from here,
# outside the mirrored packages; it stands down while exercise 2.1 plugs in a learner's
# Requirement.matches (kschedlearn/apimachinery/labels/fast_selector.py).
_fast_selector.install()

__all__ = ["Simulation", "__version__"]

"""The observation layer: every trace point, debug view and recorder of the notebook, outside the mirror.

Go: none — kschedlearn-only (DESIGN principle 5). The mirrored packages hold only Go-twin
statements; what the notebook shows of them is attached from here, per simulation, at calls
the Go code itself makes (:mod:`~kschedlearn.observe.wrap`, the one wrapping mechanism), and
read from their fields (:mod:`~kschedlearn.observe.views`). Nothing here is installed by
``import kschedlearn``: a simulated world attaches an :class:`Observation` to its runtime.
"""

from kschedlearn.observe.observation import Observation, ReplicaHandles, attach, observation_of

__all__ = ["Observation", "ReplicaHandles", "attach", "observation_of"]

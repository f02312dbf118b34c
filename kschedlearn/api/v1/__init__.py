"""Kubernetes core API objects (``pkg/api/v1``) as frozen attrs values, with manifest codec.

Go: ``pkg/api/v1`` (types.go, helpers.go, resource_helpers.go),
https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/api/v1

Everything is re-exported here: ``from kschedlearn.api.v1 import Pod, Node, load_manifests``.
Build objects with keyword arguments (``Pod(metadata=ObjectMeta(name="web-1"))``),
change copies with ``attrs.evolve``, and convert with ``Pod.from_dict(d)`` /
``pod.to_dict()`` (manifest form, see :mod:`kschedlearn.api.v1.codec` for the rules).

Differs from Go: the package is split into several modules (meta, pod, node,
others) instead of one types.go; ReplicaSet (extensions/v1beta1) and StatefulSet
(apps/v1beta1) live here too, since the scheduler only needs a few of their fields.
"""

from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1.codec import *  # noqa: F403
from kschedlearn.api.v1.helpers import *  # noqa: F403
from kschedlearn.api.v1.meta import *  # noqa: F403
from kschedlearn.api.v1.node import *  # noqa: F403
from kschedlearn.api.v1.others import *  # noqa: F403
from kschedlearn.api.v1.pod import *  # noqa: F403
from kschedlearn.api.v1.resource_helpers import *  # noqa: F403
from kschedlearn.api.v1.yaml_load import *  # noqa: F403
from kschedlearn.api.v1 import codec, helpers, meta, node, others, pod, resource_helpers, yaml_load

__all__ = [
    "ManifestError",
    *codec.__all__,
    *helpers.__all__,
    *meta.__all__,
    *node.__all__,
    *others.__all__,
    *pod.__all__,
    *resource_helpers.__all__,
    *yaml_load.__all__,
]

"""Which affinity a pod has: ``spec.affinity``, optionally merged with the alpha annotation.

Go: plugin/pkg/scheduler/schedulercache/reconcile_affinity.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/reconcile_affinity.go#L25-L53

In 1.6 affinity moved from the annotation ``scheduler.alpha.kubernetes.io/affinity`` into
``pod.spec.affinity``. The annotation is still honoured, but only when the alpha feature gate
``AffinityInAnnotations`` is on -- it is off by default, so normally the spec field is the answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from kschedlearn.api import v1
from kschedlearn.features import AFFINITY_IN_ANNOTATIONS, default_feature_gate

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Affinity, Pod


def reconcile_affinity(pod: Pod, *, affinity_in_annotations: bool | None = None) -> Affinity | None:
    """Return the pod's effective affinity.

    With the gate on, the annotation supplies the whole affinity when the spec has none, and
    otherwise fills each of node / pod / pod-anti affinity that the spec leaves empty.

    Go: func ReconcileAffinity(pod *v1.Pod) *v1.Affinity
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/reconcile_affinity.go#L25-L53
    The gate is read where Go reads ``utilfeature.DefaultFeatureGate``: the gate of the running
    simulated process (``kschedlearn.features``). Differs from Go: ``affinity_in_annotations``
    overrides the gate when given (tests); Go writes the merged parts into the pod's own
    Affinity struct, Python returns a merged copy (API objects are frozen).
    """
    affinity = pod.spec.affinity
    if affinity_in_annotations is None:
        affinity_in_annotations = default_feature_gate().enabled(AFFINITY_IN_ANNOTATIONS)
    if affinity_in_annotations:
        annotations_affinity = _get_affinity_from_pod_annotations(pod.metadata.annotations)
        if affinity is None and annotations_affinity is not None:
            affinity = annotations_affinity
        elif annotations_affinity is not None and affinity is not None:
            affinity = _fill_missing(affinity, annotations_affinity)
    return affinity


def _fill_missing(affinity: Affinity, extra: Affinity) -> Affinity:
    """Take each of the three affinity kinds from ``extra`` where ``affinity`` has none."""
    changes = {}
    for field in ("node_affinity", "pod_affinity", "pod_anti_affinity"):
        if getattr(affinity, field) is None and getattr(extra, field) is not None:
            changes[field] = getattr(extra, field)
    return attrs.evolve(affinity, **changes) if changes else affinity


def _get_affinity_from_pod_annotations(annotations: dict[str, str]) -> Affinity | None:
    """Decode the alpha affinity annotation; a bad value counts as none (Go drops the error).

    Go: ``annotationsAffinity, _ := v1.GetAffinityFromPodAnnotations(pod.Annotations)``
    """
    try:
        return v1.get_affinity_from_pod_annotations(annotations)
    except ValueError:  # ManifestError is a ValueError
        return None

"""The feature gates of 1.6 the scheduler knows: names, defaults, maturity.

Go: pkg/features/kube_features.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/features/kube_features.go

Differs from Go: 1.6 knows more gates (kubelet and API server ones the scheduler never reads);
only these are listed, so ``--feature-gates=AppArmor=true`` is refused here.
"""

from __future__ import annotations

from kschedlearn.features.feature_gate import FeatureSpec

#: Go: features.AffinityInAnnotations — read by ReconcileAffinity and Topologies.
AFFINITY_IN_ANNOTATIONS = "AffinityInAnnotations"
#: Go: features.Accelerators — registered; no scheduler code of 1.6 reads it.
ACCELERATORS = "Accelerators"
#: Go: utilfeature.allAlphaGate — setting it sets every alpha gate not set explicitly.
ALL_ALPHA = "AllAlpha"

#: Go: defaultKubernetesFeatureGates plus the AllAlpha switch of feature_gate.go.
KNOWN_FEATURES: dict[str, FeatureSpec] = {
    ALL_ALPHA: FeatureSpec(False, "ALPHA"),
    ACCELERATORS: FeatureSpec(False, "ALPHA"),
    AFFINITY_IN_ANNOTATIONS: FeatureSpec(False, "ALPHA"),
}

"""Feature gates: the 1.6 gate names and the gate object each simulated process owns.

Go: pkg/features (kube_features.go) and k8s.io/apiserver/pkg/util/feature (feature_gate.go)
https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/features
"""

from kschedlearn.features.feature_gate import (
    FeatureGate,
    FeatureSpec,
    default_feature_gate,
    host_feature_gate,
)
from kschedlearn.features.kube_features import (
    ACCELERATORS,
    AFFINITY_IN_ANNOTATIONS,
    ALL_ALPHA,
    KNOWN_FEATURES,
)

__all__ = [
    "ACCELERATORS", "AFFINITY_IN_ANNOTATIONS", "ALL_ALPHA", "FeatureGate", "FeatureSpec",
    "KNOWN_FEATURES", "default_feature_gate", "host_feature_gate",
]

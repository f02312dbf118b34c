"""The ``extensions`` API group of 1.6 (Deployments, DaemonSets, ReplicaSets, Scale).

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/apis/extensions
"""

"""The kube-scheduler library: a Python mirror of ``plugin/pkg/scheduler`` at Kubernetes v1.6.1.

Go: plugin/pkg/scheduler
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler
"""

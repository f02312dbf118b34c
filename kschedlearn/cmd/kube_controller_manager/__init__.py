"""kube-controller-manager of 1.6, as far as the workload controllers go.

Go: cmd/kube-controller-manager
https://github.com/kubernetes/kubernetes/tree/v1.6.1/cmd/kube-controller-manager
"""

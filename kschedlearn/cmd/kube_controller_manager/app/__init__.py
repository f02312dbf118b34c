"""Go: cmd/kube-controller-manager/app (https://github.com/kubernetes/kubernetes/tree/v1.6.1/cmd/kube-controller-manager/app)."""

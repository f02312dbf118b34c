"""Go: cmd/kube-controller-manager/app/options (https://github.com/kubernetes/kubernetes/tree/v1.6.1/cmd/kube-controller-manager/app/options)."""

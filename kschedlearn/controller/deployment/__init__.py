"""Go: pkg/controller/deployment (https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/controller/deployment)."""

"""Go: pkg/controller/deployment/util (https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/controller/deployment/util)."""

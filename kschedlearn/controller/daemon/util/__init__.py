"""Go: pkg/controller/daemon/util (https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/controller/daemon/util)."""

"""Go: pkg/controller/replication (https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/controller/replication)."""

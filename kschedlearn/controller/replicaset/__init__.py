"""Go: pkg/controller/replicaset (https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/controller/replicaset)."""

"""k8s.io/client-go/util/workqueue (only the parallelizer is mirrored)."""

"""Mirror of k8s.io/kubernetes/plugin/pkg/scheduler (v1.6.1)."""

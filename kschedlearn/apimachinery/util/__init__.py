"""k8s.io/apimachinery/pkg/util."""

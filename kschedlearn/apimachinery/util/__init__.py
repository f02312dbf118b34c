"""Go: ``k8s.io/apimachinery/pkg/util`` (only the pieces kschedlearn needs)."""

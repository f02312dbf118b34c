"""Go: ``k8s.io/apimachinery/pkg/apis`` (only ``meta/v1`` is mirrored)."""

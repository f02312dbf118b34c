"""Go: client-go/kubernetes/typed/core/v1 (only the event sink is mirrored here)."""

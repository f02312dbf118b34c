"""Go: client-go/kubernetes/typed/core."""

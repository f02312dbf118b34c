"""Go: client-go/kubernetes/typed."""

"""k8s.io/client-go/util/flowcontrol (the token-bucket rate limiter)."""

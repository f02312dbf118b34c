"""Client libraries of ``pkg/client`` that are not part of client-go (leader election).

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/client
"""

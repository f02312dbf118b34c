"""client-go: the Go client library's pieces the v1.6.1 scheduler uses (``k8s.io/client-go``).

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go
"""

"""Go: staging/src/k8s.io/client-go/kubernetes (https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go/kubernetes).

The typed clientset itself is kschedlearn's :mod:`kschedlearn.apiserver.clientset`.
"""

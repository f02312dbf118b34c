"""Go: staging/src/k8s.io/client-go/kubernetes/typed/core/v1 (https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go/kubernetes/typed/core/v1).

The typed clientset itself is kschedlearn's :mod:`kschedlearn.apiserver.clientset`.
"""

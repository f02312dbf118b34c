"""Go: staging/src/k8s.io/client-go/kubernetes/typed (https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go/kubernetes/typed).

The typed clientset itself is kschedlearn's :mod:`kschedlearn.apiserver.clientset`.
"""

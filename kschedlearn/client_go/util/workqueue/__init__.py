"""k8s.io/client-go/util/workqueue (only the parallelizer is mirrored).

Go: package ``workqueue``, staging/src/k8s.io/client-go/util/workqueue
https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go/util/workqueue
"""

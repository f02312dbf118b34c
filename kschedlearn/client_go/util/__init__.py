"""k8s.io/client-go/util (only the pieces the scheduler uses).

Go: package directory staging/src/k8s.io/client-go/util
https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go/util
"""

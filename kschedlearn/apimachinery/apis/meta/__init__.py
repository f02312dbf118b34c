"""Go: ``k8s.io/apimachinery/pkg/apis/meta``.

https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta
"""

"""Go: ``k8s.io/apimachinery/pkg/apis`` (only ``meta/v1`` is mirrored).

https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis
"""

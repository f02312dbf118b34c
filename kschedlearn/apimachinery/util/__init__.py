"""Go: ``k8s.io/apimachinery/pkg/util`` (only the pieces kschedlearn needs).

https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util
"""

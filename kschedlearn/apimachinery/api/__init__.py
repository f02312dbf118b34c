"""Mirror of ``k8s.io/apimachinery/pkg/api`` (only ``errors`` so far).

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api
"""

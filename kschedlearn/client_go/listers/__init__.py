"""Generated listers (read-only views over informer indexers) and their 1.6 expansions.

Go: pkg/client/listers/{core/v1,extensions/v1beta1,apps/v1beta1}
https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/client/listers
"""

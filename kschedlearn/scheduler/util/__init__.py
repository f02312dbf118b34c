"""plugin/pkg/scheduler/util: the per-pod backoff used when scheduling fails.

Go: package ``util``, plugin/pkg/scheduler/util
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/util
"""

"""plugin/pkg/scheduler/core: the generic scheduling algorithm and the HTTP extender.

Go: package ``core``, plugin/pkg/scheduler/core
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/core
"""

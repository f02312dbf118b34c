"""Priority functions: each scores every feasible node 0..10.

Go: plugin/pkg/scheduler/algorithm/priorities (https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/algorithm/priorities)
"""

"""The scheduler's pluggable algorithm types: predicates, priorities, listers.

Go: plugin/pkg/scheduler/algorithm
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/algorithm
"""

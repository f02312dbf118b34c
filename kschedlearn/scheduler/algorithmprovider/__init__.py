"""Algorithm providers: named sets of predicates and priorities.

Go: plugin/pkg/scheduler/algorithmprovider
https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/pkg/scheduler/algorithmprovider
"""

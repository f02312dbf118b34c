"""Internal API groups of ``pkg/apis`` that the scheduler uses (componentconfig).

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/apis
"""

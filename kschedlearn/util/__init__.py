"""Small helper packages of ``pkg/util`` that the controllers use.

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/util
"""

"""Listers of the core API group (see the version modules).

Go: package directory pkg/client/listers/core
https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/client/listers/core
"""

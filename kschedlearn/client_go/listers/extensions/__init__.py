"""Listers of the extensions API group (see the version modules).

Go: package directory pkg/client/listers/extensions
https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/client/listers/extensions
"""

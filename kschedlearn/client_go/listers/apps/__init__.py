"""Listers of the apps API group (see the version modules).

Go: package directory pkg/client/listers/apps
https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/client/listers/apps
"""

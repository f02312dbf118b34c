"""The kube-scheduler binary: ``main`` (scheduler.py) and its ``app`` package.

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/cmd/kube-scheduler
"""

"""Command binaries (``plugin/cmd``): the kube-scheduler.

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/cmd
"""

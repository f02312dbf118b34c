"""kube-scheduler's application: options, server (Run) and configurator.

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/plugin/cmd/kube-scheduler/app
"""

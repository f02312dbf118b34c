"""The ``apps`` API group of 1.6 (StatefulSets and the newer home of Deployments).

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/apis/apps
"""

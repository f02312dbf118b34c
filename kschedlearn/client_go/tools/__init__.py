"""client-go ``tools``: cache (stores, queues, informers) and record (events).

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go/tools
"""

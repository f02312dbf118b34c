"""k8s.io/client-go/util/flowcontrol (the token-bucket rate limiter).

Go: package ``flowcontrol``, staging/src/k8s.io/client-go/util/flowcontrol
https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go/util/flowcontrol
"""

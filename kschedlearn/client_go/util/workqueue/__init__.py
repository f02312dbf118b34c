"""k8s.io/client-go/util/workqueue: the controllers' work queues and the parallelizer.

Go: package ``workqueue``, staging/src/k8s.io/client-go/util/workqueue
https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go/util/workqueue

``queue.py`` (a de-duplicating FIFO of keys with a processing set), ``delaying_queue.py``
(``AddAfter``), ``rate_limitting_queue.py`` (``AddRateLimited``/``Forget``/``NumRequeues``; the
file name keeps Go's spelling), ``default_rate_limiters.py`` (5 ms·2^n per item, max'ed with a
10 qps bucket). Differs from Go: the queue metrics of ``metrics.go`` are not mirrored.
"""

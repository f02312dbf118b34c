"""client-go ``tools/cache``: stores, indexers and the FIFO / DeltaFIFO queues (and, from the
informer layer, list-watch, reflector, controller, shared informer, listers).

Go: https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/client-go/tools/cache

Each Go file has a same-named module here; this package re-exports the names a learner types.
"""

from kschedlearn.client_go.tools.cache.delta_fifo import (
    ADDED,
    DELETED,
    SYNC,
    UPDATED,
    Delta,
    DeltaCompressor,
    DeltaCompressorFunc,
    DeltaFIFO,
    Deltas,
    DeletedFinalStateUnknown,
    ErrZeroLengthDeltasObject,
    KeyListerGetter,
    deletion_handling_meta_namespace_key_func,
    new_delta_fifo,
)
from kschedlearn.client_go.tools.cache.fifo import (
    FIFO,
    ErrRequeue,
    FIFOClosedError,
    PopProcessFunc,
    ProcessError,
    Queue,
    QueueDebugState,
    new_fifo,
    pop,
)
from kschedlearn.client_go.tools.cache.index import (
    NAMESPACE_INDEX,
    Index,
    Indexer,
    Indexers,
    IndexFunc,
    Indices,
    index_func_to_key_func_adapter,
    meta_namespace_index_func,
)
from kschedlearn.client_go.tools.cache.store import (
    Cache,
    ExplicitKey,
    KeyFunc,
    KeyFuncError,
    Store,
    meta_namespace_key_func,
    new_indexer,
    new_store,
    split_meta_namespace_key,
)
from kschedlearn.client_go.tools.cache.thread_safe_store import (
    ThreadSafeMap,
    ThreadSafeStore,
    new_thread_safe_store,
)

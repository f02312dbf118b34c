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

# The informer layer (listwatch, reflector, controller, shared informer, listers).
from kschedlearn.client_go.tools.cache.controller import (  # noqa: E402
    Config,
    Controller,
    ResourceEventHandler,
    ResourceEventHandlerFuncs,
    new_indexer_informer,
    new_informer,
)
from kschedlearn.client_go.tools.cache.listers import list_all, list_all_by_namespace  # noqa: E402
from kschedlearn.client_go.tools.cache.listwatch import (  # noqa: E402
    ListerWatcher,
    ListOptions,
    ListWatch,
    new_list_watch_from_client,
)
from kschedlearn.client_go.tools.cache.reflector import Reflector, new_reflector  # noqa: E402
from kschedlearn.client_go.tools.cache.shared_informer import (  # noqa: E402
    SharedIndexInformer,
    new_shared_index_informer,
    new_shared_informer,
    wait_for_cache_sync,
)
from kschedlearn.client_go.tools.cache.undelta_store import UndeltaStore, new_undelta_store  # noqa: E402,F401

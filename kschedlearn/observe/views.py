"""Read-only views of the mirrored machinery: what the snapshots and diagrams show of it.

Go: none — kschedlearn-only (DESIGN principle 5: debug views live outside the mirror). Each
function reads one live object's fields — the way a debugger shows a Go struct — and returns
frozen plain data. None takes a lock: the notebook asks while a goroutine may be paused inside a
locked section, and waiting there would deadlock.

The scheduler cache's view shares structure between calls: a NodeInfo's part is rebuilt only
when its generation moved, a pod state's only when one of its fields did, so consecutive
snapshots share every unchanged part (the same objects).
"""

from __future__ import annotations

import weakref
from types import MappingProxyType
from typing import Any

import attrs

from kschedlearn.trace.cache_view import CacheDebugState, NodeDebugState, PodDebugState, ResourceSnapshot


@attrs.frozen
class QueueDebugState:
    """A FIFO's or DeltaFIFO's internals: ``queue`` is the key line exactly as stored (it may
    hold ghost keys that have no item); ``items`` maps key -> object (FIFO) or ``Deltas``
    (DeltaFIFO) in insertion order."""

    queue: tuple[str, ...]
    items: Any  # Mapping[str, Any]
    populated: bool
    initial_population_count: int
    closed: bool


@attrs.frozen
class ReflectorDebugState:
    """A reflector: its name, type, resync period, last synced resourceVersion and store."""

    name: str
    expected_type: str
    resync_period: float
    last_sync_resource_version: str
    store: Any


@attrs.frozen
class ControllerDebugState:
    """A controller: its queue, its reflector (once ``Run`` made one), whether it has synced."""

    queue: Any
    reflector: Any
    has_synced: bool


@attrs.frozen
class ListenerDebugState:
    """One handler's pending notifications and resync bookkeeping."""

    pending: tuple[str, ...]
    requested_resync_period: float
    resync_period: float
    next_resync: float


@attrs.frozen
class SharedInformerDebugState:
    """A shared informer: indexer keys, its controller's queue and reflector, its listeners."""

    object_type: str
    started: bool
    resync_check_period: float
    indexer_keys: tuple[str, ...]
    controller: Any
    listeners: tuple[ListenerDebugState, ...]


# -- queues and stores ------------------------------------------------------------------------

def queue_state(queue: Any) -> QueueDebugState:
    """A frozen copy of a FIFO's or DeltaFIFO's internals."""
    return QueueDebugState(
        queue=tuple(queue._queue),
        items=MappingProxyType(dict(queue._items)),
        populated=queue._populated,
        initial_population_count=queue._initial_population_count,
        closed=queue._closed,
    )


def is_queue(store: Any) -> bool:
    """A FIFO or DeltaFIFO (as opposed to a plain store or indexer)."""
    from kschedlearn.client_go.tools.cache.delta_fifo import DeltaFIFO
    from kschedlearn.client_go.tools.cache.fifo import FIFO

    return isinstance(store, (FIFO, DeltaFIFO))


def store_state(store: Any) -> Any:
    """A queue's :func:`queue_state`, or a store's sorted key tuple."""
    if is_queue(store):
        return queue_state(store)
    return tuple(sorted(store.list_keys()))


# -- informers ------------------------------------------------------------------------------

def reflector_state(reflector: Any) -> ReflectorDebugState:
    """A frozen snapshot of a reflector (its store's own state if it is a queue, else its keys)."""
    from kschedlearn.client_go.tools.cache.reflector import type_name

    return ReflectorDebugState(
        name=reflector.name,
        expected_type=type_name(reflector.expected_type),
        resync_period=reflector.resync_period,
        last_sync_resource_version=reflector.last_sync_resource_version_value,
        store=store_state(reflector.store),
    )


def controller_state(controller: Any) -> ControllerDebugState:
    """A frozen snapshot: the controller's queue, its reflector, has_synced."""
    return ControllerDebugState(
        queue=store_state(controller.config.queue),
        reflector=reflector_state(controller.reflector) if controller.reflector is not None else None,
        has_synced=controller.has_synced(),
    )


def listener_state(listener: Any) -> ListenerDebugState:
    """A processorListener's pending notifications (oldest first) and resync times."""
    return ListenerDebugState(
        pending=tuple(_describe_notification(n) for n in listener.pending_notifications),
        requested_resync_period=listener.requested_resync_period,
        resync_period=listener.resync_period,
        next_resync=listener.next_resync,
    )


def _describe_notification(n: Any) -> str:
    from kschedlearn.client_go.tools.cache import shared_informer as si

    if isinstance(n, si._AddNotification):
        return f"add {object_key(n.new_obj)}"
    if isinstance(n, si._UpdateNotification):
        return f"update {object_key(n.new_obj)}"
    return f"delete {object_key(n.old_obj)}"


def informer_state(informer: Any) -> SharedInformerDebugState:
    """A frozen snapshot of a shared informer."""
    from kschedlearn.client_go.tools.cache.reflector import type_name

    return SharedInformerDebugState(
        object_type=type_name(informer.object_type),
        started=informer.started,
        resync_check_period=informer.resync_check_period,
        indexer_keys=store_state(informer.indexer),
        controller=controller_state(informer.controller) if informer.controller is not None else None,
        listeners=tuple(listener_state(lis) for lis in informer.processor.listeners),
    )


def informer_factory_state(factory: Any) -> dict[str, Any]:
    """Every registered informer's state, by kind name."""
    return {t.__name__: informer_state(inf) for t, inf in factory.informers.items()}


def object_key(obj: Any) -> str:
    """``namespace/name`` of an object or a tombstone (``<no key>`` when it has none)."""
    from kschedlearn.client_go.tools.cache.delta_fifo import deletion_handling_meta_namespace_key_func

    try:
        return deletion_handling_meta_namespace_key_func(obj)
    except Exception:  # noqa: BLE001 - only for trace lines and views
        return "<no key>"


# -- the scheduler's own parts --------------------------------------------------------------

def backoff_state(backoff: Any) -> tuple[tuple[str, float, float, bool], ...]:
    """A PodBackoff's entries: (pod key, next delay, last update, retry in flight), by key."""
    if not backoff.per_pod_backoff:
        return ()  # (no entry: nearly always, asked at every snapshot)
    return tuple(
        (k, e.backoff, e.last_update, e.req_in_flight == 1)
        for k, e in sorted(backoff.per_pod_backoff.items())
    )


def config_factory_state(factory: Any) -> dict[str, Any]:
    """The queues and stores one ConfigFactory owns, as plain data."""
    return {
        "podQueue": queue_state(factory.pod_queue),
        "scheduledPodInformer": controller_state(factory.scheduled_pod_populator),
        "cache": cache_state(factory.scheduler_cache),
        "backoff": backoff_state(factory.pod_backoff) if factory.pod_backoff is not None else (),
    }


def node_debug_state(name: str, info: Any, pods: tuple[str, ...]) -> NodeDebugState:
    """The debug view of one NodeInfo, its pods' keys given (the full rebuild lists them, the
    cache index of ``observe/indexes.py`` extends the previous list)."""
    # the live Resources when the NodeInfo has them (the getters' read-only views hold the same
    # values, but a snapshot would be the first to ask for them after each change: three
    # objects and their maps made per changed node and event, for nothing)
    live = getattr(info, "_requested_resource", None), getattr(info, "_nonzero_request", None), \
        getattr(info, "_allocatable_resource", None)
    if live[0] is None or live[1] is None or live[2] is None:
        live = info.requested_resource(), info.nonzero_request(), info.allocatable_resource()
    return NodeDebugState(
        name=name,
        has_node=info.node() is not None,
        requested=ResourceSnapshot.of(live[0]),
        nonzero_request=ResourceSnapshot.of(live[1]),
        allocatable=ResourceSnapshot.of(live[2]),
        allowed_pod_number=info.allowed_pod_number(),
        pods=pods,
        generation=info.generation,
    )


def cache_ttl(cache: Any) -> float:
    """How long a bound assumed pod may wait for its confirmation (the factory's 30 s)."""
    return cache._ttl


def assumed_keys(cache: Any) -> list[str]:
    """The keys of the cache's assumed pods, sorted."""
    return sorted(cache._assumed_pods)


def pod_status(cache: Any, key: str) -> str:
    """``"assumed"``, ``"added"`` (stored, confirmed) or ``"unknown"`` for a pod key."""
    if key in cache._assumed_pods:
        return "assumed"
    return "added" if key in cache._pod_states else "unknown"


@attrs.define(eq=False)
class _CacheMemo:
    """What :func:`cache_state` built last for one cache (see the module docstring)."""

    nodes: dict[str, tuple[Any, int, NodeDebugState]] = attrs.field(factory=dict)
    pods: dict[str, tuple[Any, Any, bool, float | None, bool, PodDebugState]] = attrs.field(factory=dict)
    last: CacheDebugState | None = None
    signature: object = None

    def node(self, name: str, info: Any) -> NodeDebugState:
        known = self.nodes.get(name)
        if known is not None and known[0] is info and known[1] == info.generation:
            return known[2]
        from kschedlearn.scheduler.schedulercache.node_info import get_pod_key

        view = node_debug_state(name, info, tuple(get_pod_key(p) for p in info.pods()))
        self.nodes[name] = (info, info.generation, view)
        return view

    def pod(self, key: str, ps: Any, assumed: bool) -> PodDebugState:
        known = self.pods.get(key)
        if known is not None and known[0] is ps and known[1] is ps.pod and known[2] == assumed \
                and known[3] == ps.deadline and known[4] == ps.binding_finished:
            return known[5]
        view = PodDebugState(key=key, node_name=ps.pod.spec.node_name, assumed=assumed, deadline=ps.deadline,
                             binding_finished=ps.binding_finished)
        self.pods[key] = (ps, ps.pod, assumed, ps.deadline, ps.binding_finished, view)
        return view


#: per cache, what its last view was built from (kept as long as the cache lives)
CACHE_MEMO: weakref.WeakKeyDictionary[Any, _CacheMemo] = weakref.WeakKeyDictionary()


def cache_state(cache: Any) -> CacheDebugState:
    """A frozen, read-only picture of a scheduler cache for the snapshots and the diagrams."""
    memo = CACHE_MEMO.get(cache)
    if memo is None:
        memo = CACHE_MEMO[cache] = _CacheMemo()
    # Everything a view shows changes a NodeInfo's generation or a pod state's fields: when
    # neither moved since the last call, the last picture is still exact.
    signature = (cache._ttl, [(name, info, info.generation) for name, info in cache._nodes.items()],
                 [(key, ps, ps.pod, ps.deadline, ps.binding_finished, cache._assumed_pods.get(key, False))
                  for key, ps in cache._pod_states.items()])
    if memo.last is not None and memo.signature == signature:
        return memo.last
    memo.signature = signature
    nodes = tuple(memo.node(name, info) for name, info in cache._nodes.items())
    pod_states = tuple(memo.pod(key, ps, cache._assumed_pods.get(key, False)) for key, ps in cache._pod_states.items())
    last = memo.last
    if last is not None and last.ttl == cache._ttl and len(last.nodes) == len(nodes) \
            and len(last.pod_states) == len(pod_states) and all(a is b for a, b in zip(last.nodes, nodes)) \
            and all(a is b for a, b in zip(last.pod_states, pod_states)):
        return last  # nothing changed: the previous snapshot's part itself
    memo.last = CacheDebugState(ttl=cache._ttl, nodes=nodes, pod_states=pod_states)
    return memo.last


__all__ = [
    "CACHE_MEMO", "ControllerDebugState", "ListenerDebugState", "QueueDebugState", "ReflectorDebugState",
    "SharedInformerDebugState", "assumed_keys", "backoff_state", "cache_state", "cache_ttl", "config_factory_state",
    "controller_state", "informer_factory_state", "informer_state", "is_queue", "listener_state", "object_key",
    "pod_status", "queue_state", "reflector_state", "store_state",
]

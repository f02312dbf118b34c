"""The scheduler cache's and the queues' snapshot views, kept up to date from their changes.

Go: none — kschedlearn-only (DESIGN §6). ``observe/views.py`` builds a cache's or a queue's view
from every pod state, NodeInfo and queued item: at a snapshot per event of a 30,000-pod replay
that was two O(cluster) walks per snapshot. Here the watched methods (``observe/sharing.py``:
the cache's ``Cache`` calls and expiry sweep, a FIFO's / DeltaFIFO's operations) also say which
keys each call may change — a pod's key and the nodes it was and will be on, a queued object's
key, the key ``Pop`` hands to ``process`` — and a view applies only those keys to an ordered
index of the views it built (:class:`~kschedlearn.trace.chunks.OrderedChunks`), in the live
dicts' own order. A snapshot then costs O(what changed), and consecutive snapshots share every
unchanged chunk of views (the very same objects).

Exactness: the part equals a full rebuild (``cache_state`` / ``QueueView.of(queue_state(...))``;
``tests/trace/test_cheap_snapshots.py``, ``tests/observe/test_indexes.py``). Whatever the keys
cannot describe — a ``Replace`` or ``Resync``, a key function that fails, a cache or queue class
whose methods are not the mirror's (an exercise's), a follower switched on while a call ran —
makes the next view a rebuild from the live object.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import attrs

from kschedlearn.observe.sharing import watch_of
from kschedlearn.observe.views import cache_state, node_debug_state, queue_state
from kschedlearn.observe.wrap import Call, MirrorMethods
from kschedlearn.trace.cache_view import CacheDebugState, NodeDebugState, PodDebugState
from kschedlearn.trace.chunks import LineChunks, OrderedChunks
from kschedlearn.trace.snapshot import QueueItemView, QueueView, _item_view

KeyFinder = Callable[[Any, str, Call], "Iterable[Hashable] | None"]


@attrs.define(eq=False)
class _Flight:
    """One running mutator call: the keys it may change (``lost``: keys cannot say)."""

    keys: set[Hashable]
    lost: bool = False


def _any_lost(flights: list[_Flight]) -> bool:
    """Whether a running call's keys cannot say what it changes (a loop rather than ``any()``
    over a generator: asked at every look, for every snapshot)."""
    for flight in flights:
        if flight.lost:
            return True
    return False


@attrs.define(eq=False)
class Follower:
    """Which keys of one watched object changed since its view last looked.

    ``touched`` grows at each call's entry and again at its return (a snapshot taken while the
    call runs sees it half done: its keys stay dirty until it returns); ``lost`` asks for a
    rebuild. ``untracked``: calls that were running when the follower was switched on (their
    keys were never seen, a popper may be blocked in one): views rebuild until they returned.
    """

    keys: KeyFinder
    methods: tuple[str, ...]
    untracked: int = 0
    touched: set[Hashable] = attrs.field(factory=set)
    flying: list[_Flight] = attrs.field(factory=list)
    lost: bool = True  # the first view builds from the live object
    #: whether the object's class still has the mirror's methods (made at the first ask)
    methods_check: MirrorMethods | None = None
    #: bumped at every call's entry and return and when Pop hands an item over (a queue's
    #: line moves only then, or by ghost keys leaving its front: its length tells)
    changes: int = 0
    #: the index of the views kept for this object (``CacheIndex`` / ``QueueIndex``)
    index: Any = None
    def enter(self, name: str, call: Call) -> _Flight:
        try:
            keys = self.keys(call.receiver, name, call)
        except Exception:  # noqa: BLE001 - a key the mirror cannot compute either: rebuild
            keys = None
        flight = _Flight(set(keys) if keys is not None else set(), keys is None)
        self.changes += 1
        self.touched |= flight.keys
        self.lost = self.lost or flight.lost
        self.flying.append(flight)
        return flight

    def leave(self, flight: _Flight) -> None:
        self.changes += 1
        self.flying.remove(flight)
        self.touched |= flight.keys
        self.lost = self.lost or flight.lost

    def popped(self, flight: _Flight, queue: Any, item: Any) -> None:
        """Pop has just removed ``item`` and hands it to ``process``: note its key."""
        try:
            key = queue_key(queue, item)
        except Exception:  # noqa: BLE001 - rebuild instead
            flight.lost = self.lost = True
        else:
            flight.keys.add(key)
            self.touched.add(key)
        self.changes += 1

    def untracked_left(self, counted: bool = True) -> None:
        """A call that began before the follower returned: what it did is not known
        (``counted``: it is one of ``untracked``)."""
        if counted:
            self.untracked = max(self.untracked - 1, 0)
        self.lost = True
        self.changes += 1

    def take(self) -> set[Hashable] | frozenset[Hashable] | None:
        """The keys changed since the last take (None: rebuild), and forget them."""
        touched = self.touched
        if touched:
            self.touched = set()
        if self.untracked:
            self.lost = False
            return None
        if self.lost or _any_lost(self.flying):
            self.lost = False
            return None
        if not self.flying:
            return touched or _NOTHING  # (no new set per look when nothing was touched)
        touched = set(touched)
        for flight in self.flying:
            touched |= flight.keys
        return touched

    def mirror(self, obj: Any, module: str) -> bool:
        """Whether ``obj``'s class still has the methods the key finder was written for (each the
        mirror's own function, behind a probe or not); when that is found anew, the views are
        rebuilt once (the methods moved)."""
        if self.methods_check is None:
            self.methods_check = MirrorMethods(self.methods, module)
        ok, anew = self.methods_check.check(type(obj))
        if ok and anew:
            self.lost = True
        return ok


_NOTHING: frozenset[Hashable] = frozenset()


def _follower(obj: Any, keys: KeyFinder, methods: tuple[str, ...]) -> tuple[Any, Follower] | None:
    w = watch_of(obj)
    if w is None:
        return None
    if w.follower is None:
        w.follower = Follower(keys, methods, untracked=w.depth - w.popping)
    return w, w.follower


# -- the scheduler cache ----------------------------------------------------------------------

#: the cache methods that take pods: how many leading arguments are pods
_POD_ARGS = {"assume_pod": 1, "finish_binding": 1, "_finish_binding": 1, "forget_pod": 1, "add_pod": 1,
             "update_pod": 2, "remove_pod": 1}
_SWEEPS = ("_cleanup_expired_assumed_pods", "_cleanup_assumed_pods")
#: the methods whose statements :func:`cache_keys` describes (they must be the mirror's)
CACHE_METHODS = ("assume_pod", "finish_binding", "_finish_binding", "forget_pod", "_add_pod", "_update_pod",
                 "_remove_pod", "add_pod", "update_pod", "remove_pod", "add_node", "update_node", "remove_node",
                 "_cleanup_expired_assumed_pods", "_cleanup_assumed_pods", "_expire_pod")
_CACHE_MODULE = "kschedlearn.scheduler.schedulercache.cache"


def cache_keys(cache: Any, name: str, call: Call) -> list[tuple[str, str]] | None:
    """``("pod", key)`` / ``("node", name)`` a cache call may change: a pod's key, the node it
    is stored on and the node it names (AddPod moves a stale assumed pod), a node's name; an
    expiry sweep, every assumed pod. None when unknown."""
    from kschedlearn.scheduler.schedulercache.node_info import get_pod_key

    args = call.args
    out: list[tuple[str, str]] = []
    count = _POD_ARGS.get(name)
    if count is not None:
        if len(args) < count:
            return None
        states = cache._pod_states
        for pod in args[:count]:
            key = get_pod_key(pod)
            out += (("pod", key), ("node", pod.spec.node_name))
            ps = states.get(key)
            if ps is not None:
                out.append(("node", ps.pod.spec.node_name))
        return out
    if name in ("add_node", "remove_node") and args:
        return [("node", args[0].metadata.name)]
    if name == "update_node" and len(args) == 2:
        return [("node", a.metadata.name) for a in args if a is not None]
    if name == "_expire_pod" and len(args) == 2:
        return [("pod", args[0]), ("node", args[1].pod.spec.node_name)]
    if name in _SWEEPS:
        states = cache._pod_states
        for key in cache._assumed_pods:
            out.append(("pod", key))
            ps = states.get(key)
            if ps is not None:
                out.append(("node", ps.pod.spec.node_name))
        return out
    return None


def _node_view(name: str, info: Any, old: NodeDebugState | None,
               memo: dict[str, tuple[Any, list[Any], tuple[str, ...]]] | None = None) -> NodeDebugState:
    """A NodeInfo's view; ``memo`` (name -> (NodeInfo, its pods, their keys) as last seen)
    spares the keys of the pods a NodeInfo still holds first, in order (AddPod appends)."""
    from kschedlearn.scheduler.schedulercache.node_info import get_pod_key

    known = memo.get(name) if memo is not None else None
    if old is not None and known is not None and known[0] is info and old.generation == info.generation:
        # the same NodeInfo at the generation of its last view: every change to what the view
        # shows bumps the generation (the full rebuild, ``views.cache_state``, keeps a node's
        # view on the same test); a touched key whose call left the node alone (a pod's key and
        # the node it names are noted for every call, and again at each event while it runs)
        return old
    pods = info.pods()
    if known is not None and known[0] is info and len(pods) >= len(known[1]) \
            and pods[:len(known[1])] == known[1]:  # the same pod objects first (identity, at C speed)
        keys = known[2] + tuple(get_pod_key(p) for p in pods[len(known[1]):])
    else:
        keys = tuple(get_pod_key(p) for p in pods)
    if memo is not None:
        memo[name] = (info, list(pods), keys)
    view = node_debug_state(name, info, keys)
    # (a view of another generation differs in that field: no need to compare the rest)
    return old if old is not None and old.generation == view.generation and old == view else view


def _pod_view(assumed_pods: dict[str, bool]) -> Callable[[str, Any, PodDebugState | None], PodDebugState]:
    def view(key: str, ps: Any, old: PodDebugState | None) -> PodDebugState:
        # (the expiry sweep touches every assumed pod: most are as they were, compared field by
        # field here rather than through a new view)
        if old is not None and old.deadline == ps.deadline and old.binding_finished == ps.binding_finished \
                and old.assumed == assumed_pods.get(key, False) and old.node_name == ps.pod.spec.node_name:
            return old
        new = PodDebugState(key=key, node_name=ps.pod.spec.node_name, assumed=assumed_pods.get(key, False),
                            deadline=ps.deadline, binding_finished=ps.binding_finished)
        return old if old is not None and old == new else new

    return view


@attrs.define(eq=False)
class CacheIndex:
    """The views of one cache's NodeInfos and pod states, in its dicts' order."""

    nodes: OrderedChunks[str, NodeDebugState] = attrs.field(factory=OrderedChunks)
    pods: OrderedChunks[str, PodDebugState] = attrs.field(factory=OrderedChunks)
    nodes_dict: Any = None
    pods_dict: Any = None
    last: CacheDebugState | None = None
    rebuilds: int = 0  # how many views were rebuilt from the live cache (tests, benchmarks)
    node_pods: dict[str, tuple[Any, list[Any], tuple[str, ...]]] = attrs.field(factory=dict)

    def _node(self, name: str, info: Any, old: NodeDebugState | None) -> NodeDebugState:
        return _node_view(name, info, old, self.node_pods)

    def view(self, cache: Any, touched: set[Hashable] | frozenset[Hashable] | None) -> CacheDebugState:
        live_nodes, live_pods = cache._nodes, cache._pod_states
        if touched is None or live_nodes is not self.nodes_dict or live_pods is not self.pods_dict:
            self.reset(cache)
        elif touched:
            node_keys = {k for space, k in touched if space == "node"}  # type: ignore[misc]
            pod_keys = {k for space, k in touched if space == "pod"}  # type: ignore[misc]
            if not (self.nodes.sync(live_nodes, node_keys, self._node)
                    and self.pods.sync(live_pods, pod_keys, _pod_view(cache._assumed_pods))
                    and len(self.nodes) == len(live_nodes) and len(self.pods) == len(live_pods)):
                self.reset(cache)
        nodes, pods = self.nodes.freeze(), self.pods.freeze()
        last = self.last
        if last is not None and last.ttl == cache._ttl and last.nodes is nodes and last.pod_states is pods:
            return last
        self.last = CacheDebugState(ttl=cache._ttl, nodes=nodes, pod_states=pods)
        return self.last

    def reset(self, cache: Any) -> None:
        """Rebuild from the live cache (views equal to the old ones are kept)."""
        self.rebuilds += 1
        pod_view = _pod_view(cache._assumed_pods)
        nodes, pods = self.nodes, self.pods
        nodes.reset([(n, self._node(n, i, nodes.get(n))) for n, i in cache._nodes.items()])
        self.node_pods = {n: m for n, m in self.node_pods.items() if n in cache._nodes}
        pods.reset([(k, pod_view(k, ps, pods.get(k))) for k, ps in cache._pod_states.items()])
        self.nodes_dict, self.pods_dict = cache._nodes, cache._pod_states


#: per cache, its index (kept as long as the cache lives)
CACHE_INDEX: weakref.WeakKeyDictionary[Any, CacheIndex] = weakref.WeakKeyDictionary()


def indexed_cache_state(cache: Any) -> CacheDebugState:
    """``cache_state(cache)``, from the cache's index when its changes are followed (a watched
    ``SchedulerCache`` with the mirror's methods), else built whole."""
    found = _follower(cache, cache_keys, CACHE_METHODS)
    if found is None:
        return cache_state(cache)
    w, follower = found
    if not follower.mirror(cache, _CACHE_MODULE):
        follower.lost = True  # back on the index later: rebuild then
        return cache_state(cache)
    index = follower.index
    if index is None:
        index = follower.index = CACHE_INDEX[cache] = CacheIndex()
    return index.view(cache, follower.take())


# -- FIFO / DeltaFIFO -------------------------------------------------------------------------

_QUEUE_KEYED = ("add", "update", "delete", "add_if_not_present")
#: the methods whose statements :func:`queue_keys` describes (they must be the mirror's)
QUEUE_METHODS = ("add", "update", "delete", "add_if_not_present", "_add_if_not_present", "pop", "replace",
                 "resync", "close")
_QUEUE_MODULES = {"FIFO": "kschedlearn.client_go.tools.cache.fifo",
                  "DeltaFIFO": "kschedlearn.client_go.tools.cache.delta_fifo"}


def queue_key(queue: Any, obj: Any) -> str:
    """The key a FIFO (its key function) or a DeltaFIFO (``KeyOf``) stores ``obj`` under."""
    from kschedlearn.client_go.tools.cache.delta_fifo import DeltaFIFO

    return queue.key_of(obj) if isinstance(queue, DeltaFIFO) else queue._key_func(obj)


def queue_keys(queue: Any, name: str, call: Call) -> list[str] | None:
    """The item keys a queue call may change: the object's key (Add, Update, Delete,
    AddIfNotPresent); none for Pop (its key is noted when ``process`` gets the item) and
    Close; None (rebuild) for Replace, Resync and anything else."""
    if name in _QUEUE_KEYED and call.args:
        return [queue_key(queue, call.args[0])]
    if name in ("pop", "close"):
        return []
    return None


class LoggedLine(list):  # type: ignore[type-arg]
    """A FIFO's / DeltaFIFO's key line that counts the keys leaving its front.

    Put in place of a followed queue's ``_queue`` from outside (the same keys, a list in every
    other respect): the mirror's statements only append keys and ``pop(0)`` them, so with the
    count the line view follows the line in O(what changed) (``LineChunks.follow``) instead of
    comparing it whole. Any other change (``clear`` in Replace, ``insert``, an item assignment
    ...) marks it ``broken``: the view then rebuilds.
    """

    __slots__ = ("dropped", "broken")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        super().__init__(items)
        self.dropped = 0
        self.broken = False

    def take(self) -> int:
        """How many keys left the front since the last take."""
        dropped, self.dropped = self.dropped, 0
        return dropped

    def pop(self, index: Any = -1) -> Any:  # noqa: D102 - list's
        value = super().pop(index)
        if index == 0:
            self.dropped += 1
        else:
            self.broken = True
        return value

    def clear(self) -> None:  # noqa: D102 - list's
        self.broken = True
        super().clear()

    def insert(self, index: Any, value: Any) -> None:  # noqa: D102 - list's
        self.broken = True
        super().insert(index, value)

    def remove(self, value: Any) -> None:  # noqa: D102 - list's
        self.broken = True
        super().remove(value)

    def sort(self, *args: Any, **kwargs: Any) -> None:  # noqa: D102 - list's
        self.broken = True
        super().sort(*args, **kwargs)

    def reverse(self) -> None:  # noqa: D102 - list's
        self.broken = True
        super().reverse()

    def __setitem__(self, index: Any, value: Any) -> None:
        self.broken = True
        super().__setitem__(index, value)

    def __delitem__(self, index: Any) -> None:
        self.broken = True
        super().__delitem__(index)

    def __imul__(self, n: Any) -> LoggedLine:
        self.broken = True
        return super().__imul__(n)  # type: ignore[return-value]


@attrs.define(eq=False)
class QueueIndex:
    """The item views of one queue, in its ``_items`` order."""

    kind: str
    items: OrderedChunks[str, QueueItemView] = attrs.field(factory=OrderedChunks)
    items_dict: Any = None
    line: LineChunks[str] = attrs.field(factory=LineChunks)
    line_list: Any = None
    line_mark: tuple[Any, ...] = (-1, -1, None, None)
    last: QueueView | None = None
    rebuilds: int = 0

    def _item(self, key: str, item: Any, old: QueueItemView | None) -> QueueItemView:
        view = _item_view(key, item, self.kind)
        return old if old is not None and old == view else view

    def quiet(self, queue: Any, follower: Follower) -> bool:
        """Whether nothing :meth:`view` looks at moved since the last view: no watched call
        entered, returned or handed an item over since (``follower.changes``), nothing is
        pending, and the line has its length and ends (a popper blocked in Pop keeps the
        watched queue "inside" a call, so a snapshot asks here at every event)."""
        last, mark, line = self.last, self.line_mark, queue._queue
        return (last is not None and follower.changes == mark[0] and not follower.touched
                and not follower.lost and not follower.untracked and line is self.line_list
                and queue._items is self.items_dict and len(line) == mark[1]
                and (line[0] if line else None) is mark[2] and (line[-1] if line else None) is mark[3]
                and not _any_lost(follower.flying))

    def view(self, queue: Any, touched: set[Hashable] | frozenset[Hashable] | None, changes: int = -1) -> QueueView:
        live = queue._items
        if touched is None or live is not self.items_dict:
            self.reset(queue)
        elif touched and not (self.items.sync(live, touched, self._item) and len(self.items) == len(live)):
            self.reset(queue)
        items = self.items.freeze()
        live_line = queue._queue
        # the line moves only in a watched call or when Pop drops ghost keys (its length moves);
        # first and last keys too, to be safe
        mark = (changes, len(live_line), live_line[0] if live_line else None, live_line[-1] if live_line else None)
        if changes < 0 or touched is None or live_line is not self.line_list or mark[0] != self.line_mark[0] \
                or mark[1] != self.line_mark[1] or mark[2] is not self.line_mark[2] or mark[3] is not self.line_mark[3]:
            if touched is None or live_line is not self.line_list or not isinstance(live_line, LoggedLine) \
                    or live_line.broken or not self.line.follow(live_line, live_line.take()):
                if not isinstance(live_line, LoggedLine):
                    live_line = queue._queue = LoggedLine(live_line)  # from now on its front is counted
                live_line.broken, live_line.dropped = False, 0
                self.line.reset(live_line)
                self.line_list = live_line
                mark = (changes, len(live_line), live_line[0] if live_line else None,
                        live_line[-1] if live_line else None)
        self.line_mark = mark
        line = self.line.freeze()
        last = self.last
        populated, count, closed = bool(queue._populated), int(queue._initial_population_count), bool(queue._closed)
        if last is not None:
            if last.line == line:
                line = last.line
                if last.items is items and (last.populated, last.initial_population_count, last.closed) \
                        == (populated, count, closed):
                    return last
        self.last = QueueView(kind=self.kind, line=line, items=items, populated=populated,
                              initial_population_count=count, closed=closed)
        return self.last

    def reset(self, queue: Any) -> None:
        """Rebuild from the live queue (views equal to the old ones are kept)."""
        self.rebuilds += 1
        items = self.items
        items.reset([(k, self._item(k, item, items.get(k))) for k, item in queue._items.items()])
        self.items_dict = queue._items


QUEUE_INDEX: weakref.WeakKeyDictionary[Any, QueueIndex] = weakref.WeakKeyDictionary()


def indexed_queue_view(queue: Any, kind: str, memo: dict[str, Any] | None = None) -> QueueView:
    """``QueueView.of(queue_state(queue), kind)``, from the queue's index when its changes are
    followed (a watched FIFO / DeltaFIFO with the mirror's methods), else built whole."""
    found = _follower(queue, queue_keys, QUEUE_METHODS) if type(queue).__name__ in _QUEUE_MODULES else None
    if found is not None:
        w, follower = found
        if follower.mirror(queue, _QUEUE_MODULES[type(queue).__name__]):
            index = follower.index
            if index is None or index.kind != kind:
                index = follower.index = QUEUE_INDEX[queue] = QueueIndex(kind)
            elif index.quiet(queue, follower):
                return index.last  # type: ignore[return-value]
            return index.view(queue, follower.take(), follower.changes)
        follower.lost = True
    return QueueView.of(queue_state(queue), kind, memo)


def quiet_queue_view(queue: Any, w: Any, kind: str) -> QueueView | None:
    """The last view of ``queue`` (watched by ``w``) when :meth:`QueueIndex.quiet` says nothing
    moved since it was made, else None — what :func:`indexed_queue_view` returns then, without
    finding the follower again and checking the mirror's methods: with no watched call since
    that view, methods swapped meanwhile changed nothing it shows (a snapshot source's
    ``quiet_view``, asked at every snapshot for each queue whose popper waits in Pop)."""
    follower = w.follower
    index = follower.index if follower is not None else None
    if type(index) is QueueIndex and index.kind == kind and index.quiet(queue, follower):
        return index.last
    return None


__all__ = ["CACHE_INDEX", "CACHE_METHODS", "CacheIndex", "Follower", "LoggedLine", "QUEUE_INDEX", "QUEUE_METHODS", "QueueIndex",
           "cache_keys", "indexed_cache_state", "indexed_queue_view", "queue_key", "queue_keys", "quiet_queue_view"]

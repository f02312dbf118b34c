"""The NodeInfo sums of the assigned-pod informer's fast pops (``observe/first_list.py``).

Go: none — kschedlearn-only. A fast pop adds a pod to the scheduler cache (the informer's first
list) or replaces it (an update after the kubelet's status write); the mirror's statements for
that are the cache's addPod / removePod and NodeInfo's, whose ``calculateResource`` converts every
container's Quantities again for each pod. :class:`_Sums` makes those statements here, in their
order, with ``calculateResource``'s answer kept per containers tuple, while the functions and
methods they stand for are the mirror's (:class:`_Mirrored`, checked at every pop) and the cache's
probes hold nothing but the accelerated engine's changed-names note; anything else is the
mirror's call. Split from ``first_list.py`` by meaning: this is the cache's arithmetic, that is
the queue's pop and the trace's events.
"""

from __future__ import annotations

from itertools import compress, count
from operator import attrgetter
from typing import Any

import attrs

from kschedlearn.accelerated import changelog
from kschedlearn.api.resource import Quantity
from kschedlearn.api.v1 import Pod
from kschedlearn.apimachinery._goint import int64
from kschedlearn.client_go.tools.cache.controller import ResourceEventHandlerFuncs
from kschedlearn.observe.wrap import MirrorMethods, closure_cells, instance_hooks, is_probe, site_of
from kschedlearn.scheduler.schedulercache import cache as cache_module
from kschedlearn.scheduler.schedulercache import node_info
from kschedlearn.scheduler.schedulercache.cache import SchedulerCache
from kschedlearn.scheduler.schedulercache.node_info import NodeInfo, get_pod_key

#: the mirror's methods an update pop and the sums make the statements of (an exercise may swap one in)
_MIRROR_UPDATE = MirrorMethods(("update_pod", "_update_pod", "_remove_pod", "_add_pod"),
                               "kschedlearn.scheduler.schedulercache.cache", "SchedulerCache")
_MIRROR_ON_UPDATE = MirrorMethods(("on_update",), "kschedlearn.client_go.tools.cache.controller",
                                  "ResourceEventHandlerFuncs")
_MIRROR_NODE_INFO = MirrorMethods(("add_pod", "remove_pod", "pods", "node"),
                                  "kschedlearn.scheduler.schedulercache.node_info", "NodeInfo")


# -- the NodeInfo sums of a fast pop ---------------------------------------------------------

#: the functions the mirror's addPod / removePod reach by name (an exercise swaps
#: ``calculate_resource`` in the module, ``t05_1``): while they are these, the sums are made here
_CALCULATE = node_info.calculate_resource
_NONZERO = node_info.get_nonzero_requests
_NEW_NODE_INFO = cache_module.new_node_info
_QUANTITY = (Quantity.__dict__["value"], Quantity.__dict__["milli_value"])
#: the cache's method probes the sums stand in for, and the hook each may hold
_SUMMED = ("_add_pod", "_remove_pod")
_NOTE = site_of(changelog.CacheChanges.around, "note")


def _identities() -> tuple[Any, ...]:
    """What the mirror's UpdatePod and the sums reach, by identity: the functions looked up by
    name, the methods of NodeInfo, Quantity, the cache and the handler (compared with the last
    verified ones at every pop: one tuple built, compared at C speed)."""
    nd, sd, qd = _NODE_INFO_DICT, _CACHE_DICT, _QUANTITY_DICT
    return (node_info.calculate_resource, node_info.get_nonzero_requests, cache_module.new_node_info,
            qd.get("value"), qd.get("milli_value"), nd.get("add_pod"), nd.get("remove_pod"), nd.get("pods"),
            nd.get("node"), sd.get("update_pod"), sd.get("_update_pod"), sd.get("_remove_pod"), sd.get("_add_pod"),
            _HANDLERS_DICT.get("on_update"))


#: the classes' namespaces (live views: made once)
_NODE_INFO_DICT, _CACHE_DICT = NodeInfo.__dict__, SchedulerCache.__dict__
_QUANTITY_DICT, _HANDLERS_DICT = Quantity.__dict__, ResourceEventHandlerFuncs.__dict__


@attrs.define(eq=False)
class _Mirrored:
    """Whether :func:`_identities` are the mirror's own: worked out with ``MirrorMethods`` and
    the originals when they change; remembered with the function behind each process-wide
    probe among them (an exercise may swap that without the class changing, ``behind_probe``)."""

    verified: tuple[Any, ...] | None = None
    #: (probe, the function behind it when verified) for the probes among them
    behind: tuple[tuple[Any, Any], ...] = ()

    def holds(self) -> bool:
        now = _identities()
        if now == self.verified and (not self.behind
                                     or all(probe.original is original for probe, original in self.behind)):
            return True
        ok = (now[:5] == (_CALCULATE, _NONZERO, _NEW_NODE_INFO, *_QUANTITY)
              and _MIRROR_NODE_INFO.check(NodeInfo)[0] and _MIRROR_UPDATE.check(SchedulerCache)[0]
              and _MIRROR_ON_UPDATE.check(ResourceEventHandlerFuncs)[0])
        self.verified = now if ok else None
        self.behind = tuple((x, x.original) for x in now if is_probe(x)) if ok else ()
        return ok


#: the one record of it (the mirror's methods are process-wide)
_MIRRORED = _Mirrored()


#: how many containers tuples :class:`_Sums` keeps answers for. A dump's replicas share one
#: decoded spec per distinct spec, and ``nodeName`` is in the spec: one per node for the bound
#: pods of a replay (5,001 at 5,000 nodes). At 4,096 the memo was emptied every few thousand pods
#: there and most answers were computed again (the mirror's Quantity conversions: ~2.5 % of the
#: run phase at 5,000 nodes, replay6); each entry holds a tuple the pods hold anyway.
_MEMO_LIMIT = 1 << 16


@attrs.define(eq=False)
class _Sums:
    """The cache's addPod / removePod and NodeInfo's addPod / removePod made here for a fast pop,
    statement for statement, with ``calculateResource``'s answer kept per containers tuple (the
    pods of a replay share their spec: one Quantity conversion per spec, not per pod) and the
    accelerated engine's changed-names note (``CacheChanges``) the probes would make."""

    #: id(containers) -> (the containers, calculate_resource's answer for a pod holding them)
    memo: dict[int, tuple[Any, tuple[Any, int, int]]] = attrs.field(factory=dict)
    #: the cache's probes on _add_pod and _remove_pod when last found, their hook lists and how
    #: long those were, and the changes they note
    held: tuple[Any, ...] = ()
    lists: tuple[list[Any], ...] = ()
    counts: tuple[int, ...] = ()
    changes: Any = None

    def usable(self, cache: Any) -> bool:
        """Whether the mirror's statements are what would run (the functions they reach by name,
        NodeInfo's and the cache's methods) and the cache's probes on _add_pod and _remove_pod
        hold nothing but the CacheChanges note (or are not there)."""
        if not _MIRRORED.holds() or type(cache._nodes) is not dict:
            return False
        d = cache.__dict__
        if self.held and d.get("_add_pod") is self.held[0] and d.get("_remove_pod") is self.held[1] \
                and tuple(map(len, self.lists)) == self.counts:
            return True
        self.held, self.lists, self.counts, self.changes = (), (), (), None
        changes = None
        lists: list[list[Any]] = []
        for name in _SUMMED:
            hooks = instance_hooks(cache, name)
            if name in cache.__dict__ and hooks is None:
                return False  # (something else there)
            if hooks is None:
                continue
            if hooks.before or hooks.after or len(hooks.around) != 1 or hooks.around[0][0] is not None:
                return False
            note = hooks.around[0][1]
            cells = closure_cells(note) if getattr(note, "__code__", None) is _NOTE else {}
            found = cells.get("self")
            if type(found) is not changelog.CacheChanges or cells.get("touched") is not changelog._TOUCHES[name] \
                    or (changes is not None and found is not changes):
                return False
            changes = found
            lists += (hooks.before, hooks.after, hooks.around)
        self.held = (d.get("_add_pod"), d.get("_remove_pod"))
        self.lists, self.counts, self.changes = tuple(lists), tuple(map(len, lists)), changes
        return True

    def requests(self, pod: Pod) -> tuple[Any, int, int] | None:
        """``calculate_resource(pod)`` (its Resource is read, never changed), or None for a pod
        with opaque resources (left to the mirror's statements)."""
        containers = pod.spec.containers
        known = self.memo.get(id(containers))
        if known is not None and known[0] is containers:
            return known[1]
        found = _CALCULATE(pod)
        if found[0].opaque_int_resources:
            return None
        if len(self.memo) > _MEMO_LIMIT:
            self.memo.clear()
        self.memo[id(containers)] = (containers, found)  # (holding the containers keeps the id theirs)
        return found

    def note(self, name: str) -> None:
        """The CacheChanges note a probed _add_pod / _remove_pod makes after its call."""
        changes = self.changes
        if changes is not None and changes.names is not None:
            changes.names.add(name)

    def add(self, cache: Any, pod: Pod, found: tuple[Any, int, int]) -> None:
        """``cache._add_pod(pod)`` (Go: schedulerCache.addPod, then NodeInfo.addPod) with
        ``found`` = calculate_resource(pod)."""
        name = pod.spec.node_name
        n = cache._nodes.get(name)
        if n is None:
            n = _NEW_NODE_INFO()
            cache._nodes[name] = n
        res, non0_cpu, non0_mem = found
        requested = n._requested_resource
        requested.milli_cpu = int64(requested.milli_cpu + res.milli_cpu)
        requested.memory = int64(requested.memory + res.memory)
        requested.nvidia_gpu = int64(requested.nvidia_gpu + res.nvidia_gpu)
        nonzero = n._nonzero_request
        nonzero.milli_cpu = int64(nonzero.milli_cpu + non0_cpu)
        nonzero.memory = int64(nonzero.memory + non0_mem)
        n._pods.append(pod)
        if node_info._has_pod_affinity_constraints(pod):
            n._pods_with_affinity.append(pod)
        n.generation += 1
        self.note(name)

    def remove(self, cache: Any, n: NodeInfo, pod: Pod, key: str, at: int, found: tuple[Any, int, int]) -> None:
        """``cache._remove_pod(pod)`` (Go: schedulerCache.removePod, then NodeInfo.removePod)
        for ``n`` = its NodeInfo, whose ``_pods[at]`` is the first pod of ``key`` (= the pod's)."""
        with_affinity = n._pods_with_affinity
        for i, other in enumerate(with_affinity):
            if get_pod_key(other) == key:
                with_affinity[i] = with_affinity[-1]
                with_affinity.pop()
                break
        pods = n._pods
        pods[at] = pods[-1]
        pods.pop()
        res, non0_cpu, non0_mem = found
        requested = n._requested_resource
        requested.milli_cpu = int64(requested.milli_cpu - res.milli_cpu)
        requested.memory = int64(requested.memory - res.memory)
        requested.nvidia_gpu = int64(requested.nvidia_gpu - res.nvidia_gpu)
        nonzero = n._nonzero_request
        nonzero.milli_cpu = int64(nonzero.milli_cpu - non0_cpu)
        nonzero.memory = int64(nonzero.memory - non0_mem)
        n.generation += 1
        name = pod.spec.node_name
        if not n.pods() and n.node() is None:
            del cache._nodes[name]
        self.note(name)


def _first_of(pods: list[Pod], key: str) -> int:
    """Where NodeInfo.removePod finds the pod of ``key`` in ``pods`` (its first of that key; -1:
    none, removePod's error). A pod's key ends with its name: only those pods are keyed, and
    they are found at C speed (the updated pod is usually the node's last: a scan in Python of
    the ~30 before it was ~2 % of a replay's run)."""
    for i in compress(count(), map(key.endswith, map(_NAME, pods))):
        if get_pod_key(pods[i]) == key:
            return i
    return -1


_NAME = attrgetter("metadata.name")

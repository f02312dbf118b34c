"""Who holds which pod when it is in no queue or table: plain data for the snapshot.

Go: none — kschedlearn-only (DESIGN §6). Between ``Pop`` and ``AssumePod`` a pod lives only in
scheduleOne's local variable; while the Binding is in flight, in the bind goroutine's; between
the assigned-pod DeltaFIFO's ``Pop`` and the cache, in processLoop's. The snapshot builder keeps
a map goroutine id → :class:`PodHolderView`, moved on by :func:`next_holders` at every event
(from its stage and data), so the views can draw the pod wherever it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs


@attrs.frozen
class PodHolderView:
    """A pod held by a goroutine rather than stored in a queue or table.

    ``holder`` is ``"scheduleOne"`` (popped from podQueue, not yet assumed), ``"bind"`` (the
    binding goroutine, from its POST until FinishBinding / ForgetPod) or ``"processLoop"`` (the
    assigned-pod informer popped the pod's deltas and is running its handler); ``phase`` the stage that
    last touched the pod there (``fifo.pop``, ``schedule.start``, ``schedule.predicate_node``,
    ``schedule.predicates``, ``schedule.priorities``, ``selectHost``, ``bind``,
    ``apiserver.bind``); ``node`` the host chosen or being bound to, once known.
    """

    pod: str
    holder: str
    goroutine: str
    process: str
    phase: str
    node: str = ""


SCHEDULE_ONE_PHASES = ("fifo.pop", "scheduleOne.pop", "schedule.start", "schedule.predicate_node",
                       "schedule.predicates", "schedule.priorities", "selectHost")
"""Stages at which scheduleOne holds the pod (Pop … selectHost); ``assume`` hands it to the cache."""
BIND_PHASES = ("bind", "apiserver.bind")
"""Stages at which the bind goroutine holds the pod; ``finishBinding`` / ``forgetPod`` end it."""
PROCESS_LOOP_PHASES = ("delta_fifo.pop", "controller.process_loop", "handler.OnAdd", "handler.OnUpdate",
                       "handler.OnDelete", "cache.addPod")
"""Stages at which the assigned-pod informer's processLoop holds the pod's deltas (Pop … handler)."""
_RELEASE = ("assume", "finishBinding", "forgetPod", "error.backoff", "cache.updatePod", "cache.removePod")
_ASSIGNED_POD_LOOP = "scheduledPodPopulator"  # the goroutine name of that informer's processLoop


def next_holders(holders: Mapping[int, PodHolderView], stage: str, data: Mapping[str, Any],
                 gid: int, goroutine: str, process: str) -> Mapping[int, PodHolderView]:
    """The holders after an event of ``stage`` (with ``data``) emitted by goroutine ``gid``.

    Pure: keyed by goroutine id, so two replicas (or a bind goroutine per pod) never mix.
    ``holders`` is never changed; when nothing moves it is returned itself (so a snapshot can
    reuse what it built from it), else a new mapping.
    """
    # cache.addPod is traced just before AddPod runs: once any later event happens, it has run
    out = holders
    if any(h.phase == "cache.addPod" for h in holders.values()):
        out = {k: h for k, h in holders.items() if h.phase != "cache.addPod"}
    pod = data.get("pod") or data.get("key")
    if not isinstance(pod, str) or not pod:
        return out
    if stage in PROCESS_LOOP_PHASES:
        if _ASSIGNED_POD_LOOP in goroutine:
            return _with(out, gid, PodHolderView(pod, "processLoop", goroutine, process, stage, str(data.get("node", ""))))
    elif stage in SCHEDULE_ONE_PHASES:
        if stage == "fifo.pop" and "scheduleOne" not in goroutine:
            return out  # some other FIFO consumer
        old = out.get(gid)
        node = str(data.get("host", "")) or (old.node if old is not None and old.pod == pod else "")
        if old is not None and (old.pod, old.holder, old.phase, old.node, old.goroutine, old.process) == (
                pod, "scheduleOne", stage, node, goroutine, process):
            return out  # the same pod at the same phase (one event per node of the predicate loop)
        return _with(out, gid, PodHolderView(pod, "scheduleOne", goroutine, process, stage, node))
    elif stage in BIND_PHASES:
        return _with(out, gid, PodHolderView(pod, "bind", goroutine, process, stage, str(data.get("node", ""))))
    elif stage in _RELEASE:
        gone = [k for k, h in out.items() if h.pod == pod and (k == gid or stage != "assume" or h.holder == "scheduleOne")]
        if gone:
            out = {k: h for k, h in out.items() if k not in gone}
    return out


def _with(holders: Mapping[int, PodHolderView], gid: int, view: PodHolderView) -> Mapping[int, PodHolderView]:
    """``holders`` with ``gid`` holding ``view`` (``holders`` itself when it already does)."""
    if holders.get(gid) == view:
        return holders
    out = dict(holders)
    out[gid] = view
    return out


@attrs.define(eq=False)
class HolderTable(Mapping[int, PodHolderView]):
    """The holders as one table changed in place (goroutine id → view), for cluster scale.

    :func:`next_holders` copies the whole mapping at each change and looks at every holder at
    every event: with thousands of bind goroutines waiting for the client's rate limiter that
    is O(pending pods) per event. :meth:`apply` makes the same change in place, reaching the
    holders through indexes (the pods' holders, the ``cache.addPod`` ones); applying an event
    twice gives what applying it once does (the snapshot asks before the event is recorded, the
    listener after). :meth:`freeze` gives the snapshot's part: the views by goroutine id, unchanged
    chunks shared with the previous one.
    """

    views: dict[int, PodHolderView] = attrs.field(factory=dict)
    chunks: Any = attrs.field(default=None)  # SortedChunks[int, PodHolderView]
    adding: set[int] = attrs.field(factory=set)  # gids whose holder's phase is cache.addPod
    by_pod: dict[str, set[int]] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        if self.chunks is None:
            from kschedlearn.trace.chunks import SortedChunks

            self.chunks = SortedChunks()

    def __getitem__(self, gid: int) -> PodHolderView:
        return self.views[gid]

    def __iter__(self) -> Any:
        return iter(self.views)

    def __len__(self) -> int:
        return len(self.views)

    def set(self, gid: int, view: PodHolderView) -> None:
        """``gid`` holds ``view`` (nothing changes when it already does)."""
        old = self.views.get(gid)
        if old is not None:
            if old == view:
                return
            self._unindex(gid, old)
        self.views[gid] = view
        self.chunks.set(gid, view, unequal=True)  # (not ``old``, compared above)
        gids = self.by_pod.get(view.pod)
        if gids is None:
            self.by_pod[view.pod] = {gid}
        else:
            gids.add(gid)
        if view.phase == "cache.addPod":
            self.adding.add(gid)

    def delete(self, gid: int) -> None:
        """``gid`` holds nothing any more."""
        old = self.views.pop(gid, None)
        if old is not None:
            self._unindex(gid, old)
            self.chunks.delete(gid)

    def _unindex(self, gid: int, old: PodHolderView) -> None:
        gids = self.by_pod.get(old.pod)
        if gids is not None:
            gids.discard(gid)
            if not gids:
                del self.by_pod[old.pod]
        self.adding.discard(gid)

    def apply(self, stage: str, data: Mapping[str, Any], gid: int, goroutine: str, process: str) -> None:
        """:func:`next_holders`' change, made in place (the same statements, by index)."""
        pod = data.get("pod") or data.get("key")
        if isinstance(pod, str) and pod and self._replace(stage, data, pod, gid, goroutine, process):
            return
        for k in list(self.adding):
            self.delete(k)
        if not isinstance(pod, str) or not pod:
            return
        if stage in PROCESS_LOOP_PHASES:
            if _ASSIGNED_POD_LOOP in goroutine:
                self.set(gid, PodHolderView(pod, "processLoop", goroutine, process, stage, str(data.get("node", ""))))
        elif stage in SCHEDULE_ONE_PHASES:
            if stage == "fifo.pop" and "scheduleOne" not in goroutine:
                return
            old = self.views.get(gid)
            node = str(data.get("host", "")) or (old.node if old is not None and old.pod == pod else "")
            self.set(gid, PodHolderView(pod, "scheduleOne", goroutine, process, stage, node))
        elif stage in BIND_PHASES:
            self.set(gid, PodHolderView(pod, "bind", goroutine, process, stage, str(data.get("node", ""))))
        elif stage in _RELEASE:
            for k in list(self.by_pod.get(pod, ())):
                if k == gid or stage != "assume" or self.views[k].holder == "scheduleOne":
                    self.delete(k)

    def _replace(self, stage: str, data: Mapping[str, Any], pod: str, gid: int, goroutine: str, process: str) -> bool:
        """:meth:`apply` for an event whose new view does not depend on ``gid``'s old one (a
        processLoop or bind phase), done without deleting ``gid``'s ``cache.addPod`` holder
        first: :meth:`set` replaces it — the same table after — where the deletion and the new
        insertion made the next :meth:`freeze` compare the whole sequence with the last one
        (the informer's first list: one such event per listed pod). False: not such an event."""
        if stage in PROCESS_LOOP_PHASES:
            if _ASSIGNED_POD_LOOP not in goroutine:
                return False
            view = PodHolderView(pod, "processLoop", goroutine, process, stage, str(data.get("node", "")))
        elif stage in BIND_PHASES:
            view = PodHolderView(pod, "bind", goroutine, process, stage, str(data.get("node", "")))
        else:
            return False
        for k in list(self.adding):
            if k != gid:
                self.delete(k)
        self.set(gid, view)
        return True

    def freeze(self) -> Any:
        """The views sorted by goroutine id (a ``Chunks``)."""
        return self.chunks.freeze()

"""``nodeLister.List()`` of the scheduler, remembered while the node store holds the same objects.

kschedlearn-only (the accelerated engine, see ``docs/accelerated-engine.md``). The factory's
``NodePredicateLister.list`` (the mirror's ``getNodeConditionPredicate`` filter over
``ListWithPredicate``) looks at every node's conditions for every pod. Store objects are
replaced, never mutated, on every update, so a verdict remembered per node *object* stays
right; the whole list is reused while the store lists the very same objects in the same order.
Nodes the filter rejects are asked again each time, so its ``glog.V(4)`` lines still appear;
when those lines may be on, the mirror's ``list()`` runs (traced or not).
"""

from __future__ import annotations

from operator import is_
from typing import Any

import attrs

from kschedlearn.client_go.listers.core.v1 import NodeLister
from kschedlearn.scheduler.factory import factory
from kschedlearn.scheduler.factory.factory import NodePredicateLister
from kschedlearn.sim.runtime import current_goroutine


#: the mirror's functions the memo stands for (an exercise may swap one in: then it runs)
_MIRROR = (NodePredicateLister.list, NodeLister.list_with_predicate, factory.get_node_condition_predicate)


def _mirror_functions() -> bool:
    return (NodePredicateLister.__dict__.get("list") is _MIRROR[0]
            and NodeLister.__dict__.get("list_with_predicate") is _MIRROR[1]
            and factory.get_node_condition_predicate is _MIRROR[2])


def _filter_may_log() -> bool:
    """Whether the condition filter's ``glog.V(4)`` lines may be on (then the mirror's ``list()``
    runs, every line in place): a tracer records log lines and either the process has glog
    flags of its own (``--v`` / ``--vmodule``: whether V(4) is on depends on the module asking,
    so the mirror's own statements ask) or the tracer's ``log_verbosity`` reaches 4. Nothing
    else of ``list()`` is observable: it emits no trace event."""
    g = current_goroutine()
    tracer = g.runtime.tracer if g is not None else None
    if tracer is None or not tracer.wants("log"):
        return False
    # (``bool(glog.v(4))`` without glog flags, for this goroutine and tracer: no second lookup)
    return g.process.glog is not None or 4 <= tracer.log_verbosity


def _same(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and all(map(is_, a, b))


@attrs.define(eq=False)
class NodeListMemo:
    """Remembered ``list()`` results of one ``NodePredicateLister``."""

    raw: list[Any] = attrs.field(factory=list)
    listed: list[Any] = attrs.field(factory=list)
    #: id(node) -> (node, True) for nodes the condition filter accepted (the node keeps the id alive)
    accepted: dict[int, tuple[Any, bool]] = attrs.field(factory=dict)
    all_accepted: bool = False

    def list(self, lister: Any) -> list[Any]:
        """``lister.list()`` — the same nodes in the same order."""
        if (type(lister) is not NodePredicateLister or type(lister.node_lister) is not NodeLister
                or not _mirror_functions() or _filter_may_log()):
            return lister.list()
        # ListAll with labels.Everything(): every stored object, in the store's order
        raw = lister.node_lister.indexer.list()
        if self.all_accepted and _same(raw, self.raw):
            return list(self.listed)
        predicate = factory.get_node_condition_predicate()
        accepted = self.accepted
        listed = []
        fresh: dict[int, tuple[Any, bool]] = {}
        for node in raw:
            known = accepted.get(id(node))
            if known is not None and known[0] is node:
                ok = True
            else:
                ok = predicate(node)
            if ok:
                fresh[id(node)] = (node, True)
                listed.append(node)
        self.raw, self.listed, self.accepted = raw, listed, fresh
        self.all_accepted = len(listed) == len(raw)
        return list(listed)

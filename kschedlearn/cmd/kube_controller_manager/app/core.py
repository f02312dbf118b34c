"""The InitFuncs of the core group's controllers that kschedlearn mirrors.

Go: cmd/kube-controller-manager/app/core.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/cmd/kube-controller-manager/app/core.go

Differs from Go: only ``startReplicationController`` and ``startGarbageCollectorController`` are
mirrored (the endpoint, pod GC, quota, namespace, service-account and TTL controllers are not).
"""

from __future__ import annotations

from typing import Any

from kschedlearn import sim
from kschedlearn.controller.garbagecollector.garbagecollector import new_garbage_collector
from kschedlearn.controller.garbagecollector.graph_builder import DeletableResource
from kschedlearn.controller.replication.replication_controller import BURST_REPLICAS, new_replication_manager


def start_replication_controller(ctx: Any) -> bool:
    """Go: ``startReplicationController`` — core.go#L56-L64."""
    rm = new_replication_manager(
        ctx.informer_factory.core().v1().pods(),
        ctx.informer_factory.core().v1().replication_controllers(),
        ctx.client_builder.client_or_die("replication-controller"),
        BURST_REPLICAS,
    )
    sim.go(rm.run, int(ctx.options.concurrent_rc_syncs), ctx.stop, name="replicationmanager Run")
    return True


def start_garbage_collector_controller(ctx: Any) -> bool:
    """The garbage collector over every resource the server can delete.

    Go: ``startGarbageCollectorController`` — core.go#L160-L192. Differs from Go: the deletable
    resources are read from the embedded server's discovery table (preferred version of each
    group, resources with the ``delete`` verb) instead of over HTTP, and the collector works
    through the typed clientset instead of two dynamic client pools.
    """
    if not ctx.options.enable_garbage_collector:
        return False
    gc_clientset = ctx.client_builder.client_or_die("generic-garbage-collector")
    deletable_resources = server_preferred_deletable_resources()
    garbage_collector = new_garbage_collector(gc_clientset, deletable_resources)
    workers = int(ctx.options.concurrent_gc_syncs)
    sim.go(garbage_collector.run, workers, ctx.stop, name="garbagecollector Run")
    return True


def server_preferred_deletable_resources() -> list[DeletableResource]:
    """Go: ``discovery.FilteredBy(SupportsAllVerbs{"delete"}, ServerPreferredResources())``
    (the discovery call of ``startGarbageCollectorController``, core.go#L160-L192), over the discovery table; one entry per stored resource."""
    from kschedlearn.apiserver.rest.discovery import SERVED  # noqa: PLC0415 - the discovery table

    out: list[DeletableResource] = []
    seen: set[str] = set()
    for served in SERVED:
        if "/" in served.name or "delete" not in served.verbs or not served.stored or served.name in seen:
            continue
        seen.add(served.name)
        out.append(DeletableResource(served.name, served.group_version, served.kind))
    return out


__all__ = ["server_preferred_deletable_resources", "start_garbage_collector_controller", "start_replication_controller"]

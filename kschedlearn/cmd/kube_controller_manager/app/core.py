"""The InitFuncs of the core group's controllers that kschedlearn mirrors.

Go: cmd/kube-controller-manager/app/core.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/cmd/kube-controller-manager/app/core.go

Differs from Go: only ``startReplicationController`` and ``startGarbageCollectorController`` are
mirrored (the endpoint, pod GC, quota, namespace, service-account and TTL controllers are not);
an InitFunc records the controller it built in ``ctx.built`` (kschedlearn-only, for the views).
"""

from __future__ import annotations

from typing import Any

from kschedlearn import sim
from kschedlearn.controller.replication.replication_controller import BURST_REPLICAS, new_replication_manager


def start_replication_controller(ctx: Any) -> bool:
    """Go: ``startReplicationController`` — core.go#L56-L64."""
    rm = new_replication_manager(
        ctx.informer_factory.core().v1().pods(),
        ctx.informer_factory.core().v1().replication_controllers(),
        ctx.client_builder.client_or_die("replication-controller"),
        BURST_REPLICAS,
    )
    ctx.built["replicationcontroller"] = rm
    sim.go(rm.run, int(ctx.options.concurrent_rc_syncs), ctx.stop, name="replicationmanager Run")
    return True


def start_garbage_collector_controller(ctx: Any) -> bool:
    """The garbage collector: deletes dependents whose owners are gone.

    Go: ``startGarbageCollectorController`` — core.go#L160-L192. Differs from Go: the collector is
    kschedlearn's stand-in (:mod:`kschedlearn.controller.garbagecollector.garbagecollector`) over
    the kinds the simulation stores, not Go's graph of every deletable resource found by discovery.
    """
    from kschedlearn.controller.garbagecollector.garbagecollector import new_garbage_collector  # noqa: PLC0415

    if not ctx.options.enable_garbage_collector:
        return False
    gc_clientset = ctx.client_builder.client_or_die("generic-garbage-collector")
    garbage_collector = new_garbage_collector(gc_clientset, ctx.informer_factory)
    ctx.built["garbagecollector"] = garbage_collector
    workers = int(ctx.options.concurrent_gc_syncs)
    sim.go(garbage_collector.run, workers, ctx.stop, name="garbagecollector Run")
    return True


__all__ = ["start_garbage_collector_controller", "start_replication_controller"]

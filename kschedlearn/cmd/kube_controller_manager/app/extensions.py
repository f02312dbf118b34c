"""The InitFuncs of the extensions group's controllers: DaemonSets, Deployments, ReplicaSets.

Go: cmd/kube-controller-manager/app/extensions.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/cmd/kube-controller-manager/app/extensions.go

Each starts only when the API server serves its resource in ``extensions/v1beta1``.
"""

from __future__ import annotations

from typing import Any

from kschedlearn import sim
from kschedlearn.controller.daemon.daemoncontroller import new_daemon_sets_controller
from kschedlearn.controller.deployment.deployment_controller import new_deployment_controller
from kschedlearn.controller.replicaset.replica_set import BURST_REPLICAS, new_replica_set_controller


def start_daemon_set_controller(ctx: Any) -> bool:
    """Go: ``startDaemonSetController`` — extensions.go#L30-L41."""
    if not ctx.available_resources.get(("extensions", "v1beta1", "daemonsets")):
        return False
    dsc = new_daemon_sets_controller(
        ctx.informer_factory.extensions().v1beta1().daemon_sets(),
        ctx.informer_factory.core().v1().pods(),
        ctx.informer_factory.core().v1().nodes(),
        ctx.client_builder.client_or_die("daemon-set-controller"),
    )
    sim.go(dsc.run, int(ctx.options.concurrent_daemon_set_syncs), ctx.stop, name="daemonset Run")
    return True


def start_deployment_controller(ctx: Any) -> bool:
    """Go: ``startDeploymentController`` — extensions.go#L43-L54."""
    if not ctx.available_resources.get(("extensions", "v1beta1", "deployments")):
        return False
    dc = new_deployment_controller(
        ctx.informer_factory.extensions().v1beta1().deployments(),
        ctx.informer_factory.extensions().v1beta1().replica_sets(),
        ctx.informer_factory.core().v1().pods(),
        ctx.client_builder.client_or_die("deployment-controller"),
    )
    sim.go(dc.run, int(ctx.options.concurrent_deployment_syncs), ctx.stop, name="deployment Run")
    return True


def start_replica_set_controller(ctx: Any) -> bool:
    """Go: ``startReplicaSetController`` — extensions.go#L56-L67."""
    if not ctx.available_resources.get(("extensions", "v1beta1", "replicasets")):
        return False
    rsc = new_replica_set_controller(
        ctx.informer_factory.extensions().v1beta1().replica_sets(),
        ctx.informer_factory.core().v1().pods(),
        ctx.client_builder.client_or_die("replicaset-controller"),
        BURST_REPLICAS,
    )
    sim.go(rsc.run, int(ctx.options.concurrent_rs_syncs), ctx.stop, name="replicaset Run")
    return True


__all__ = ["start_daemon_set_controller", "start_deployment_controller", "start_replica_set_controller"]

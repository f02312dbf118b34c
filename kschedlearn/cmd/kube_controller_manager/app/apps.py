"""The InitFunc of the apps group's controller: StatefulSets.

Go: cmd/kube-controller-manager/app/apps.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/cmd/kube-controller-manager/app/apps.go#L28-L39
"""

from __future__ import annotations

from typing import Any

from kschedlearn import sim
from kschedlearn.controller.statefulset.stateful_set import new_stateful_set_controller


def start_stateful_set_controller(ctx: Any) -> bool:
    """One worker, hard-coded in 1.6. Go: ``startStatefulSetController`` — apps.go#L28-L39."""
    if not ctx.available_resources.get(("apps", "v1beta1", "statefulsets")):
        return False
    ssc = new_stateful_set_controller(
        ctx.informer_factory.core().v1().pods(),
        ctx.informer_factory.apps().v1beta1().stateful_sets(),
        ctx.informer_factory.core().v1().persistent_volume_claims(),
        ctx.client_builder.client_or_die("statefulset-controller"),
    )
    sim.go(ssc.run, 1, ctx.stop, name="statefulset Run")
    return True


__all__ = ["start_stateful_set_controller"]

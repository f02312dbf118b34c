"""Solutions for notebook 15: the ReplicationManager's manageReplicas.

Go: pkg/controller/replication/replication_controller.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/replication/replication_controller.go#L429-L547
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kschedlearn import sim
from kschedlearn.api.v1 import OwnerReference
from kschedlearn.controller import controller_utils as controller
from kschedlearn.controller.replication.replication_controller import CONTROLLER_KIND, ReplicationManager


def manage_replicas(rm: ReplicationManager, filtered_pods: Sequence[Any], rc: Any) -> None:
    """Create or delete the difference between the active pods and ``rc.spec.replicas``.

    Go: (*ReplicationManager).manageReplicas, replication_controller.go#L429-L547. ``diff`` is
    ``len(filtered_pods) - rc.spec.replicas``, capped at ``rm.burst_replicas`` either way.
    Raise the expectations first (``rm.expectations.expect_creations(key, n)`` /
    ``expect_deletions(key, [pod keys])``, key = ``controller.key_func(rc)``), then create with
    ``rm.pod_control.create_pods_with_controller_ref(ns, rc.spec.template, rc, ref)`` (ref: a
    controller OwnerReference to the RC, blockOwnerDeletion true) or delete the first pods of
    ``controller.sort_active_pods`` order (unless scaling to 0) with
    ``rm.pod_control.delete_pod(ns, name, rc)``, each in a goroutine (``sim.go``) joined by a
    ``sim.WaitGroup``. A failed create or delete lowers the expectations
    (``creation_observed`` / ``deletion_observed``) and the first error is raised at the end.
    """
    diff = len(filtered_pods) - rc.spec.replicas
    rc_key = controller.key_func(rc)
    if diff == 0:
        return
    errors: list[BaseException] = []
    wg = sim.WaitGroup()
    if diff < 0:
        diff = min(-diff, rm.burst_replicas)
        rm.expectations.expect_creations(rc_key, diff)
        wg.add(diff)

        def create() -> None:
            try:
                ref = OwnerReference(api_version=CONTROLLER_KIND[0], kind=CONTROLLER_KIND[1], name=rc.metadata.name,
                                     uid=rc.metadata.uid, block_owner_deletion=True, controller=True)
                rm.pod_control.create_pods_with_controller_ref(rc.metadata.namespace, rc.spec.template, rc, ref)
            except Exception as err:  # noqa: BLE001 - Go: err != nil
                rm.expectations.creation_observed(rc_key)
                errors.append(err)
            finally:
                wg.done()

        for _ in range(diff):
            sim.go(create, name=f"create pod for rc {rc_key}")
        wg.wait()
    else:
        diff = min(diff, rm.burst_replicas)
        pods = list(filtered_pods)
        if rc.spec.replicas != 0:
            controller.sort_active_pods(pods)
        doomed = pods[:diff]
        rm.expectations.expect_deletions(rc_key, [controller.pod_key(p) for p in doomed])
        wg.add(diff)

        def delete(pod: Any) -> None:
            try:
                rm.pod_control.delete_pod(rc.metadata.namespace, pod.metadata.name, rc)
            except Exception as err:  # noqa: BLE001 - Go: err != nil
                rm.expectations.deletion_observed(rc_key, controller.pod_key(pod))
                errors.append(err)
            finally:
                wg.done()

        for pod in doomed:
            sim.go(delete, pod, name=f"delete pod {pod.metadata.name}")
        wg.wait()
    if errors:
        raise errors[0]

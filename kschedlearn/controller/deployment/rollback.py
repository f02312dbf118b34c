"""``spec.rollbackTo``: copy an older replica set's template back into the Deployment.

Go: pkg/controller/deployment/rollback.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/deployment/rollback.go

Differs from Go: methods of ``DeploymentController`` in a mixin; the deployment Go changes through
its pointer is threaded through return values.
"""

from __future__ import annotations

from typing import Any

import attrs

from kschedlearn.apis.extensions.v1beta1.types import Deployment, ReplicaSet
from kschedlearn.controller.deployment.util import deployment_util as deploymentutil
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf


class RollbackMethods:
    """The methods of ``DeploymentController`` defined in rollback.go (a mixin).

    Go: the methods of rollback.go (kschedlearn-only grouping: Go spreads one type's methods over files)."""

    event_recorder: Any
    client: Any

    def rollback(self, d: Deployment, rs_list: list[Any], pod_map: dict[str, list[Any]]) -> None:
        """Roll back to ``spec.rollbackTo.revision`` (0 = the previous one); always clear the request.

        Go: ``rollback`` — rollback.go#L30-L69
        """
        new_rs, all_old_rss, d = self.get_all_replica_sets_and_sync_revision(d, rs_list, pod_map, True)
        all_rss = [*all_old_rss, new_rs]
        to_revision = d.spec.rollback_to.revision
        # If rollback revision is 0, rollback to the last revision
        if to_revision == 0:
            to_revision = deploymentutil.last_revision(all_rss)
            d = attrs.evolve(d, spec=attrs.evolve(d.spec, rollback_to=attrs.evolve(d.spec.rollback_to,
                                                                                   revision=to_revision)))
            if to_revision == 0:
                # If we still can't find the last revision, gives up rollback
                self.emit_rollback_warning_event(d, deploymentutil.ROLLBACK_REVISION_NOT_FOUND,
                                                 "Unable to find last revision.")
                # Gives up rollback
                self.update_deployment_and_clear_rollback_to(d)
                return
        for rs in all_rss:
            try:
                v = deploymentutil.revision(rs)
            except ValueError as err:
                glog.v(4).infof("Unable to extract revision from deployment's replica set %q: %v", rs.metadata.name, err)
                continue
            if v == to_revision:
                glog.v(4).infof("Found replica set %q with desired revision %d", rs.metadata.name, v)
                # rollback by copying podTemplate.Spec from the replica set; the revision number will
                # be incremented during the next getAllReplicaSetsAndSyncRevision call
                performed_rollback = self.rollback_to_template(d, rs)
                if performed_rollback:
                    self.emit_rollback_normal_event(d, sprintf("Rolled back deployment %q to revision %d",
                                                               d.metadata.name, to_revision))
                return
        self.emit_rollback_warning_event(d, deploymentutil.ROLLBACK_REVISION_NOT_FOUND,
                                         "Unable to find the revision to rollback to.")
        # Gives up rollback
        self.update_deployment_and_clear_rollback_to(d)

    def rollback_to_template(self, d: Deployment, rs: ReplicaSet) -> bool:
        """Take the replica set's template (and annotations) if they differ; clear the request.

        Go: ``rollbackToTemplate`` — rollback.go#L71-L99 (the update's error is raised)
        """
        performed_rollback = False
        if not deploymentutil.equal_ignore_hash(d.spec.template, rs.spec.template):
            glog.v(4).infof("Rolling back deployment %q to template spec %+v", d.metadata.name, rs.spec.template.spec)
            d = deploymentutil.set_from_replica_set_template(d, rs.spec.template)
            # set RS (the old RS we'll rolling back to) annotations back to the deployment
            d = deploymentutil.set_deployment_annotations_to(d, rs)
            performed_rollback = True
        else:
            glog.v(4).infof("Rolling back to a revision that contains the same template as current deployment %q, "
                            "skipping rollback...", d.metadata.name)
            event_msg = sprintf("The rollback revision contains the same template as current deployment %q",
                                d.metadata.name)
            self.emit_rollback_warning_event(d, deploymentutil.ROLLBACK_TEMPLATE_UNCHANGED, event_msg)
        self.update_deployment_and_clear_rollback_to(d)
        return performed_rollback

    def emit_rollback_warning_event(self, d: Deployment, reason: str, message: str) -> None:
        """Go: ``emitRollbackWarningEvent`` — rollback.go#L101-L103."""
        self.event_recorder.eventf(d, "Warning", reason, message)

    def emit_rollback_normal_event(self, d: Deployment, message: str) -> None:
        """Go: ``emitRollbackNormalEvent`` — rollback.go#L105-L107."""
        self.event_recorder.eventf(d, "Normal", deploymentutil.ROLLBACK_DONE, message)

    def update_deployment_and_clear_rollback_to(self, d: Deployment) -> None:
        """Go: ``updateDeploymentAndClearRollbackTo`` — rollback.go#L109-L117."""
        glog.v(4).infof("Cleans up rollbackTo of deployment %q", d.metadata.name)
        d = attrs.evolve(d, spec=attrs.evolve(d.spec, rollback_to=None))
        self.client.extensions().deployments(d.metadata.namespace).update(d)


__all__ = ["RollbackMethods"]

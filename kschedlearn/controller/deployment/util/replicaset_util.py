"""A replica-set update that retries on conflicts, and a replica set's template hash.

Go: pkg/controller/deployment/util/replicaset_util.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/deployment/util/replicaset_util.go
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn.api.v1 import PodTemplateSpec
from kschedlearn.apimachinery.util.errors import ErrPreconditionViolated
from kschedlearn.apis.extensions.v1beta1.types import DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY
from kschedlearn.client.retry import DEFAULT_BACKOFF, retry_on_conflict
from kschedlearn.controller.deployment.util.pod_util import get_pod_template_spec_hash, get_pod_template_spec_hash_fnv
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf
from kschedlearn.util import labels as labelsutil

UpdateRSFunc = Callable[[Any], Any]
"""Go: ``updateRSFunc`` — replicaset_util.go#L34-L36 (here it returns the changed replica set)."""


def update_rs_with_retries(rs_client: Any, rs_lister: Any, namespace: str, name: str,
                           apply_update: UpdateRSFunc) -> Any:
    """Read the replica set from the lister, apply ``apply_update``, write it; retry on conflicts.

    Go: ``UpdateRSWithRetries`` — replicaset_util.go#L38-L69. A violated precondition is not an error.
    """
    result: list[Any] = [None]

    def attempt() -> None:
        rs = rs_lister.replica_sets(namespace).get(name)
        result[0] = rs
        # Apply the update, then attempt to push it to the apiserver.
        rs = apply_update(rs)
        result[0] = rs_client.update(rs)

    try:
        retry_on_conflict(DEFAULT_BACKOFF, attempt)
    except ErrPreconditionViolated:
        # Ignore the precondition violated error, but the RS isn't updated.
        glog.v(4).infof("Replica set %s/%s precondition doesn't hold, skip updating it.", namespace, name)
    return result[0]


def get_replica_set_hash(rs: Any) -> str:
    """The template hash of a replica set, its own hash label left out.

    Go: ``GetReplicaSetHash`` — replicaset_util.go#L71-L79
    """
    meta = rs.spec.template.metadata
    meta = attrs.evolve(meta, labels=labelsutil.clone_and_remove_label(meta.labels, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY))
    return sprintf("%d", get_pod_template_spec_hash(PodTemplateSpec(metadata=meta, spec=rs.spec.template.spec)))


def get_replica_set_hash_fnv(rs: Any) -> str:
    """Go: ``GetReplicaSetHashFnv`` — replicaset_util.go#L81-L89."""
    meta = rs.spec.template.metadata
    meta = attrs.evolve(meta, labels=labelsutil.clone_and_remove_label(meta.labels, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY))
    return sprintf("%d", get_pod_template_spec_hash_fnv(PodTemplateSpec(metadata=meta, spec=rs.spec.template.spec)))


__all__ = ["UpdateRSFunc", "get_replica_set_hash", "get_replica_set_hash_fnv", "update_rs_with_retries"]

"""Pod-template hashes and a pod update that retries on conflicts.

Go: pkg/controller/deployment/util/pod_util.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/deployment/util/pod_util.go

Differs from Go: Go hashes the template with adler32 over go-spew's ``%#v`` dump of the Go
struct (every field of ``v1.PodTemplateSpec``, zero values included); the mirror hashes a
canonical JSON encoding of the template with adler32 instead. The property that matters holds
(the same template, the same hash, a 32-bit number written in decimal), but the numbers — and so
the names of the replica sets (``<deployment>-<hash>``) — differ from a real 1.6 cluster's.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from typing import Any

from kschedlearn.apimachinery.util.errors import ErrPreconditionViolated
from kschedlearn.client.retry import DEFAULT_BACKOFF, retry_on_conflict
from kschedlearn.trace import glog


def get_pod_template_spec_hash(template: Any) -> int:
    """Go: ``GetPodTemplateSpecHash`` — pod_util.go#L34-L38 (see the module docstring)."""
    return zlib.adler32(json.dumps(template.to_dict(), sort_keys=True, separators=(",", ":")).encode())


def get_pod_template_spec_hash_fnv(template: Any) -> int:
    """Go: ``GetPodTemplateSpecHashFnv`` — pod_util.go#L47-L51 (FNV-1a 32 over the same encoding)."""
    h = 0x811C9DC5
    for b in json.dumps(template.to_dict(), sort_keys=True, separators=(",", ":")).encode():
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


UpdatePodFunc = Callable[[Any], Any]
"""Go: ``updatePodFunc`` — pod_util.go#L53-L55 (here it returns the changed pod)."""


def update_pod_with_retries(pod_client: Any, pod_lister: Any, namespace: str, name: str,
                            apply_update: UpdatePodFunc) -> Any:
    """Read the pod from the lister, apply ``apply_update``, write it; retry on conflicts.

    Go: ``UpdatePodWithRetries`` — pod_util.go#L57-L89. A violated precondition (the pod already
    has the change) is not an error.
    """
    result: list[Any] = [None]

    def attempt() -> None:
        pod = pod_lister.pods(namespace).get(name)
        result[0] = pod
        # Apply the update, then attempt to push it to the apiserver.
        pod = apply_update(pod)
        result[0] = pod_client.update(pod)

    try:
        retry_on_conflict(DEFAULT_BACKOFF, attempt)
    except ErrPreconditionViolated:
        # Ignore the precondition violated error, this pod is already updated with the desired label.
        glog.v(4).infof("Pod %s/%s precondition doesn't hold, skip updating it.", namespace, name)
    return result[0]


__all__ = ["UpdatePodFunc", "get_pod_template_spec_hash", "get_pod_template_spec_hash_fnv", "update_pod_with_retries"]

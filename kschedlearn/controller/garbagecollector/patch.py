"""The strategic-merge patch that removes ownerReferences from a dependent.

Go: pkg/controller/garbagecollector/patch.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/garbagecollector/patch.go
"""

from __future__ import annotations

import json
from typing import Any

from kschedlearn.trace.gofmt import sprintf


def delete_owner_ref_patch(dependent_uid: str, *owner_uids: str) -> bytes:
    """``{"metadata":{"ownerReferences":[{"$patch":"delete","uid":…}…],"uid":…}}``.

    Go: ``deleteOwnerRefPatch`` — patch.go#L29-L36 (the dependent's uid makes the patch fail
    on a re-created object of the same name)
    """
    pieces = [sprintf('{"$patch":"delete","uid":"%s"}', owner_uid) for owner_uid in owner_uids]
    patch = sprintf('{"metadata":{"ownerReferences":[%s],"uid":"%s"}}', ",".join(pieces), dependent_uid)
    return patch.encode()


def patch_to_unblock_owner_references(n: Any) -> bytes:
    """A patch setting ``blockOwnerDeletion: false`` on every blocking ownerReference of ``n``.

    Go: ``(*node).patchToUnblockOwnerReferences`` — patch.go#L38-L54
    """
    blocking_refs = []
    for owner in n.owners:
        if owner.block_owner_deletion:
            ref = owner.to_dict()
            ref["blockOwnerDeletion"] = False
            blocking_refs.append(ref)
    dummy: dict[str, Any] = {"metadata": {"uid": n.identity.uid}}
    if blocking_refs:
        dummy["metadata"]["ownerReferences"] = blocking_refs
    return json.dumps(dummy, separators=(",", ":")).encode()


__all__ = ["delete_owner_ref_patch", "patch_to_unblock_owner_references"]

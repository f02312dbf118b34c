"""Small pod helpers shared by the priority functions.

Go: plugin/pkg/scheduler/algorithm/priorities/util/util.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/util/util.go
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from kschedlearn.api.v1 import OwnerReference, Pod


def get_controller_ref(pod: "Pod") -> "Optional[OwnerReference]":
    """Return the pod's managing controller: its first owner reference with ``controller=True``.

    An owner reference whose ``controller`` flag is unset (``None``) or false does not count,
    and a pod without owner references has no controller (``None``).

    Go: func GetControllerRef(pod *v1.Pod) *metav1.OwnerReference
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/util/util.go#L24-L35
    """
    if len(pod.metadata.owner_references) == 0:
        return None
    for ref in pod.metadata.owner_references:
        if ref.controller is not None and ref.controller:
            return ref
    return None

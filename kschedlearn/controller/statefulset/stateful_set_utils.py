"""StatefulSet pods' identities: ``<set>-<ordinal>``, hostname and subdomain annotations, claims.

Go: pkg/controller/statefulset/stateful_set_utils.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/statefulset/stateful_set_utils.go

Differs from Go: functions that change a pod through its pointer (``updateStorage``,
``updateIdentity``) return the changed pod; ``getPersistentVolumeClaims`` returns a dict in the
templates' order (Go: a map).
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from kschedlearn.api.v1 import OwnerReference, PersistentVolumeClaimVolumeSource, Pod, Volume, is_pod_ready
from kschedlearn.apis.apps.v1beta1.types import STATEFUL_SET_INIT_ANNOTATION
from kschedlearn.controller import controller_utils as controller
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

MAX_UPDATE_RETRIES = 10
"""Go: ``maxUpdateRetries`` — stateful_set_utils.go#L33-L34."""
#: Go: podapi.PodHostnameAnnotation / PodSubdomainAnnotation (pkg/api/v1/pod/util.go#L30-L38).
POD_HOSTNAME_ANNOTATION = "pod.beta.kubernetes.io/hostname"
POD_SUBDOMAIN_ANNOTATION = "pod.beta.kubernetes.io/subdomain"
CONTROLLER_KIND = ("apps/v1beta1", "StatefulSet")
"""Go: ``controllerKind`` —
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/statefulset/stateful_set.go#L52-L53"""

_STATEFUL_POD_REGEX = re.compile(r"(.*)-([0-9]+)$")
"""Go: ``statefulPodRegex`` — stateful_set_utils.go#L55-L56."""


def overlapping_stateful_sets_less(a: Any, b: Any) -> bool:
    """Go: ``overlappingStatefulSets.Less`` — stateful_set_utils.go#L48-L53."""
    return controller.controllers_by_creation_timestamp_less(a, b)


def get_parent_name_and_ordinal(pod: Pod) -> tuple[str, int]:
    """``(set name, ordinal)`` from ``<set>-<n>``, or ``("", -1)``.

    Go: ``getParentNameAndOrdinal`` — stateful_set_utils.go#L58-L73
    """
    parent = ""
    ordinal = -1
    sub_matches = _STATEFUL_POD_REGEX.fullmatch(pod.metadata.name)
    if sub_matches is None:
        return parent, ordinal
    parent = sub_matches.group(1)
    i = int(sub_matches.group(2))
    if i < 1 << 31:  # Go: strconv.ParseInt(s, 10, 32) fails above int32
        ordinal = i
    return parent, ordinal


def get_parent_name(pod: Pod) -> str:
    """Go: ``getParentName`` — stateful_set_utils.go#L75-L79."""
    return get_parent_name_and_ordinal(pod)[0]


def get_ordinal(pod: Pod) -> int:
    """Go: ``getOrdinal`` — stateful_set_utils.go#L81-L85."""
    return get_parent_name_and_ordinal(pod)[1]


def get_pod_name(set_: Any, ordinal: int) -> str:
    """Go: ``getPodName`` — stateful_set_utils.go#L87-L90."""
    return sprintf("%s-%d", set_.metadata.name, ordinal)


def get_persistent_volume_claim_name(set_: Any, claim: Any, ordinal: int) -> str:
    """Go: ``getPersistentVolumeClaimName`` — stateful_set_utils.go#L92-L97."""
    return sprintf("%s-%s-%d", claim.metadata.name, set_.metadata.name, ordinal)


def is_member_of(set_: Any, pod: Pod) -> bool:
    """Go: ``isMemberOf`` — stateful_set_utils.go#L99-L102."""
    return get_parent_name(pod) == set_.metadata.name


def identity_matches(set_: Any, pod: Pod) -> bool:
    """Name, namespace, hostname and subdomain annotations all as the set would give them.

    Go: ``identityMatches`` — stateful_set_utils.go#L104-L114
    """
    parent, ordinal = get_parent_name_and_ordinal(pod)
    return (ordinal >= 0 and set_.metadata.name == parent and pod.metadata.name == get_pod_name(set_, ordinal)
            and pod.metadata.namespace == set_.metadata.namespace
            and pod.metadata.annotations.get(POD_HOSTNAME_ANNOTATION, "") == pod.metadata.name
            and pod.metadata.annotations.get(POD_SUBDOMAIN_ANNOTATION, "") == set_.spec.service_name)


def storage_matches(set_: Any, pod: Pod) -> bool:
    """Go: ``storageMatches`` — stateful_set_utils.go#L116-L136."""
    ordinal = get_ordinal(pod)
    if ordinal < 0:
        return False
    volumes = {volume.name: volume for volume in pod.spec.volumes}
    for claim in set_.spec.volume_claim_templates:
        volume = volumes.get(claim.metadata.name)
        if (volume is None or volume.persistent_volume_claim is None
                or volume.persistent_volume_claim.claim_name != get_persistent_volume_claim_name(set_, claim, ordinal)):
            return False
    return True


def get_persistent_volume_claims(set_: Any, pod: Pod) -> dict[str, Any]:
    """Template name → the claim this pod gets. Go: ``getPersistentVolumeClaims`` — stateful_set_utils.go#L138-L153."""
    ordinal = get_ordinal(pod)
    claims = {}
    for template in set_.spec.volume_claim_templates:
        claim = attrs.evolve(template, metadata=attrs.evolve(
            template.metadata, name=get_persistent_volume_claim_name(set_, template, ordinal),
            namespace=set_.metadata.namespace, labels=dict(set_.spec.selector.match_labels)))
        claims[template.metadata.name] = claim
    return claims


def update_storage(set_: Any, pod: Pod) -> Pod:
    """Go: ``updateStorage`` — stateful_set_utils.go#L155-L179 (returns the changed pod)."""
    current_volumes = pod.spec.volumes
    claims = get_persistent_volume_claims(set_, pod)
    new_volumes = []
    for name, claim in claims.items():
        new_volumes.append(Volume(name=name, persistent_volume_claim=PersistentVolumeClaimVolumeSource(
            claim_name=claim.metadata.name, read_only=False)))
    for volume in current_volumes:
        if volume.name not in claims:
            new_volumes.append(volume)
    return attrs.evolve(pod, spec=attrs.evolve(pod.spec, volumes=tuple(new_volumes)))


def update_identity(set_: Any, pod: Pod) -> Pod:
    """Go: ``updateIdentity`` — stateful_set_utils.go#L181-L190 (returns the changed pod)."""
    name = get_pod_name(set_, get_ordinal(pod))
    annotations = {**pod.metadata.annotations, POD_HOSTNAME_ANNOTATION: name,
                   POD_SUBDOMAIN_ANNOTATION: set_.spec.service_name}
    return attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, name=name, namespace=set_.metadata.namespace,
                                                   annotations=annotations))


def is_running_and_ready(pod: Pod) -> bool:
    """Running, Ready, and not held back by ``pod.alpha.kubernetes.io/initialized: "false"``.

    Go: ``isRunningAndReady`` — stateful_set_utils.go#L192-L212
    """
    if pod.status.phase != "Running":
        return False
    pod_ready = is_pod_ready(pod)
    # User may have specified a pod readiness override through a debug annotation.
    initialized = pod.metadata.annotations.get(STATEFUL_SET_INIT_ANNOTATION)
    if initialized is not None:
        init_annotation = {"1": True, "t": True, "T": True, "TRUE": True, "true": True, "True": True,
                           "0": False, "f": False, "F": False, "FALSE": False, "false": False,
                           "False": False}.get(initialized)
        if init_annotation is None:
            glog.v(4).infof("Failed to parse %v annotation on pod %v: %v", STATEFUL_SET_INIT_ANNOTATION,
                            pod.metadata.name, sprintf('strconv.ParseBool: parsing %q: invalid syntax', initialized))
        elif not init_annotation:
            glog.v(4).infof("StatefulSet pod %v waiting on annotation %v", pod.metadata.name,
                            STATEFUL_SET_INIT_ANNOTATION)
            pod_ready = init_annotation
    return pod_ready


def is_created(pod: Pod) -> bool:
    """Stored by the API server (it has a phase). Go: ``isCreated`` — stateful_set_utils.go#L214-L217."""
    return pod.status.phase != ""


def is_failed(pod: Pod) -> bool:
    """Go: ``isFailed`` — stateful_set_utils.go#L219-L222."""
    return pod.status.phase == "Failed"


def is_terminated(pod: Pod) -> bool:
    """Go: ``isTerminated`` — stateful_set_utils.go#L224-L227."""
    return pod.metadata.deletion_timestamp is not None


def is_healthy(pod: Pod) -> bool:
    """Go: ``isHealthy`` — stateful_set_utils.go#L229-L232."""
    return is_running_and_ready(pod) and not is_terminated(pod)


def new_controller_ref(set_: Any) -> OwnerReference:
    """Go: ``newControllerRef`` — stateful_set_utils.go#L234-L246."""
    return OwnerReference(api_version=CONTROLLER_KIND[0], kind=CONTROLLER_KIND[1], name=set_.metadata.name,
                          uid=set_.metadata.uid, block_owner_deletion=True, controller=True)


def new_stateful_set_pod(set_: Any, ordinal: int) -> Pod:
    """The pod of ``ordinal``: from the template, named ``<set>-<ordinal>``, identity and storage set.

    Go: ``newStatefulSetPod`` — stateful_set_utils.go#L248-L255
    """
    pod = controller.get_pod_from_template(set_.spec.template, set_, new_controller_ref(set_))
    pod = attrs.evolve(pod, metadata=attrs.evolve(pod.metadata, name=get_pod_name(set_, ordinal)))
    pod = update_identity(set_, pod)
    pod = update_storage(set_, pod)
    return pod


def ascending_ordinal_less(a: Pod, b: Pod) -> bool:
    """Go: ``ascendingOrdinal.Less`` — stateful_set_utils.go#L270-L272."""
    return get_ordinal(a) < get_ordinal(b)


__all__ = ["CONTROLLER_KIND", "MAX_UPDATE_RETRIES", "POD_HOSTNAME_ANNOTATION", "POD_SUBDOMAIN_ANNOTATION",
           "ascending_ordinal_less", "get_ordinal", "get_parent_name", "get_parent_name_and_ordinal",
           "get_persistent_volume_claim_name", "get_persistent_volume_claims", "get_pod_name", "identity_matches",
           "is_created", "is_failed", "is_healthy", "is_member_of", "is_running_and_ready", "is_terminated",
           "new_controller_ref", "new_stateful_set_pod", "overlapping_stateful_sets_less", "storage_matches",
           "update_identity", "update_storage"]

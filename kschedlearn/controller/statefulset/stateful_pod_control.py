"""How the StatefulSet controller creates, updates and deletes its pods (and creates their claims).

Go: pkg/controller/statefulset/stateful_pod_control.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/statefulset/stateful_pod_control.go

Differs from Go: ``UpdateStatefulSetStatus`` changes ``set`` through its pointer in Go; the
caller here gets nothing back (Go's callers do not read it after the call either). Errors are
raised.
"""

from __future__ import annotations

from typing import Any, Protocol

import attrs

from kschedlearn.apimachinery.api.errors import is_already_exists, is_not_found
from kschedlearn.apimachinery.util.errors import new_aggregate
from kschedlearn.apimachinery.util.runtime import PANICS, handle_error
from kschedlearn.client.retry import DEFAULT_BACKOFF, retry_on_conflict
from kschedlearn.controller.statefulset.stateful_set_utils import (
    get_persistent_volume_claims,
    identity_matches,
    storage_matches,
    update_identity,
    update_storage,
)
from kschedlearn.trace.gofmt import sprintf


class StatefulPodControlInterface(Protocol):
    """Go: ``StatefulPodControlInterface`` — stateful_pod_control.go#L36-L56."""

    def create_stateful_pod(self, set_: Any, pod: Any) -> None: ...
    def update_stateful_pod(self, set_: Any, pod: Any) -> None: ...
    def delete_stateful_pod(self, set_: Any, pod: Any) -> None: ...
    def update_stateful_set_status(self, set_: Any, replicas: int, generation: int) -> None: ...


def new_real_stateful_pod_control(client: Any, set_lister: Any, pod_lister: Any, pvc_lister: Any,
                                  recorder: Any) -> RealStatefulPodControl:
    """Go: ``NewRealStatefulPodControl`` — stateful_pod_control.go#L58-L66."""
    return RealStatefulPodControl(client, set_lister, pod_lister, pvc_lister, recorder)


@attrs.define(eq=False)
class RealStatefulPodControl:
    """Go: ``realStatefulPodControl`` — stateful_pod_control.go#L68-L76."""

    client: Any
    set_lister: Any
    pod_lister: Any
    pvc_lister: Any
    recorder: Any

    def create_stateful_pod(self, set_: Any, pod: Any) -> None:
        """Its claims first, then the pod. Go: ``CreateStatefulPod`` — stateful_pod_control.go#L78-L92."""
        try:
            self.create_persistent_volume_claims(set_, pod)
        except PANICS:
            raise
        except Exception as err:
            self.record_pod_event("create", set_, pod, err)
            raise
        try:
            self.client.core().pods(set_.metadata.namespace).create(pod)
        except PANICS:
            raise
        except Exception as err:
            # sink already exists errors
            if is_already_exists(err):
                raise
            self.record_pod_event("create", set_, pod, err)
            raise
        self.record_pod_event("create", set_, pod, None)

    def update_stateful_pod(self, set_: Any, pod: Any) -> None:
        """Give the pod its identity and storage back if they drifted, retrying on conflicts.

        Go: ``UpdateStatefulPod`` — stateful_pod_control.go#L94-L145
        """
        attempted_update = [False]
        current = [pod]

        def attempt() -> None:
            p = current[0]
            # assume the Pod is consistent
            consistent = True
            # if the Pod does not conform to its identity, update the identity and dirty the Pod
            if not identity_matches(set_, p):
                p = update_identity(set_, p)
                consistent = False
            # if the Pod does not conform to the StatefulSet's storage requirements, update the Pod's PVC's,
            # dirty the Pod, and create any missing PVCs
            if not storage_matches(set_, p):
                p = update_storage(set_, p)
                consistent = False
                try:
                    self.create_persistent_volume_claims(set_, p)
                except PANICS:
                    raise
                except Exception as err:
                    self.record_pod_event("update", set_, p, err)
                    raise
            current[0] = p
            # if the Pod is not dirty do nothing
            if consistent:
                return
            attempted_update[0] = True
            # commit the update, retrying on conflicts
            try:
                self.client.core().pods(set_.metadata.namespace).update(p)
                return
            except PANICS:
                raise
            except Exception as update_err:
                try:
                    current[0] = self.pod_lister.pods(set_.metadata.namespace).get(p.metadata.name)
                except PANICS:
                    raise
                except Exception as err:  # noqa: BLE001 - Go reports it and goes on
                    handle_error(RuntimeError(sprintf("error getting updated Pod %s/%s from lister: %v",
                                                      set_.metadata.namespace, p.metadata.name, err)))
                raise update_err

        err: BaseException | None = None
        try:
            retry_on_conflict(DEFAULT_BACKOFF, attempt)
        except PANICS:
            raise
        except Exception as exc:  # noqa: BLE001 - Go: err
            err = exc
        if attempted_update[0]:
            self.record_pod_event("update", set_, current[0], err)
        if err is not None:
            raise err

    def delete_stateful_pod(self, set_: Any, pod: Any) -> None:
        """Go: ``DeleteStatefulPod`` — stateful_pod_control.go#L147-L151."""
        try:
            self.client.core().pods(set_.metadata.namespace).delete(pod.metadata.name)
        except PANICS:
            raise
        except Exception as err:
            self.record_pod_event("delete", set_, pod, err)
            raise
        self.record_pod_event("delete", set_, pod, None)

    def update_stateful_set_status(self, set_: Any, replicas: int, generation: int) -> None:
        """Write ``status.replicas`` and ``observedGeneration``, retrying on conflicts.

        Go: ``UpdateStatefulSetStatus`` — stateful_pod_control.go#L153-L177
        """
        current = [set_]

        def attempt() -> None:
            s = attrs.evolve(current[0], status=attrs.evolve(current[0].status, replicas=replicas,
                                                             observed_generation=generation))
            current[0] = s
            try:
                self.client.apps().stateful_sets(s.metadata.namespace).update_status(s)
                return
            except PANICS:
                raise
            except Exception as update_err:
                try:
                    current[0] = self.set_lister.stateful_sets(s.metadata.namespace).get(s.metadata.name)
                except PANICS:
                    raise
                except Exception as err:  # noqa: BLE001 - Go reports it and goes on
                    handle_error(RuntimeError(sprintf("error getting updated StatefulSet %s/%s from lister: %v",
                                                      s.metadata.namespace, s.metadata.name, err)))
                raise update_err

        retry_on_conflict(DEFAULT_BACKOFF, attempt)

    def record_pod_event(self, verb: str, set_: Any, pod: Any, err: BaseException | None) -> None:
        """Go: ``recordPodEvent`` — stateful_pod_control.go#L179-L193."""
        if err is None:
            reason = sprintf("Successful%s", verb.title())
            message = sprintf("%s Pod %s in StatefulSet %s successful", verb.lower(), pod.metadata.name,
                              set_.metadata.name)
            self.recorder.event(set_, "Normal", reason, message)
        else:
            reason = sprintf("Failed%s", verb.title())
            message = sprintf("%s Pod %s in StatefulSet %s failed error: %s", verb.lower(), pod.metadata.name,
                              set_.metadata.name, err)
            self.recorder.event(set_, "Warning", reason, message)

    def record_claim_event(self, verb: str, set_: Any, pod: Any, claim: Any, err: BaseException | None) -> None:
        """Go: ``recordClaimEvent`` — stateful_pod_control.go#L195-L210."""
        if err is None:
            reason = sprintf("Successful%s", verb.title())
            message = sprintf("%s Claim %s Pod %s in StatefulSet %s success", verb.lower(), claim.metadata.name,
                              pod.metadata.name, set_.metadata.name)
            self.recorder.event(set_, "Normal", reason, message)
        else:
            reason = sprintf("Failed%s", verb.title())
            message = sprintf("%s Claim %s for Pod %s in StatefulSet %s failed error: %s", verb.lower(),
                              claim.metadata.name, pod.metadata.name, set_.metadata.name, err)
            self.recorder.event(set_, "Warning", reason, message)

    def create_persistent_volume_claims(self, set_: Any, pod: Any) -> None:
        """Create the pod's claims that do not exist yet. Go: ``createPersistentVolumeClaims`` — stateful_pod_control.go#L212-L236."""
        errs = []
        for claim in get_persistent_volume_claims(set_, pod).values():
            try:
                self.pvc_lister.persistent_volume_claims(claim.metadata.namespace).get(claim.metadata.name)
            except PANICS:
                raise
            except Exception as err:
                if is_not_found(err):
                    try:
                        self.client.core().persistent_volume_claims(claim.metadata.namespace).create(claim)
                        create_err = None
                    except PANICS:
                        raise
                    except Exception as exc:  # noqa: BLE001 - Go: err
                        create_err = exc
                        errs.append(RuntimeError(sprintf("Failed to create PVC %s: %s", claim.metadata.name, exc)))
                    if create_err is None or not is_already_exists(create_err):
                        self.record_claim_event("create", set_, pod, claim, create_err)
                else:
                    errs.append(RuntimeError(sprintf("Failed to retrieve PVC %s: %s", claim.metadata.name, err)))
                    self.record_claim_event("create", set_, pod, claim, err)
        aggregate = new_aggregate(errs)
        if aggregate is not None:
            raise aggregate


__all__ = ["RealStatefulPodControl", "StatefulPodControlInterface", "new_real_stateful_pod_control"]

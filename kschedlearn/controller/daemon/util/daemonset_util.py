"""The template-generation label of daemon pods, and availability.

Go: pkg/controller/daemon/util/daemonset_util.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/daemon/util/daemonset_util.go

A DaemonSet's pods carry ``pod-template-generation=<spec.templateGeneration>``; a rolling update
replaces the pods whose label is older.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import PodTemplateSpec, is_pod_available
from kschedlearn.apis.extensions.v1beta1.types import DAEMON_SET_TEMPLATE_GENERATION_KEY
from kschedlearn.trace.gofmt import sprintf
from kschedlearn.util import labels as labelsutil


def get_pod_template_with_generation(template: PodTemplateSpec, generation: int) -> PodTemplateSpec:
    """A copy of the template with the generation label. Go: ``GetPodTemplateWithGeneration`` — daemonset_util.go#L29-L41."""
    template_generation_str = sprintf("%v", generation)
    return attrs.evolve(template, metadata=attrs.evolve(template.metadata, labels=labelsutil.clone_and_add_label(
        template.metadata.labels, DAEMON_SET_TEMPLATE_GENERATION_KEY, template_generation_str)))


def is_pod_updated(ds_template_generation: int, pod: Any) -> bool:
    """Go: ``IsPodUpdated`` — daemonset_util.go#L43-L48."""
    pod_template_generation = pod.metadata.labels.get(DAEMON_SET_TEMPLATE_GENERATION_KEY)
    ds_template_generation_str = sprintf("%v", ds_template_generation)
    return pod_template_generation is not None and pod_template_generation == ds_template_generation_str


def split_by_available_pods(min_ready_seconds: int, pods: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    """(available, unavailable). Go: ``SplitByAvailablePods`` — daemonset_util.go#L50-L62."""
    unavailable_pods = []
    available_pods = []
    for pod in pods:
        if is_pod_available(pod, min_ready_seconds, sim.now()):
            available_pods.append(pod)
        else:
            unavailable_pods.append(pod)
    return available_pods, unavailable_pods


__all__ = ["get_pod_template_with_generation", "is_pod_updated", "split_by_available_pods"]

"""Defaulting of ``apps/v1beta1`` objects.

Go: ``pkg/apis/apps/v1beta1/defaults.go``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/apis/apps/v1beta1/defaults.go)

Differs from Go: values are frozen, so each function returns the defaulted copy; an empty
``labels`` map counts as absent.
"""

from __future__ import annotations

from typing import TypeVar

import attrs

from kschedlearn.api.v1.others import StatefulSet
from kschedlearn.apimachinery.apis.meta.v1 import LabelSelector
from kschedlearn.apis.extensions.v1beta1.types import (
    ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE,
    Deployment,
    RollingUpdateDeployment,
)

D = TypeVar("D", bound=Deployment)


def set_defaults_stateful_set(obj: StatefulSet) -> StatefulSet:
    """Selector and labels from the template's labels; 1 replica.

    Go: SetDefaults_StatefulSet — defaults.go#L33-L49
    """
    labels = obj.spec.template.metadata.labels
    spec, meta = obj.spec, obj.metadata
    if labels:
        if spec.selector is None:
            spec = attrs.evolve(spec, selector=LabelSelector(match_labels=dict(labels)))
        if len(meta.labels) == 0:
            meta = attrs.evolve(meta, labels=dict(labels))
    if spec.replicas is None:
        spec = attrs.evolve(spec, replicas=1)
    return attrs.evolve(obj, metadata=meta, spec=spec)


def set_defaults_deployment(obj: D) -> D:
    """As extensions' defaults, but maxUnavailable and maxSurge 25%, a revision history of 2 and
    a progress deadline of 600 s.

    Go: SetDefaults_Deployment — defaults.go#L51-L103
    """
    labels = obj.spec.template.metadata.labels
    spec, meta = obj.spec, obj.metadata
    if labels:
        if spec.selector is None:
            spec = attrs.evolve(spec, selector=LabelSelector(match_labels=dict(labels)))
        if len(meta.labels) == 0:
            meta = attrs.evolve(meta, labels=dict(labels))
    if spec.replicas is None:
        spec = attrs.evolve(spec, replicas=1)
    strategy = spec.strategy
    if strategy.type == "":
        strategy = attrs.evolve(strategy, type=ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE)
    if strategy.type == ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE:
        rolling_update = strategy.rolling_update or RollingUpdateDeployment()
        if rolling_update.max_unavailable is None:
            rolling_update = attrs.evolve(rolling_update, max_unavailable="25%")
        if rolling_update.max_surge is None:
            rolling_update = attrs.evolve(rolling_update, max_surge="25%")
        strategy = attrs.evolve(strategy, rolling_update=rolling_update)
    spec = attrs.evolve(spec, strategy=strategy)
    if spec.revision_history_limit is None:
        spec = attrs.evolve(spec, revision_history_limit=2)
    if spec.progress_deadline_seconds is None:
        spec = attrs.evolve(spec, progress_deadline_seconds=600)
    return attrs.evolve(obj, metadata=meta, spec=spec)


__all__ = ["set_defaults_deployment", "set_defaults_stateful_set"]

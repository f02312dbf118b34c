"""Defaulting of ``extensions/v1beta1`` objects as the 1.6 API server applies it on decode.

Go: ``pkg/apis/extensions/v1beta1/defaults.go``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/apis/extensions/v1beta1/defaults.go)

Differs from Go: values are frozen, so each function returns the defaulted copy (Go mutates
``obj`` through its pointer); an empty ``labels`` map counts as absent (Go tells a nil map from
an empty one, JSON ``{}`` decodes to the latter).
"""

from __future__ import annotations

import attrs

from kschedlearn.apimachinery.apis.meta.v1 import LabelSelector
from kschedlearn.apis.extensions.v1beta1.types import (
    ROLLING_UPDATE_DAEMON_SET_STRATEGY_TYPE,
    ON_DELETE_DAEMON_SET_STRATEGY_TYPE,
    ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE,
    DaemonSet,
    Deployment,
    ReplicaSet,
    RollingUpdateDaemonSet,
    RollingUpdateDeployment,
)


def set_defaults_daemon_set(obj: DaemonSet) -> DaemonSet:
    """Selector and labels from the template's labels; ``OnDelete`` updates; maxUnavailable 1.

    Go: SetDefaults_DaemonSet — defaults.go#L36-L65
    """
    labels = obj.spec.template.metadata.labels
    spec, meta = obj.spec, obj.metadata
    if labels:
        if spec.selector is None:
            spec = attrs.evolve(spec, selector=LabelSelector(match_labels=dict(labels)))
        if len(meta.labels) == 0:
            meta = attrs.evolve(meta, labels=dict(labels))
    update_strategy = spec.update_strategy
    if update_strategy.type == "":
        update_strategy = attrs.evolve(update_strategy, type=ON_DELETE_DAEMON_SET_STRATEGY_TYPE)
    if update_strategy.type == ROLLING_UPDATE_DAEMON_SET_STRATEGY_TYPE:
        if update_strategy.rolling_update is None:
            update_strategy = attrs.evolve(update_strategy, rolling_update=RollingUpdateDaemonSet())
        if update_strategy.rolling_update.max_unavailable is None:
            update_strategy = attrs.evolve(update_strategy, rolling_update=attrs.evolve(
                update_strategy.rolling_update, max_unavailable=1))
    return attrs.evolve(obj, metadata=meta, spec=attrs.evolve(spec, update_strategy=update_strategy))


def set_defaults_deployment(obj: Deployment) -> Deployment:
    """Selector and labels from the template; 1 replica; RollingUpdate with maxUnavailable 1 and
    maxSurge 1 (no revision history limit, no progress deadline: those are apps/v1beta1's).

    Go: SetDefaults_Deployment — defaults.go#L67-L105
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
    if strategy.type == ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE or strategy.rolling_update is not None:
        rolling_update = strategy.rolling_update or RollingUpdateDeployment()
        if rolling_update.max_unavailable is None:
            rolling_update = attrs.evolve(rolling_update, max_unavailable=1)
        if rolling_update.max_surge is None:
            rolling_update = attrs.evolve(rolling_update, max_surge=1)
        strategy = attrs.evolve(strategy, rolling_update=rolling_update)
    return attrs.evolve(obj, metadata=meta, spec=attrs.evolve(spec, strategy=strategy))


def set_defaults_replica_set(obj: ReplicaSet) -> ReplicaSet:
    """Selector and labels from the template's labels; 1 replica.

    Go: SetDefaults_ReplicaSet — defaults.go#L107-L125
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


__all__ = ["set_defaults_daemon_set", "set_defaults_deployment", "set_defaults_replica_set"]

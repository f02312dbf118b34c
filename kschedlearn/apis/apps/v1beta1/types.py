"""The ``apps/v1beta1`` kinds: StatefulSet, Deployment (same fields as extensions'), Scale.

Go: ``pkg/apis/apps/v1beta1/types.go``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/apis/apps/v1beta1/types.go).
In 1.6 both groups serve one stored Deployment (the API server converts at its boundary); the
controllers read and write the ``extensions/v1beta1`` form.

Differs from Go: the apps Deployment and Scale are subclasses of the extensions ones with
another ``api_version`` (Go declares the same fields twice); StatefulSet lives in
:mod:`kschedlearn.api.v1.others` (the scheduler already read it) and is re-exported here.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from kschedlearn.api.v1.others import StatefulSet, StatefulSetSpec, StatefulSetStatus
from kschedlearn.apis.extensions.v1beta1 import types as ext

__all__ = ["GROUP_VERSION", "STATEFUL_SET_INIT_ANNOTATION", "Deployment", "Scale", "StatefulSet",
           "StatefulSetSpec", "StatefulSetStatus"]

#: Go: SchemeGroupVersion of this package (register.go).
GROUP_VERSION = "apps/v1beta1"
#: Go: StatefulSetInitAnnotation — types.go#L26-L27 ("false" holds a pod's readiness back).
STATEFUL_SET_INIT_ANNOTATION = "pod.alpha.kubernetes.io/initialized"


@attrs.frozen(kw_only=True)
class Deployment(ext.Deployment):
    """Go: apps/v1beta1.Deployment (types.go#L158-L172)."""

    api_version: ClassVar[str] = GROUP_VERSION


@attrs.frozen(kw_only=True)
class Scale(ext.Scale):
    """Go: apps/v1beta1.Scale (types.go#L59-L73)."""

    api_version: ClassVar[str] = GROUP_VERSION

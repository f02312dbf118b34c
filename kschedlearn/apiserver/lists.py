"""List responses: the items plus the resourceVersion the list was read at.

Go: ``metav1.ListMeta`` and the ``*List`` kinds (``v1.PodList``, ``v1.NodeList``, ...),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go

Differs from Go: one generic ``List`` value stands for every ``<Kind>List`` type; its ``kind``
field holds the Go name (``"PodList"``).
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen(kw_only=True)
class ListMeta:
    """Go: metav1.ListMeta (``resource_version`` is what a Reflector watches from)."""

    resource_version: str = ""
    self_link: str = ""


@attrs.frozen(kw_only=True)
class List:
    """``<Kind>List``: ``items`` sorted by namespace/name, ``metadata.resource_version``."""

    kind: str
    items: tuple[Any, ...] = ()
    metadata: ListMeta = attrs.field(factory=ListMeta)

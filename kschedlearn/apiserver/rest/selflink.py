"""``metadata.selfLink`` as 1.6's API installer formed it, quirks included.

Go: the ``GenerateLink`` of the two ``ScopeNamer``s of the API installer, ``rootScopeNaming``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/installer.go#L841-L854)
and ``scopeNaming``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/installer.go#L915-L932),
called by the REST handlers' ``setSelfLink``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go#L1110-L1120)
and ``setListSelfLink``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go#L1156-L1177)
and by the watch server's ``Fixup``.

- A namespaced object: ``<prefix>/namespaces/<ns>/<resource>/<name>`` plus ``/<subresource>`` when
  the route was a subresource (so a PUT of ``pods/web-1/status`` answers with a selfLink ending
  in ``/status``).
- A cluster-scoped object: ``path.Join(prefix, resourcePath, "/") + name + suffix``. ``path.Join``
  drops the trailing slash, so a node's selfLink is ``/api/v1/nodesnode-1`` and one answered on
  ``nodes/node-1/status`` is ``/api/v1/nodes/node-1/statusnode-1/status`` — 1.6's quirk, kept.
- A list: the request's path as the client sent it (escaped), whatever resource it names.
- A ``Status`` (bindings, evictions, deletes answered with a Status) gets none: ``GenerateLink``
  fails on it and ``setSelfLink`` ignores the error.

Names and namespaces are escaped with Go's ``url.QueryEscape`` (a space becomes ``+``).
"""

from __future__ import annotations

import posixpath
from typing import Any
from urllib.parse import quote_plus

import attrs


def go_path_join(*elements: str) -> str:
    """Go: ``path.Join`` — the non-empty elements joined by ``/``, then cleaned (no trailing slash)."""
    return posixpath.normpath("/".join(e for e in elements if e))


def query_escape(text: str) -> str:
    """Go: ``url.QueryEscape`` (letters, digits and ``-_.~`` kept, a space as ``+``)."""
    return quote_plus(text, safe="-_.~")


@attrs.frozen
class Namer:
    """How one route links the objects it answers with (Go: the route's ``ScopeNamer``)."""

    prefix: str  # "/api/v1" or "/apis/<group>/<version>"
    resource: str
    namespaced: bool
    subresource: str = ""

    def item_link(self, name: str, namespace: str) -> str:
        """Go: ``GenerateLink`` of ``scopeNaming`` (the ``itemPathFn``) or ``rootScopeNaming``."""
        suffix = f"/{self.subresource}" if self.subresource else ""
        if self.namespaced:
            return (f"{self.prefix}/namespaces/{query_escape(namespace)}/{self.resource}/"
                    f"{query_escape(name)}{suffix}")
        resource_path = f"{self.resource}/{{name}}{suffix}" if self.subresource else self.resource
        return go_path_join(self.prefix, resource_path, "/") + query_escape(name) + suffix

    def link(self, obj: dict[str, Any]) -> dict[str, Any]:
        """``obj`` (JSON form) with its selfLink set; a Status or a nameless object unchanged."""
        meta = obj.get("metadata")
        if obj.get("kind") == "Status" or not isinstance(meta, dict) or not meta.get("name"):
            return obj
        link = self.item_link(meta["name"], meta.get("namespace", ""))
        return {**obj, "metadata": _with_self_link(meta, link)}

    def link_list(self, lst: dict[str, Any], request_path: str) -> dict[str, Any]:
        """Go: ``setListSelfLink`` — the list's own link is the request path; then each item's."""
        meta = _with_self_link(lst.get("metadata") or {}, request_path)
        return {**lst, "metadata": meta, "items": [self.link(item) for item in lst.get("items", [])]}


_META_ORDER = ("name", "generateName", "namespace", "selfLink")


def _with_self_link(meta: dict[str, Any], link: str) -> dict[str, Any]:
    """``meta`` with ``selfLink`` at its place in Go's field order (after the namespace)."""
    head = {k: meta[k] for k in _META_ORDER[:3] if k in meta}
    rest = {k: v for k, v in meta.items() if k not in _META_ORDER}
    return {**head, "selfLink": link, **rest}


__all__ = ["Namer", "query_escape", "go_path_join"]

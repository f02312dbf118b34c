"""Load multi-document YAML manifests (scenario files) into API objects.

Go: no direct twin; it plays the part of ``kubectl create -f`` decoding through
the universal deserializer (``pkg/api`` scheme + ``k8s.io/apimachinery`` YAML/JSON
serializers), https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/kubectl/resource/visitor.go

Each document must have a ``kind`` known to :data:`KINDS`; ``kind: List`` documents
are expanded into their ``items``. Empty documents are skipped. Every error is a
:class:`~kschedlearn.api.errors.ManifestError` prefixed with the file and the
1-based document index, e.g.
``scenario.yaml: document 2: Pod default/web-1: spec.containers[0].resources.requests.cpu: invalid quantity "12Q"``.

Differs from Go: PyYAML (YAML 1.1) parses the text; timestamps it turns into
datetimes are accepted where a time is expected.
"""

from __future__ import annotations

import os
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1.codec import TopLevelObject, describe_object
from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.others import (
    Binding,
    Endpoints,
    Event,
    PersistentVolume,
    PersistentVolumeClaim,
    ReplicaSet,
    ReplicationController,
    Service,
    StatefulSet,
)
from kschedlearn.api.v1.pod import Pod
from kschedlearn.apis.apps.v1beta1 import types as apps_v1beta1
from kschedlearn.apis.extensions.v1beta1 import types as extensions_v1beta1

__all__ = ["KINDS", "KINDS_BY_API_VERSION", "decode_manifest", "load_manifests"]

#: kind -> class of every kind ``load_manifests`` understands (read-only).
KINDS: Mapping[str, type[TopLevelObject]] = types.MappingProxyType(
    {
        cls.kind: cls
        for cls in (
            Pod,
            Node,
            Binding,
            Event,
            Endpoints,
            Service,
            ReplicationController,
            ReplicaSet,
            StatefulSet,
            PersistentVolume,
            PersistentVolumeClaim,
            extensions_v1beta1.Deployment,
            extensions_v1beta1.DaemonSet,
        )
    }
)
#: (apiVersion, kind) -> class, for kinds 1.6 serves in more than one group version
#: (a Deployment is ``extensions/v1beta1`` or ``apps/v1beta1``); read-only.
KINDS_BY_API_VERSION: Mapping[tuple[str, str], type[TopLevelObject]] = types.MappingProxyType(
    {(cls.api_version, cls.kind): cls for cls in (*KINDS.values(), apps_v1beta1.Deployment)}
)


def decode_manifest(d: Any, *, source: str = "") -> TopLevelObject:
    """Decode one manifest dict, choosing the class by its ``kind``.

    kschedlearn-only: picks the class by ``kind`` as the universal deserializer does.
    """
    if not isinstance(d, Mapping):
        raise ManifestError("", "", f"expected a manifest map, got {type(d).__name__}", source=source)
    kind = d.get("kind")
    if not isinstance(kind, str) or not kind:
        raise ManifestError(describe_object("<no kind>", d.get("metadata")), "kind", "missing", source=source)
    cls = KINDS_BY_API_VERSION.get((d.get("apiVersion"), kind)) or KINDS.get(kind)
    if cls is None:
        known = ", ".join(sorted(KINDS))
        raise ManifestError(
            describe_object(kind, d.get("metadata")), "kind", f'unknown kind "{kind}" (known: {known})', source=source
        )
    return cls.from_dict(d, path=source)


def _is_path(text_or_path: str | os.PathLike[str]) -> bool:
    if isinstance(text_or_path, os.PathLike):
        return True
    return "\n" not in text_or_path and (
        text_or_path.endswith((".yaml", ".yml", ".json")) or os.path.exists(text_or_path)
    )


def _prefix(name: str, index: int) -> str:
    return f"{name}: document {index}" if name else f"document {index}"


def load_manifests(text_or_path: str | os.PathLike[str]) -> list[TopLevelObject]:
    """Load every object of a (multi-document) YAML text or file, in order.

    A string is taken as a file path when it has no newline and either names an
    existing file or ends in ``.yaml``/``.yml``/``.json``; otherwise it is YAML text.

    kschedlearn-only: the scenario-file loader (compare ``kubectl create -f``).
    """
    name = ""
    text: str
    if _is_path(text_or_path):
        name = str(text_or_path)
        try:
            text = Path(text_or_path).read_text(encoding="utf-8")
        except OSError as err:
            raise ManifestError("", "", f"cannot read: {err.strerror}", source=name) from None
    else:
        text = str(text_or_path)
    objects: list[TopLevelObject] = []
    for index, doc in enumerate(_documents(text, name), start=1):
        if doc is None:
            continue
        source = _prefix(name, index)
        if isinstance(doc, Mapping) and doc.get("kind") == "List":
            objects.extend(_decode_list(doc, source))
        else:
            objects.append(decode_manifest(doc, source=source))
    return objects


def _decode_list(doc: Mapping[str, Any], source: str) -> list[TopLevelObject]:
    items = doc.get("items") or []
    if not isinstance(items, list):
        raise ManifestError("List", "items", "expected a list", source=source)
    return [decode_manifest(item, source=f"{source}: items[{i}]") for i, item in enumerate(items)]


def _documents(text: str, name: str) -> list[Any]:
    """Parse all documents first so a syntax error names its document index."""
    try:
        return yaml_documents(text)
    except YAMLProblem as err:
        raise ManifestError("", "", str(err), source=_prefix(name, err.document)) from None


MAX_YAML_CHARS = 10 * 1024 * 1024
"""Largest YAML text accepted (a scenario or a manifest file; real ones are kilobytes)."""
MAX_YAML_DEPTH = 64
"""Deepest nesting of mappings and lists accepted (real manifests stay below 15)."""
MAX_YAML_VALUES = MAX_YAML_CHARS
"""Most values a document may hold once its aliases are expanded: text without aliases never
comes near it (each value takes at least one character), a billion-laughs bomb does."""
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's C loader where present


class YAMLProblem(ValueError):
    """YAML text that cannot be read: a syntax error, too large, or nested too deeply.

    Go: none (kschedlearn-only; Go's yaml.v2 decoder has its own limits).

    ``document`` is the 1-based index of the document it happened in.
    """

    def __init__(self, message: str, document: int) -> None:
        super().__init__(message)
        self.document = document


def yaml_documents(text: str) -> list[Any]:
    """Every document of ``text`` (safe loading), within ``MAX_YAML_CHARS`` and ``MAX_YAML_DEPTH``.

    Go: none (kschedlearn-only). libyaml's C loader is used where present (fast, and it refuses
    flow nesting deeper than 1000 itself); a RecursionError never escapes.
    """
    if len(text) > MAX_YAML_CHARS:
        raise YAMLProblem(f"the YAML text is {len(text):,} characters long; the limit is {MAX_YAML_CHARS:,}", 1)
    docs: list[Any] = []
    try:
        for doc in yaml.load_all(text, Loader=_LOADER):  # noqa: S506 - a safe loader
            docs.append(doc)
            depth, values = _measure(doc)
            if depth > MAX_YAML_DEPTH:
                raise YAMLProblem(f"nested at least {depth} levels deep; the limit is {MAX_YAML_DEPTH}", len(docs))
            if values > MAX_YAML_VALUES:
                raise YAMLProblem(f"aliases (&anchor/*alias) expand it to more than {MAX_YAML_VALUES:,} values; "
                                  f"the limit is {MAX_YAML_VALUES:,}", len(docs))
    except yaml.YAMLError as err:
        where = ""
        mark = getattr(err, "problem_mark", None)
        if mark is not None:
            where = f" at line {mark.line + 1}, column {mark.column + 1}"
        problem = getattr(err, "problem", None) or str(err)
        raise YAMLProblem(f"invalid YAML{where}: {problem}", len(docs) + 1) from None
    except RecursionError:
        raise YAMLProblem(f"invalid YAML: nested too deeply (the limit is {MAX_YAML_DEPTH} levels)",
                          len(docs) + 1) from None
    return docs


def _children(value: Any) -> list[Any] | None:
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, list):
        return value
    return None


def _measure(doc: Any) -> tuple[int, int]:
    """How deeply mappings and lists nest in ``doc`` and how many values it holds once every
    alias is expanded (iteratively, each shared value measured once: a billion-laughs document
    costs the size of its text, not of its expansion). A recursive alias counts as too deep."""
    if _children(doc) is None:
        return 0, 1
    memo: dict[int, tuple[int, int]] = {}
    open_ids: set[int] = set()
    stack: list[tuple[Any, bool]] = [(doc, False)]
    while stack:
        value, done = stack.pop()
        key, kids = id(value), _children(value) or []
        if done:
            depth = 1 + max((memo[id(k)][0] for k in kids if _children(k) is not None), default=0)
            count = 1 + sum(memo[id(k)][1] if _children(k) is not None else 1 for k in kids)
            memo[key] = (depth, count)
            open_ids.discard(key)
            if depth > MAX_YAML_DEPTH or count > MAX_YAML_VALUES:
                return depth, count
            continue
        if key in memo:
            continue
        open_ids.add(key)
        stack.append((value, True))
        for kid in kids:
            if _children(kid) is None or id(kid) in memo:
                continue
            if id(kid) in open_ids:  # an alias to one of its own ancestors: endless nesting
                return MAX_YAML_DEPTH + 1, 0
            stack.append((kid, False))
    return memo[id(doc)]


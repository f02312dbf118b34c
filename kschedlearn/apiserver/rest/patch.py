"""PATCH bodies as kubectl sends them: JSON merge, strategic merge and JSON patch.

Go: the patch handling of
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go
(``patchResource``): ``application/merge-patch+json`` (RFC 7386),
``application/strategic-merge-patch+json`` (apimachinery ``strategicpatch``) and
``application/json-patch+json`` (RFC 6902).

Differs from Go: the strategic merge knows the merge keys of the lists the scheduler's kinds
carry (containers and volumes by ``name``, ports by ``containerPort``, conditions by ``type``,
...) from a small table instead of Go struct tags; the ``$patch`` directives ``replace`` and
``delete`` and the ``$setElementOrder`` / ``$retainKeys`` / ``$deleteFromPrimitiveList``
bookkeeping keys kubectl adds are understood (the last three as no-ops or deletions).
"""

from __future__ import annotations

import copy
from typing import Any

MERGE_PATCH = "application/merge-patch+json"
STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json"
JSON_PATCH = "application/json-patch+json"
APPLY_PATCH = "application/apply-patch+yaml"

#: list field name → the key its elements merge on (strategic merge patch).
MERGE_KEYS: dict[str, str] = {
    "containers": "name", "initContainers": "name", "volumes": "name", "env": "name",
    "volumeMounts": "mountPath", "ports": "containerPort", "conditions": "type",
    "imagePullSecrets": "name", "ownerReferences": "uid", "taints": "key", "addresses": "type",
    "tolerations": "key",
}


class PatchError(ValueError):
    """A patch that cannot be applied (a 422/400 for the caller)."""


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: objects merge recursively, ``null`` deletes, anything else replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def strategic_merge_patch(target: Any, patch: Any) -> Any:
    """Kubernetes' strategic merge: like a merge patch, but keyed lists merge element-wise."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    if patch.get("$patch") == "replace":
        return {k: copy.deepcopy(v) for k, v in patch.items() if k != "$patch"}
    if patch.get("$patch") == "delete":
        return None
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if key.startswith("$setElementOrder/") or key in ("$patch", "$retainKeys"):
            continue
        if key.startswith("$deleteFromPrimitiveList/"):
            name = key.split("/", 1)[1]
            out[name] = [v for v in out.get(name, []) if v not in value]
            continue
        if value is None:
            out.pop(key, None)
        elif isinstance(value, list) and key in MERGE_KEYS and isinstance(out.get(key), list):
            out[key] = _merge_list(out[key], value, MERGE_KEYS[key])
        elif isinstance(value, dict):
            merged = strategic_merge_patch(out.get(key), value)
            if merged is None:
                out.pop(key, None)
            else:
                out[key] = merged
        else:
            out[key] = copy.deepcopy(value)
    return out


def _merge_list(current: list[Any], patch: list[Any], merge_key: str) -> list[Any]:
    out = [copy.deepcopy(e) for e in current]
    for element in patch:
        if not isinstance(element, dict) or merge_key not in element:
            raise PatchError(f"map: {element!r} does not contain declared merge key: {merge_key}")
        idx = next((i for i, e in enumerate(out) if isinstance(e, dict) and e.get(merge_key) == element[merge_key]), None)
        if element.get("$patch") == "delete":
            if idx is not None:
                del out[idx]
        elif idx is None:
            out.append({k: v for k, v in element.items() if not k.startswith("$")})
        else:
            out[idx] = strategic_merge_patch(out[idx], element)
    return out


def _pointer(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"invalid JSON pointer {path!r}")
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def _walk(doc: Any, parts: list[str]) -> Any:
    for part in parts:
        if isinstance(doc, list):
            doc = doc[_index(part, len(doc))]
        elif isinstance(doc, dict) and part in doc:
            doc = doc[part]
        else:
            raise PatchError(f"path /{'/'.join(parts)} does not exist")
    return doc


def _index(part: str, n: int, *, allow_end: bool = False) -> int:
    if part == "-" and allow_end:
        return n
    if not part.isdigit() or int(part) > n or (int(part) == n and not allow_end):
        raise PatchError(f"array index {part!r} out of range")
    return int(part)


def json_patch(target: Any, ops: Any) -> Any:
    """RFC 6902: add, remove, replace, move, copy, test."""
    if not isinstance(ops, list):
        raise PatchError("a JSON patch must be a list of operations")
    doc = copy.deepcopy(target)
    for i, op in enumerate(ops):
        if not isinstance(op, dict) or "op" not in op or "path" not in op:
            raise PatchError(f"operation {i}: needs 'op' and 'path'")
        doc = _apply_op(doc, op)
    return doc


def _apply_op(doc: Any, op: dict[str, Any]) -> Any:
    kind, parts = op["op"], _pointer(op["path"])
    if kind == "test":
        if _walk(doc, parts) != op.get("value"):
            raise PatchError(f"test failed at {op['path']}")
        return doc
    if kind in ("move", "copy"):
        value = copy.deepcopy(_walk(doc, _pointer(op.get("from", ""))))
        if kind == "move":
            doc = _remove(doc, _pointer(op["from"]))
        return _add(doc, parts, value)
    if kind == "remove":
        return _remove(doc, parts)
    if kind == "add":
        return _add(doc, parts, copy.deepcopy(op.get("value")))
    if kind == "replace":
        return _add(_remove(doc, parts), parts, copy.deepcopy(op.get("value")))
    raise PatchError(f"unknown JSON patch operation {kind!r}")


def _add(doc: Any, parts: list[str], value: Any) -> Any:
    if not parts:
        return value
    parent = _walk(doc, parts[:-1])
    last = parts[-1]
    if isinstance(parent, list):
        parent.insert(_index(last, len(parent), allow_end=True), value)
    elif isinstance(parent, dict):
        parent[last] = value
    else:
        raise PatchError(f"cannot add below a scalar at /{'/'.join(parts)}")
    return doc


def _remove(doc: Any, parts: list[str]) -> Any:
    if not parts:
        raise PatchError("cannot remove the whole document")
    parent = _walk(doc, parts[:-1])
    last = parts[-1]
    if isinstance(parent, list):
        del parent[_index(last, len(parent))]
    elif isinstance(parent, dict) and last in parent:
        del parent[last]
    else:
        raise PatchError(f"path /{'/'.join(parts)} does not exist")
    return doc


def apply_patch(content_type: str, target: dict[str, Any], patch: Any) -> dict[str, Any]:
    """Apply a patch body of the given content type to a manifest dict."""
    media = content_type.split(";")[0].strip()
    if media == MERGE_PATCH:
        return merge_patch(target, patch)
    if media == STRATEGIC_MERGE_PATCH:
        return strategic_merge_patch(target, patch)
    if media == JSON_PATCH:
        return json_patch(target, patch)
    raise PatchError(f"unsupported patch type {media!r} (use {MERGE_PATCH}, {STRATEGIC_MERGE_PATCH} or {JSON_PATCH})")


__all__ = ["apply_patch", "merge_patch", "strategic_merge_patch", "json_patch", "PatchError",
           "MERGE_PATCH", "STRATEGIC_MERGE_PATCH", "JSON_PATCH"]

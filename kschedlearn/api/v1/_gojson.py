"""Go's ``encoding/json`` key matching, for the places where 1.6 calls ``json.Unmarshal``.

Go: none — kschedlearn-only (Go's standard library ``encoding/json``, Go 1.7, which built
v1.6.1: ``decodeState.object`` and ``foldFunc``). ``codec`` consults :data:`_GO_JSON` while
decoding a struct.
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping, Sequence
from typing import Any


def _go_fold(key: str) -> str:
    """The case folding of Go's ``encoding/json`` key match (``bytes.EqualFold`` plus the
    Kelvin sign and long s that ``foldFunc`` special-cases)."""
    return key.replace("\u212a", "k").replace("\u017f", "s").lower()


def go_json_fields(names: Sequence[str], value: Mapping[str, Any]) -> dict[str, Any]:
    """The value of each field name as Go's ``encoding/json`` assigns it: every key of the
    object, in order, goes to the field whose name it equals, else to the first field whose name
    it equals case-insensitively; a later key overwrites an earlier one; unknown keys are dropped.

    Go: ``decodeState.object`` in encoding/json/decode.go (Go 1.7, which built v1.6.1).
    kschedlearn-only helper.
    """
    items: dict[str, Any] = {}
    for key, item in value.items():
        if not isinstance(key, str):
            continue
        target = next((n for n in names if n == key), None)
        if target is None:
            folded = _go_fold(key)
            target = next((n for n in names if _go_fold(n) == folded), None)
        if target is not None:
            items[target] = item
    return items


#: Set while :func:`decode_go_json` runs: struct keys then match as Go's encoding/json does.
_GO_JSON: contextvars.ContextVar[bool] = contextvars.ContextVar("kschedlearn_go_json", default=False)


def decode_go_json(cls: type, data: Any, *, path: str = "") -> Any:
    """Decode ``data`` (parsed JSON) into ``cls`` with Go's ``encoding/json`` key rules:
    case-insensitive match after an exact one, unknown keys ignored.

    For the places where 1.6 calls ``json.Unmarshal`` (the alpha annotations, the
    leader-election record); manifests go through the API machinery's decoder, which 1.6 runs
    on ugorji's case-sensitive codec, so :meth:`Serializable.from_dict` keeps exact keys.
    kschedlearn-only (Go: ``json.Unmarshal``).
    """
    token = _GO_JSON.set(True)
    try:
        return cls.from_dict(data, path=path)
    finally:
        _GO_JSON.reset(token)

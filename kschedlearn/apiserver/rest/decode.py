"""What 1.6's REST handlers say about a bad request body or a bad query parameter.

Go: the decode path of ``createHandler``/``UpdateResource`` in
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go
(``transformDecodeError``, ``summarizeData``), the serializer's ``SimpleMetaFactory.Interpret``
(encoding/json into ``struct{APIVersion, Kind string}``), ``runtime.notRegisteredErr``, and the
query-parameter path: ``metainternalversion.ParameterCodec.DecodeParameters`` (a label
selector, a field selector or ``timeoutSeconds`` it cannot convert is a plain error, which
``responsewriters.apiStatus`` answers as a 500 with an empty reason), ``storage.ParseWatchResourceVersion``
(a 422 ``Invalid`` on ``resourceVersion``) and ``ParseListResourceVersion`` (a plain strconv
error: 500).

Differs from Go: a body whose kind is another known kind (a Node posted to pods) gets Go's
``<Kind> in version "v1" cannot be handled as a <Kind>:`` prefix with kschedlearn's own ending
(Go's ends with the scheme's conversion error). Errors inside the object (a bad quantity, a
field of the wrong type) keep the prefix and end with kschedlearn's message naming the object,
the field and the value (Go's ugorji decoder names neither).
"""

from __future__ import annotations

import json
from typing import Any

from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1 import KINDS
from kschedlearn.api.v1._gojson_types import interpret_error
from kschedlearn.apimachinery import fields, labels
from kschedlearn.apimachinery.api.errors import Status, StatusDetails, StatusError, new_bad_request


def summarize_data(data: str, max_length: int = 30) -> str:
    """Go: ``summarizeData`` (the body's start as text when it is an object, else in hex)."""
    raw = data.encode("utf-8")
    if not raw:
        return "<empty>"
    cut = raw[:max_length]
    more = " ..." if len(raw) > max_length else ""
    if raw[:1] == b"{":
        return cut.decode("utf-8", "replace") + more
    return cut.hex() + more


def plain_error(message: str) -> StatusError:
    """A non-Status Go error as ``apiStatus`` answers it: 500, reason "" (StatusReasonUnknown)."""
    return StatusError(Status(message=message, reason="", code=500))


def _parse_group_version(api_version: str) -> tuple[str, str] | None:
    """Go: ``schema.ParseGroupVersion`` -> (group, version); None when it is not one."""
    if api_version in ("", "/"):
        return "", ""
    parts = api_version.split("/")
    if len(parts) == 1:
        return "", parts[0]
    if len(parts) == 2:
        return parts[0], parts[1]
    return None


def decode_body(body_text: str, kind: str, group_version: str) -> Any:
    """The request body as a ``kind`` object of ``group_version``, or 1.6's 400 BadRequest."""
    bad = interpret_error(body_text)
    if not bad:
        doc = json.loads(body_text)
        api_version = doc.get("apiVersion") or ""
        if _parse_group_version(api_version) is None:
            bad = f"unexpected GroupVersion string: {api_version}"
    if bad:  # Go: Interpret failed, so the decoder knows no kind (gvk nil)
        raise new_bad_request(f"the object provided is unrecognized (must be of type {kind}): {bad} "
                              f"({summarize_data(body_text)})")
    body_kind = doc.get("kind") or kind
    api_version = doc.get("apiVersion") or group_version
    version = _parse_group_version(api_version)[1]  # type: ignore[index]
    prefix = f"{body_kind} in version {json.dumps(version)} cannot be handled as a {kind}: "
    known = KINDS.get(body_kind)
    if known is None or known.api_version != api_version:
        raise new_bad_request(prefix + f"no kind {json.dumps(body_kind)} is registered for version "
                                       f"{json.dumps(api_version)}")
    if body_kind != kind:
        raise new_bad_request(prefix + f"a {body_kind} is not a {kind}: POST or PUT {kind} objects here")
    if api_version != group_version:
        raise new_bad_request(f"the API version in the data ({api_version}) does not match the expected "
                              f"API version ({group_version})")
    try:
        return known.from_dict({**doc, "kind": kind, "apiVersion": api_version}, path="request body")
    except ManifestError as err:
        raise new_bad_request(prefix + str(err)) from None


def _strconv(function: str, text: str, bits: int, signed: bool) -> int:
    """Go: ``strconv.ParseInt/ParseUint(text, 10, bits)``; raises ValueError with Go's text."""
    body = text[1:] if signed and text[:1] in "+-" else text
    if not body or not body.isascii() or not body.isdigit():
        raise ValueError(f"strconv.{function}: parsing {json.dumps(text)}: invalid syntax")
    value = int(text)
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not low <= value <= high:
        raise ValueError(f"strconv.{function}: parsing {json.dumps(text)}: value out of range")
    return value


def query_parameters(label_selector: str, field_selector: str, timeout: str) -> float | None:
    """Go: ``DecodeParameters`` into ListOptions: selectors and ``timeoutSeconds`` convertible
    (else a plain error: 500). Returns the timeout in seconds (None when not given)."""
    if label_selector:
        try:
            labels.parse(label_selector)
        except ValueError as err:
            raise plain_error(str(err)) from None
    if field_selector:
        try:
            fields.parse_selector(field_selector)
        except ValueError as err:
            raise plain_error(str(err)) from None
    if not timeout:
        return None
    try:
        return float(_strconv("ParseInt", timeout, 64, True))
    except ValueError as err:
        raise plain_error(str(err)) from None


def list_resource_version(rv: str) -> None:
    """Go: ``ParseListResourceVersion`` (cacher.List): a plain strconv error (500)."""
    if rv:
        try:
            _strconv("ParseUint", rv, 64, False)
        except ValueError as err:
            raise plain_error(str(err)) from None


def watch_resource_version(rv: str, resource: str) -> int:
    """Go: ``ParseWatchResourceVersion`` + ``InterpretWatchError``: 422 Invalid on resourceVersion."""
    if rv in ("", "0"):
        return 0
    try:
        return _strconv("ParseUint", rv, 64, False)
    except ValueError as err:
        detail = str(err)
    message = f'{resource} "" is invalid: resourceVersion: Invalid value: {json.dumps(rv)}: {detail}'
    raise StatusError(Status(message=message, reason="Invalid", code=422, details=StatusDetails(kind=resource)))

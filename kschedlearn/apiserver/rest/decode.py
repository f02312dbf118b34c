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

import attrs

from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1 import KINDS
from kschedlearn.api.v1._gojson_types import interpret_error
from kschedlearn.apimachinery import fields, labels
from kschedlearn.apimachinery.api.errors import Status, StatusDetails, StatusError, new_bad_request
from kschedlearn.apiserver.rest import negotiate, protobuf
from kschedlearn.apiserver.rest.types import RestRequest


def summarize_data(data: bytes | str, max_length: int = 30) -> str:
    """Go: ``summarizeData`` (the body's start as text when it is an object, else in hex)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
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


def _check_kind(doc: dict[str, Any], kind: str, group_version: str, body: bytes) -> Any:
    """Go: the typed half of ``Decode`` and ``transformDecodeError`` once the kind is known."""
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


def unrecognized(kind: str, detail: str, body: bytes) -> StatusError:
    """Go: ``transformDecodeError`` without a kind (the body's start as text or hex)."""
    return new_bad_request(f"the object provided is unrecognized (must be of type {kind}): {detail} "
                           f"({summarize_data(body)})")


def yaml_to_json(body: bytes) -> bytes:
    """Go: the YAML serializer's ``yaml.YAMLToJSON`` before the JSON decoder (one document)."""
    from kschedlearn.api.v1.yaml_load import YAMLProblem, yaml_documents  # noqa: PLC0415 - YAML bodies are rare

    try:
        docs = yaml_documents(body.decode("utf-8", errors="replace"))
    except YAMLProblem as err:
        raise new_bad_request(f"error converting YAML to JSON: {err}") from None
    return json.dumps(docs[0] if docs else None, default=str).encode("utf-8")


def json_document(req: RestRequest, kind: str) -> dict[str, Any]:
    """A JSON (or YAML) body as a dict, or 1.6's 400 when the serializer cannot find its kind.

    Go: ``SimpleMetaFactory.Interpret`` (encoding/json into ``struct{APIVersion, Kind string}``)
    and ``schema.ParseGroupVersion`` of its apiVersion; the error goes through
    ``transformDecodeError`` without a kind.
    """
    media = negotiate.input_media_type(req.content_type)
    body = yaml_to_json(req.body) if media == negotiate.YAML else req.body
    text = body.decode("utf-8", errors="replace")
    bad = interpret_error(text)
    if not bad:
        doc = json.loads(text)
        api_version = doc.get("apiVersion") or ""
        if _parse_group_version(api_version) is None:
            bad = f"unexpected GroupVersion string: {api_version}"
    if bad:
        raise unrecognized(kind, bad, body)
    return doc if isinstance(doc, dict) else {}  # JSON null: Go decodes it into an empty object


def decode_body(req: RestRequest, kind: str, group_version: str) -> Any:
    """The request body as a ``kind`` object of ``group_version``, or 1.6's 400 BadRequest.

    The body is JSON, YAML or protobuf, as its ``Content-Type`` says (415 for anything else).
    """
    if negotiate.input_media_type(req.content_type) == negotiate.PROTOBUF:
        return _decode_protobuf(req.body, kind, group_version)
    return _check_kind(json_document(req, kind), kind, group_version, req.body)


def _decode_protobuf(body: bytes, kind: str, group_version: str) -> Any:
    """Go: protobuf ``Serializer.Decode`` (prefix, ``runtime.Unknown``, ``copyKindDefaults``, the message)."""
    try:
        envelope = protobuf.decode_envelope(body)
    except protobuf.ProtobufError as err:
        raise unrecognized(kind, str(err), body) from None
    api_version = envelope.api_version or group_version  # copyKindDefaults: kind and version from the route
    body_kind = envelope.kind or kind
    message = protobuf.message_for(api_version, body_kind)
    if message is None:
        return _check_kind({"kind": body_kind, "apiVersion": api_version}, kind, group_version, body)
    try:
        doc = protobuf.decode_object(message, attrs.evolve(envelope, api_version=api_version, kind=body_kind))
    except protobuf.ProtobufError as err:
        version = _parse_group_version(api_version)
        raise new_bad_request(f"{body_kind} in version {json.dumps(version[1] if version else api_version)} "
                              f"cannot be handled as a {kind}: {err}") from None
    return _check_kind(doc, kind, group_version, body)


def decode_options(req: RestRequest) -> dict[str, Any]:
    """A DELETE's ``DeleteOptions`` body (JSON, YAML or protobuf) as a dict; ``{}`` for no body.

    Go: ``DeleteResource`` decodes with ``metainternalversion.Codecs`` and hands a decode error
    to ``scope.err`` as it is: a plain error, so 1.6 answers 500 with an empty reason (another
    kind: ``no kind "Pod" is registered for version "v1"``).
    """
    if not req.body:
        return {}
    media = negotiate.input_media_type(req.content_type)
    if media == negotiate.PROTOBUF:
        try:
            envelope = protobuf.decode_envelope(req.body)
            doc = {"apiVersion": envelope.api_version or "v1", "kind": envelope.kind or "DeleteOptions"}
            if doc["kind"] == "DeleteOptions":
                doc.update(protobuf.decode_message("meta.DeleteOptions", envelope.raw))
        except protobuf.ProtobufError as err:
            raise plain_error(str(err)) from None
    else:
        body = yaml_to_json(req.body) if media == negotiate.YAML else req.body
        text = body.decode("utf-8", errors="replace")
        bad = interpret_error(text)
        if bad:
            raise plain_error(bad)
        doc = json.loads(text) or {}
    kind, api_version = doc.get("kind") or "DeleteOptions", doc.get("apiVersion") or "v1"
    if kind != "DeleteOptions":
        raise plain_error(f"no kind {json.dumps(kind)} is registered for version {json.dumps(api_version)}")
    return doc


def strconv_int(text: str) -> int:
    """Go: ``strconv.ParseInt(text, 10, 64)``; raises ValueError with Go's text."""
    return _strconv("ParseInt", text, 64, True)


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
    (else a plain error: 500). Returns the timeout in seconds (None when not given).

    Differs from Go: a label selector's parse error is followed by the selector itself
    (`` (labelSelector "a===b")``); 1.6's text alone does not say which parameter was wrong.
    """
    if label_selector:
        try:
            labels.parse(label_selector)
        except ValueError as err:
            raise plain_error(f"{err} (labelSelector {json.dumps(label_selector, ensure_ascii=False)})") from None
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

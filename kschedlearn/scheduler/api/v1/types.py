"""The v1 (JSON) form of the scheduler Policy, decoded into the internal types.

Go: plugin/pkg/scheduler/api/v1/types.go (the versioned structs with their JSON tags) and the
generated conversions to the internal types of plugin/pkg/scheduler/api/types.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/api/v1/types.go#L27-L173

Differs from Go: Go declares a second set of structs for v1 and converts them; here the JSON is
decoded straight into the internal (frozen attrs) types, since both have the same shape.
Decoding follows 1.6's codec, which is *not* strict: unknown keys are ignored and ``null``
means "zero value". Wrong JSON types, a wrong ``kind`` or ``apiVersion`` and malformed JSON raise
:class:`PolicyError`, whose message names the field path (``predicates[4].argument...``).
A missing ``kind``/``apiVersion`` is accepted: Go decodes *into* a Policy, and the serializer
fills the missing type information from that target object.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any, Callable, Mapping, Optional, TypeVar

from kschedlearn.api.v1._gojson_types import interpret_error

from kschedlearn.scheduler.api.types import (
    ExtenderConfig,
    LabelPreference,
    LabelsPresence,
    Policy,
    PredicateArgument,
    PredicatePolicy,
    PriorityArgument,
    PriorityPolicy,
    ServiceAffinity,
    ServiceAntiAffinity,
    TLSClientConfig,
)

GROUP = ""
VERSION = "v1"
KIND_POLICY = "Policy"

T = TypeVar("T")


class PolicyError(ValueError):
    """A policy document that cannot be decoded; the message names the field path.

    Go: the decode errors of runtime.DecodeInto(latest.Codec, data, &policy).
    """


def _fail(path: str, problem: str) -> PolicyError:
    where = f"{path}: " if path else ""
    return PolicyError(f"Policy: {where}{problem}")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _describe(value: Any) -> str:
    return json.dumps(value)[:60]


# --- scalar fields ----------------------------------------------------------------------


def _string(value: Any, path: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise _fail(path, f"expected a string, got {_describe(value)}")
    return value


def _integer(value: Any, path: str) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(path, f"expected an integer, got {_describe(value)}")
    return value


def _boolean(value: Any, path: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _fail(path, f"expected true or false, got {_describe(value)}")
    return value


def _bytes(value: Any, path: str) -> bytes:
    """A Go ``[]byte`` field: a base64 string in JSON."""
    text = _string(value, path)
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise _fail(path, f"expected base64 data, got {_describe(value)}") from None


def _object(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise _fail(path, f"expected an object, got {_describe(value)}")
    return value


def _optional(value: Any, path: str, decode: Callable[[Mapping[str, Any], str], T]) -> Optional[T]:
    """A Go pointer to a struct: ``null``/absent -> None, else the decoded struct."""
    if value is None:
        return None
    return decode(_object(value, path), path)


def _list(value: Any, path: str, decode: Callable[[Any, str], T]) -> tuple[T, ...]:
    """A Go slice: ``null``/absent -> empty tuple."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise _fail(path, f"expected a list, got {_describe(value)}")
    return tuple(decode(item, f"{path}[{i}]") for i, item in enumerate(value))


def _strings(value: Any, path: str) -> tuple[str, ...]:
    return _list(value, path, _string)


# --- structs ----------------------------------------------------------------------------


def _service_affinity(d: Mapping[str, Any], path: str) -> ServiceAffinity:
    """Go: v1.ServiceAffinity {labels}"""
    return ServiceAffinity(labels=_strings(d.get("labels"), _join(path, "labels")))


def _labels_presence(d: Mapping[str, Any], path: str) -> LabelsPresence:
    """Go: v1.LabelsPresence {labels, presence}"""
    return LabelsPresence(
        labels=_strings(d.get("labels"), _join(path, "labels")),
        presence=_boolean(d.get("presence"), _join(path, "presence")),
    )


def _service_anti_affinity(d: Mapping[str, Any], path: str) -> ServiceAntiAffinity:
    """Go: v1.ServiceAntiAffinity {label}"""
    return ServiceAntiAffinity(label=_string(d.get("label"), _join(path, "label")))


def _label_preference(d: Mapping[str, Any], path: str) -> LabelPreference:
    """Go: v1.LabelPreference {label, presence}"""
    return LabelPreference(
        label=_string(d.get("label"), _join(path, "label")),
        presence=_boolean(d.get("presence"), _join(path, "presence")),
    )


def _predicate_argument(d: Mapping[str, Any], path: str) -> PredicateArgument:
    """Go: v1.PredicateArgument {serviceAffinity, labelsPresence}"""
    return PredicateArgument(
        service_affinity=_optional(d.get("serviceAffinity"), _join(path, "serviceAffinity"), _service_affinity),
        labels_presence=_optional(d.get("labelsPresence"), _join(path, "labelsPresence"), _labels_presence),
    )


def _priority_argument(d: Mapping[str, Any], path: str) -> PriorityArgument:
    """Go: v1.PriorityArgument {serviceAntiAffinity, labelPreference}"""
    return PriorityArgument(
        service_anti_affinity=_optional(
            d.get("serviceAntiAffinity"), _join(path, "serviceAntiAffinity"), _service_anti_affinity
        ),
        label_preference=_optional(d.get("labelPreference"), _join(path, "labelPreference"), _label_preference),
    )


def _predicate_policy(value: Any, path: str) -> PredicatePolicy:
    """Go: v1.PredicatePolicy {name, argument}"""
    d = _object(value, path)
    return PredicatePolicy(
        name=_string(d.get("name"), _join(path, "name")),
        argument=_optional(d.get("argument"), _join(path, "argument"), _predicate_argument),
    )


def _priority_policy(value: Any, path: str) -> PriorityPolicy:
    """Go: v1.PriorityPolicy {name, weight, argument}"""
    d = _object(value, path)
    return PriorityPolicy(
        name=_string(d.get("name"), _join(path, "name")),
        weight=_integer(d.get("weight"), _join(path, "weight")),
        argument=_optional(d.get("argument"), _join(path, "argument"), _priority_argument),
    )


def _tls_client_config(d: Mapping[str, Any], path: str) -> TLSClientConfig:
    """Go: restclient.TLSClientConfig (no JSON tags: keys are the Go field names)."""
    return TLSClientConfig(
        cert_file=_string(d.get("CertFile"), _join(path, "CertFile")),
        key_file=_string(d.get("KeyFile"), _join(path, "KeyFile")),
        ca_file=_string(d.get("CAFile"), _join(path, "CAFile")),
        cert_data=_bytes(d.get("CertData"), _join(path, "CertData")),
        key_data=_bytes(d.get("KeyData"), _join(path, "KeyData")),
        ca_data=_bytes(d.get("CAData"), _join(path, "CAData")),
    )


def _extender_config(value: Any, path: str) -> ExtenderConfig:
    """Go: v1.ExtenderConfig; ``httpTimeout`` is a Go time.Duration, i.e. integer nanoseconds."""
    d = _object(value, path)
    return ExtenderConfig(
        url_prefix=_string(d.get("urlPrefix"), _join(path, "urlPrefix")),
        filter_verb=_string(d.get("filterVerb"), _join(path, "filterVerb")),
        prioritize_verb=_string(d.get("prioritizeVerb"), _join(path, "prioritizeVerb")),
        weight=_integer(d.get("weight"), _join(path, "weight")),
        enable_https=_boolean(d.get("enableHttps"), _join(path, "enableHttps")),
        tls_config=_optional(d.get("tlsConfig"), _join(path, "tlsConfig"), _tls_client_config),
        http_timeout=_integer(d.get("httpTimeout"), _join(path, "httpTimeout")) / 1e9,
        node_cache_capable=_boolean(d.get("nodeCacheCapable"), _join(path, "nodeCacheCapable")),
    )


def _check_type_meta(d: Mapping[str, Any]) -> None:
    """``kind``/``apiVersion``, when given, must name a v1 Policy."""
    kind = _string(d.get("kind"), "kind")
    if kind not in ("", KIND_POLICY):
        raise _fail("kind", f'expected "{KIND_POLICY}", got {_describe(kind)}')
    api_version = _string(d.get("apiVersion"), "apiVersion")
    if api_version not in ("", VERSION):
        raise _fail("apiVersion", f'expected "{VERSION}", got {_describe(api_version)}')


def policy_from_dict(d: Any) -> Policy:
    """Decode a parsed v1 policy document (a dict) into the internal :class:`Policy`.

    Go: json decoding into v1.Policy + Convert_v1_Policy_To_api_Policy (generated)
    """
    doc = _object(d, "")
    _check_type_meta(doc)
    return Policy(
        predicates=_list(doc.get("predicates"), "predicates", _predicate_policy),
        priorities=_list(doc.get("priorities"), "priorities", _priority_policy),
        extender_configs=_list(doc.get("extenders"), "extenders", _extender_config),
    )


def load_policy(data: str | bytes) -> Policy:
    """Decode v1 policy JSON (text or bytes) into the internal :class:`Policy`.

    Go: runtime.DecodeInto(codec, data, &policy) with the v1 JSON serializer
    Raises :class:`PolicyError` on malformed JSON or a field of the wrong type.
    """
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as err:
            raise PolicyError(f"Policy: not UTF-8 text: {err}") from None
    if not isinstance(data, str):
        raise PolicyError(f"Policy: expected JSON text or bytes, got {type(data).__name__}")
    # Go: the JSON serializer's SimpleMetaFactory.Interpret runs encoding/json first (into
    # struct{APIVersion, Kind string}); its error is the whole message ("couldn't get
    # version/kind; json parse error: invalid character ..."); the fields after it are decoded
    # by ugorji's codec, whose errors kschedlearn words itself (naming the field path).
    bad = interpret_error(data)
    if bad:
        raise PolicyError(bad)
    try:
        doc = json.loads(data)
    except (json.JSONDecodeError, RecursionError) as err:
        raise PolicyError(f"Policy: invalid JSON: {err}") from None
    return policy_from_dict(doc)


# --- encoding (for round trips and for showing a policy) ---------------------------------


def _argument_to_dict(arg: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(arg, PredicateArgument):
        if arg.service_affinity is not None:
            out["serviceAffinity"] = {"labels": list(arg.service_affinity.labels)}
        if arg.labels_presence is not None:
            out["labelsPresence"] = {"labels": list(arg.labels_presence.labels), "presence": arg.labels_presence.presence}
    else:
        if arg.service_anti_affinity is not None:
            out["serviceAntiAffinity"] = {"label": arg.service_anti_affinity.label}
        if arg.label_preference is not None:
            out["labelPreference"] = {"label": arg.label_preference.label, "presence": arg.label_preference.presence}
    return out


def _extender_to_dict(e: ExtenderConfig) -> dict[str, Any]:
    out: dict[str, Any] = {"urlPrefix": e.url_prefix}
    # Go's omitempty: zero values are left out.
    optional = {
        "filterVerb": e.filter_verb,
        "prioritizeVerb": e.prioritize_verb,
        "weight": e.weight,
        "enableHttps": e.enable_https,
        "httpTimeout": round(e.http_timeout * 1e9),
        "nodeCacheCapable": e.node_cache_capable,
    }
    out.update({k: v for k, v in optional.items() if v})
    if e.tls_config is not None:
        t = e.tls_config
        out["tlsConfig"] = {
            "CertFile": t.cert_file, "KeyFile": t.key_file, "CAFile": t.ca_file,
            "CertData": base64.b64encode(t.cert_data).decode(),
            "KeyData": base64.b64encode(t.key_data).decode(),
            "CAData": base64.b64encode(t.ca_data).decode(),
        }
    return out


def policy_to_dict(policy: Policy) -> dict[str, Any]:
    """Encode a :class:`Policy` as a v1 document (``argument`` left out when None).

    Go: Convert_api_Policy_To_v1_Policy + json encoding.
    Differs from Go: Go writes ``"argument": null`` and ``"extenders": null``; here absent.
    """
    out: dict[str, Any] = {"kind": KIND_POLICY, "apiVersion": VERSION}
    out["predicates"] = [
        {"name": p.name, **({"argument": _argument_to_dict(p.argument)} if p.argument is not None else {})}
        for p in policy.predicates
    ]
    out["priorities"] = [
        {"name": p.name, "weight": p.weight,
         **({"argument": _argument_to_dict(p.argument)} if p.argument is not None else {})}
        for p in policy.priorities
    ]
    if policy.extender_configs:
        out["extenders"] = [_extender_to_dict(e) for e in policy.extender_configs]
    return out

"""The leader-election record and the lock interface it is stored through.

Go: pkg/client/leaderelection/resourcelock/interface.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/resourcelock/interface.go#L24-L71

The record is a small JSON document (holder, lease length, acquire/renew times, number of
leader changes) kept in an annotation of the lock object. Every candidate reads it, and the
leader rewrites it every ``RetryPeriod`` to show it is alive.

Differs from Go: times are float seconds of the simulated clock (``None`` = Go's zero
``metav1.Time``); the JSON text is byte-for-byte what Go's ``json.Marshal`` writes.
"""

from __future__ import annotations

import json
import math
from typing import Any, Protocol

import attrs

from kschedlearn.apimachinery._gostrconv import quote
from kschedlearn.api.v1._gojson import go_json_fields
from kschedlearn.api.v1._gojson_check import unmarshal_error
from kschedlearn.api.v1.times import format_time, parse_time

_GO = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/leaderelection/resourcelock/"

# The json tags of LeaderElectionRecord, in field order (encoding/json matches them in order).
_RECORD_TYPE = "resourcelock.LeaderElectionRecord"
#: Go's field types of the record (interface.go): the number rules of json.Unmarshal
_RECORD_STRUCTS = {_RECORD_TYPE: {"holderIdentity": "string", "leaseDurationSeconds": "int", "acquireTime": "v1.Time",
                                  "renewTime": "v1.Time", "leaderTransitions": "int"}}
_RECORD_KEYS = ("holderIdentity", "leaseDurationSeconds", "acquireTime", "renewTime", "leaderTransitions")

#: Go: resourcelock.LeaderElectionRecordAnnotationKey.
LEADER_ELECTION_RECORD_ANNOTATION_KEY = "control-plane.alpha.kubernetes.io/leader"

#: Go: resourcelock.EndpointsResourceLock -- the only kind of lock object in 1.6.
ENDPOINTS_RESOURCE_LOCK = "endpoints"


class RecordDecodeError(ValueError):
    """The annotation does not hold a valid leader-election record (Go: a json.Unmarshal error)."""


def _marshal_time(t: float | None) -> str | None:
    """Go: ``metav1.Time.MarshalJSON`` -- zero time is ``null``, else RFC3339 in whole seconds.

    Go formats with ``time.RFC3339``, which drops the fraction, so 12.7 s is written as 12 s.
    """
    if t is None:
        return None
    return format_time(float(math.floor(t)))


def _unmarshal_time(value: Any, field_name: str, text: str) -> float | None:
    """Go: ``metav1.Time.UnmarshalJSON`` -- ``null`` is the zero time, else RFC3339."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise RecordDecodeError(
            f"leader election record {quote(text)}: {field_name}: expected an RFC3339 string,"
            f" got {json.dumps(value)}"
        )
    try:
        return parse_time(value)
    except ValueError as err:
        raise RecordDecodeError(f"leader election record {quote(text)}: {field_name}: {err}") from None


def _int_field(d: dict[str, Any], key: str, text: str) -> int:
    value = d.get(key, 0)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise RecordDecodeError(
            f"leader election record {quote(text)}: {key}: expected an integer, got {json.dumps(value)}"
        )
    return int(value)


@attrs.frozen(kw_only=True)
class LeaderElectionRecord:
    """What the annotation holds: who leads, for how long, since when, and how many changes.

    Go: resourcelock.LeaderElectionRecord (interface.go). JSON names: ``holderIdentity``,
    ``leaseDurationSeconds``, ``acquireTime``, ``renewTime``, ``leaderTransitions``.

    Differs from Go: times are float simulated seconds or ``None`` (Go's zero time).
    """

    holder_identity: str = ""
    lease_duration_seconds: int = 0
    acquire_time: float | None = None
    renew_time: float | None = None
    leader_transitions: int = 0

    def to_json(self) -> str:
        """Go: ``json.Marshal(record)`` -- compact, fields in struct order."""
        doc = {
            "holderIdentity": self.holder_identity,
            "leaseDurationSeconds": self.lease_duration_seconds,
            "acquireTime": _marshal_time(self.acquire_time),
            "renewTime": _marshal_time(self.renew_time),
            "leaderTransitions": self.leader_transitions,
        }
        return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> LeaderElectionRecord:
        """Go: ``json.Unmarshal`` into a zero record: missing fields stay zero, unknown are ignored.

        Raises :class:`RecordDecodeError` naming the field when the text is not a record.
        """
        go_error = unmarshal_error(text, _RECORD_TYPE, _RECORD_STRUCTS)
        if go_error:  # Go's json.Unmarshal text, which the elector's glog line shows
            raise RecordDecodeError(go_error)
        try:
            doc = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as err:
            raise RecordDecodeError(f"leader election record {quote(text)}: invalid JSON: {err}") from None
        if not isinstance(doc, dict):
            raise RecordDecodeError(f"leader election record {quote(text)}: expected a JSON object")
        # Go's encoding/json: keys match the struct tags case-insensitively, unknown ones dropped
        doc = go_json_fields(_RECORD_KEYS, doc)
        holder = doc.get("holderIdentity", "")
        if holder is None:
            holder = ""
        if not isinstance(holder, str):
            raise RecordDecodeError(
                f"leader election record {quote(text)}: holderIdentity: expected a string,"
                f" got {json.dumps(holder)}"
            )
        return cls(
            holder_identity=holder,
            lease_duration_seconds=_int_field(doc, "leaseDurationSeconds", text),
            acquire_time=_unmarshal_time(doc.get("acquireTime"), "acquireTime", text),
            renew_time=_unmarshal_time(doc.get("renewTime"), "renewTime", text),
            leader_transitions=_int_field(doc, "leaderTransitions", text),
        )


@attrs.frozen(kw_only=True)
class ResourceLockConfig:
    """Go: resourcelock.ResourceLockConfig -- who we are and where lock events go."""

    identity: str
    event_recorder: Any = None


class Interface(Protocol):
    """Go: resourcelock.Interface -- what the elector needs from a lock object.

    ``get`` raises the API error (``NotFoundError`` when the object is missing); ``create`` and
    ``update`` raise on failure (Go returns an error).
    """

    def get(self) -> LeaderElectionRecord: ...
    def create(self, ler: LeaderElectionRecord) -> None: ...
    def update(self, ler: LeaderElectionRecord) -> None: ...
    def record_event(self, s: str) -> None: ...
    def identity(self) -> str: ...
    def describe(self) -> str: ...


def new(lock_type: str, ns: str, name: str, client: Any, rlc: ResourceLockConfig) -> Interface:
    """Build a lock of the given type; only ``"endpoints"`` exists.

    Go: none in 1.6 -- the scheduler builds ``&resourcelock.EndpointsLock{...}`` by hand
    (spec §1.4 step 9). This factory is 1.7's ``resourcelock.New`` (where ``configmaps`` was
    added), restricted to what 1.6 has; the error text is 1.7's (``Invalid lock-type %s``).
    """
    # Imported here: endpointslock imports this module for the record type.
    from kschedlearn.api.v1 import ObjectMeta
    from kschedlearn.client.leaderelection.resourcelock.endpointslock import EndpointsLock

    if lock_type == ENDPOINTS_RESOURCE_LOCK:
        return EndpointsLock(
            endpoints_meta=ObjectMeta(namespace=ns, name=name), client=client, lock_config=rlc,
        )
    raise ValueError(f"Invalid lock-type {lock_type}")

"""Times in manifests: RFC3339 strings <-> float seconds of the simulated clock.

Go: ``metav1.Time`` (JSON form RFC3339, whole seconds),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go

Simulated time 0.0 is :data:`EPOCH`, 2017-04-03T00:00:00Z (the v1.6.1 release day),
so ``creationTimestamp: "2017-04-03T00:00:30Z"`` is ``30.0`` in Python.

Differs from Go: Go writes whole seconds; :func:`format_time` keeps a fractional
part (``...T00:00:01.5Z``) because simulated times are floats, and parsing keeps
microseconds.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from typing import Annotated

__all__ = ["EPOCH", "Time", "format_time", "parse_time"]

_TIME_MARK = "rfc3339-time"
#: Float seconds of the simulated clock, written as an RFC3339 string in manifests.
Time = Annotated[float, _TIME_MARK]

#: Simulated time 0.0 (the v1.6.1 release day).
EPOCH = _dt.datetime(2017, 4, 3, tzinfo=_dt.timezone.utc)

_RFC3339 = re.compile(r"(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|z|[+-]\d{2}:\d{2})")


def format_time(t: float) -> str:
    """Simulated seconds -> RFC3339 UTC string (fraction only when non-zero).

    Go: metav1.Time.MarshalJSON — time.go (RFC3339). Differs from Go: keeps fractions.
    """
    moment = EPOCH + _dt.timedelta(seconds=t)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if moment.microsecond:
        text += f".{moment.microsecond:06d}".rstrip("0")
    return text + "Z"


def parse_time(value: str | _dt.datetime) -> float:
    """RFC3339 string (or a datetime, as PyYAML yields for bare timestamps) -> simulated seconds.

    A naive datetime counts as UTC. Raises ValueError with a learner-facing message.

    Go: metav1.Time.UnmarshalJSON — time.go (RFC3339).
    """
    if isinstance(value, _dt.datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=_dt.timezone.utc)
        return (moment - EPOCH).total_seconds()
    if not isinstance(value, str):
        raise ValueError(f"expected RFC3339 time string, got {value!r}")
    match = _RFC3339.fullmatch(value)
    quoted = json.dumps(value, ensure_ascii=False)
    if match is None:
        raise ValueError(f'invalid time {quoted} (want RFC3339, e.g. "2017-04-03T00:00:00Z")')
    date, clock, fraction, zone = match.groups()
    zone = "+00:00" if zone in ("Z", "z") else zone
    # fromisoformat takes at most microseconds, so longer fractions are cut.
    frac = f".{(fraction or '0')[:6]:0<6}"
    try:
        moment = _dt.datetime.fromisoformat(f"{date}T{clock}{frac}{zone}")
    except ValueError:
        raise ValueError(f"invalid time {quoted} (out of range)") from None
    return (moment - EPOCH).total_seconds()

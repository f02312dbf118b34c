"""``intstr.IntOrString`` helpers: an int or a percentage of a total.

Go: staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go#L93-L177

Differs from Go: an ``IntOrString`` is a plain ``int`` or ``str`` (the codec's
:data:`~kschedlearn.api.v1.codec.IntOrString`); ``None`` stands for Go's nil pointer.
"""

from __future__ import annotations

import math

from kschedlearn.api.v1.codec import IntOrString
from kschedlearn.apimachinery.util.runtime import NilPointerDereference


def string(intstr: IntOrString) -> str:
    """Go: ``(*IntOrString).String`` — intstr.go#L93-L99."""
    if isinstance(intstr, str):
        return intstr
    return str(int_value(intstr))


def int_value(intstr: IntOrString) -> int:
    """The int, or the string converted (0 when it is not a number). Go: ``IntValue`` — intstr.go#L101-L109."""
    if isinstance(intstr, str):
        return _atoi(intstr)[0]
    return int(intstr)


def _atoi(s: str) -> tuple[int, str]:
    """Go 1.7's ``strconv.Atoi`` -> (value, error text or ""); its errors are ParseInt's (Go 1.8
    renamed them ``strconv.Atoi``), as TestResolveFenceposts expects."""
    body = s[1:] if s[:1] in "+-" else s
    if not body or not body.isascii() or not body.isdigit():
        return 0, f'strconv.ParseInt: parsing "{s}": invalid syntax'
    return int(s), ""


def get_value_from_int_or_percent(int_or_percent: IntOrString | None, total: int, round_up: bool) -> int:
    """The value, a percentage taken of ``total`` (rounded up or down); raises ValueError.

    Go: ``GetValueFromIntOrPercent`` — intstr.go#L149-L162. A nil pointer panics in Go.
    """
    if int_or_percent is None:
        raise NilPointerDereference()
    try:
        value, is_percent = _get_int_or_percent_value(int_or_percent)
    except ValueError as err:
        raise ValueError(f"invalid value for IntOrString: {err}") from None
    if is_percent:
        if round_up:
            value = int(math.ceil(float(value) * (float(total)) / 100))
        else:
            value = int(math.floor(float(value) * (float(total)) / 100))
    return value


def _get_int_or_percent_value(int_or_str: IntOrString) -> tuple[int, bool]:
    """Go: ``getIntOrPercentValue`` — intstr.go#L164-L177."""
    if isinstance(int_or_str, int):
        return int_value(int_or_str), False
    s = int_or_str.replace("%", "")
    v, err = _atoi(s)
    if err:
        raise ValueError(f'invalid value "{int_or_str}": {err}')
    return int(v), True


__all__ = ["get_value_from_int_or_percent", "int_value", "string"]

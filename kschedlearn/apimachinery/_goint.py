"""Go's fixed-width integer arithmetic: ``int``/``int64`` and ``int32`` wrap around, ``/`` truncates.

Python integers never overflow, Go's do: on amd64 ``int`` and ``int64`` are 64-bit two's
complement and an overflowing ``+`` or ``*`` silently wraps (The Go Programming Language
Specification, "Integer overflow", https://go.dev/ref/spec#Integer_overflow); ``/`` truncates
toward zero where Python's ``//`` floors (https://go.dev/ref/spec#Arithmetic_operators).
Mirrored code passes every result Go keeps in a fixed-width variable through these helpers, so a
score such as 1.6's SelectorSpread ``int(NaN)`` (the minimum int64) times an even weight becomes
0, exactly as the real scheduler computes it.

Go: none — kschedlearn-only (Go's language rules, not a Kubernetes file).
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1
_SIGN64 = 1 << 63
_MASK32 = (1 << 32) - 1
_SIGN32 = 1 << 31

MIN_INT64 = -(1 << 63)
MAX_INT64 = (1 << 63) - 1


def int64(v: int) -> int:
    """``v`` reduced to Go's int64 (and amd64 ``int``) range by two's-complement wraparound."""
    if MIN_INT64 <= v <= MAX_INT64:
        return v  # already in range (nearly always): the wrap below would give v back
    v &= _MASK64
    return v - (1 << 64) if v & _SIGN64 else v


def int32(v: int) -> int:
    """``v`` reduced to Go's int32 range by two's-complement wraparound."""
    v &= _MASK32
    return v - (1 << 32) if v & _SIGN32 else v


def div64(a: int, b: int) -> int:
    """Go's int64 ``a / b``: the quotient truncated toward zero, then wrapped.

    The wrap matters only for ``MinInt64 / -1``, which Go defines as ``MinInt64``.
    Raises ``ZeroDivisionError`` where Go panics with an integer divide by zero.
    """
    q = abs(a) // abs(b)
    return int64(q if (a < 0) == (b < 0) else -q)

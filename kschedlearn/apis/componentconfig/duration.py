"""Go's duration text: ``time.ParseDuration`` and ``time.Duration.String``.

Go: the ``time`` package of the Go standard library (go1.7, which built Kubernetes 1.6):
https://github.com/golang/go/blob/go1.7.5/src/time/time.go (Duration.String) and
https://github.com/golang/go/blob/go1.7.5/src/time/format.go (ParseDuration).
``metav1.Duration``
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/duration.go)
and pflag's ``DurationVar`` both use them, so ``--leader-elect-lease-duration``
accepts ``15s``, ``1m30s``, ``1.5h``, ``300ms`` and prints its default as ``15s``.

Differs from Go: durations are float seconds; they are converted through whole nanoseconds
(Go's ``int64``) so the text round-trips exactly as in Go.
"""

from __future__ import annotations

_NS_PER_UNIT = {
    "ns": 1,
    "us": 1_000,
    "\u00b5s": 1_000,  # U+00B5 micro sign
    "\u03bcs": 1_000,  # U+03BC Greek small letter mu
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60 * 1_000_000_000,
    "h": 3600 * 1_000_000_000,
}
_MAX_INT64 = (1 << 63) - 1


class DurationError(ValueError):
    """Go's ``time.ParseDuration`` error; ``str()`` is Go's exact text."""


def _frac_text(v: int, prec: int) -> str:
    """``v`` scaled down by 10**prec, with trailing fractional zeros trimmed (Go's fmtFrac+fmtInt)."""
    whole, frac = divmod(v, 10**prec)
    digits = f"{frac:0{prec}d}".rstrip("0")
    return f"{whole}.{digits}" if digits else str(whole)


def format_duration(seconds: float) -> str:
    """Go: ``time.Duration.String`` -- ``0s``, ``300ms``, ``15s``, ``1m30s``, ``1h0m0s``."""
    ns = round(seconds * 1_000_000_000)
    neg, u = ns < 0, abs(ns)
    if u < 1_000_000_000:
        if u == 0:
            return "0s"
        if u < 1_000:
            text = f"{u}ns"
        elif u < 1_000_000:
            text = _frac_text(u, 3) + "\u00b5s"
        else:
            text = _frac_text(u, 6) + "ms"
    else:
        text = _frac_text(u % 60_000_000_000, 9) + "s"
        minutes = u // 60_000_000_000
        if minutes > 0:
            text = f"{minutes % 60}m" + text
            hours = minutes // 60
            if hours > 0:
                text = f"{hours}h" + text
    return "-" + text if neg else text


def _leading_digits(s: str) -> tuple[str, str]:
    i = 0
    while i < len(s) and "0" <= s[i] <= "9":
        i += 1
    return s[:i], s[i:]


def parse_duration(text: str) -> float:
    """Go: ``time.ParseDuration`` -- a signed sequence of ``<number><unit>`` terms, in seconds.

    Raises :class:`DurationError` with Go's messages: ``time: invalid duration X``,
    ``time: missing unit in duration X``, ``time: unknown unit U in duration X``.
    """
    orig, s, neg = text, text, False
    if s and s[0] in "+-":
        neg, s = s[0] == "-", s[1:]
    if s == "0":
        return 0.0
    if s == "":
        raise DurationError(f"time: invalid duration {orig}")
    total_ns = 0
    while s:
        if not (s[0] == "." or "0" <= s[0] <= "9"):
            raise DurationError(f"time: invalid duration {orig}")
        whole, s = _leading_digits(s)
        frac = ""
        post = False
        if s.startswith("."):
            frac, s = _leading_digits(s[1:])
            post = frac != ""
        if whole == "" and not post:
            raise DurationError(f"time: invalid duration {orig}")
        i = 0
        while i < len(s) and not (s[i] == "." or "0" <= s[i] <= "9"):
            i += 1
        if i == 0:
            raise DurationError(f"time: missing unit in duration {orig}")
        unit, s = s[:i], s[i:]
        if unit not in _NS_PER_UNIT:
            raise DurationError(f"time: unknown unit {unit} in duration {orig}")
        scale = _NS_PER_UNIT[unit]
        term = int(whole or "0") * scale
        if frac:
            term += int(int(frac) * scale / 10 ** len(frac))
        total_ns += term
        if total_ns > _MAX_INT64:
            raise DurationError(f"time: invalid duration {orig}")
    if neg:
        total_ns = -total_ns
    return total_ns / 1_000_000_000

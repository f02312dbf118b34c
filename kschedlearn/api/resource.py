"""Resource quantities such as ``100m`` CPU or ``1Gi`` of memory.

Go: ``k8s.io/apimachinery/pkg/api/resource`` — quantity.go (Quantity, ParseQuantity, String),
suffix.go (suffix tables), amount.go (int64Amount / infDecAmount), math.go (int64 helpers),
scale_int.go (scaledValue).
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go

A quantity is a fixed-point decimal number: ``value * 10**scale``. It never goes through a float.
Go keeps the amount either as a fast ``int64Amount`` or, when that cannot hold it exactly, as an
arbitrary-precision ``inf.Dec``; here one exact Python ``int`` pair holds both, and a flag
(``dec``) remembers which form Go would be using, because the two forms round differently in one
corner (see :meth:`Quantity.scaled_value`).

The canonical string keeps the *format family* of the input: ``2000`` prints ``2k`` (decimal SI),
``1.5Gi`` prints ``1536Mi`` (binary SI), ``1e3`` prints ``1e3`` (decimal exponent).

Differs from Go: values are immutable — ``add``, ``sub``, ``neg`` and ``round_up`` return new
quantities instead of changing the receiver. Results that do not fit an int64 (``value()`` of
``1e30``) saturate at the int64 bounds where Go silently overflows.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import attrs

from kschedlearn.apimachinery._gostrconv import quote


# Format — how a quantity is printed (quantity.go).
Format = str
DECIMAL_EXPONENT: Format = "DecimalExponent"  # 12e6
BINARY_SI: Format = "BinarySI"  # 12Mi  (12 * 2^20)
DECIMAL_SI: Format = "DecimalSI"  # 12M   (12 * 10^6)

# Scale — a power-of-ten exponent (amount.go).
Scale = int
NANO: Scale = -9
MICRO: Scale = -6
MILLI: Scale = -3
KILO: Scale = 3
MEGA: Scale = 6
GIGA: Scale = 9
TERA: Scale = 12
PETA: Scale = 15
EXA: Scale = 18

_MOST_POSITIVE = (1 << 63) - 1
_MOST_NEGATIVE = -(1 << 63)
# math.go maxInt64Factors: decimal digits an int64 can always hold.
_MAX_INT64_FACTORS = 18
# scale_int.go log10MaxInt64.
_LOG10_MAX_INT64 = 19

SPLIT_RE_STRING = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
ERR_FORMAT_WRONG = "quantities must match the regular expression '" + SPLIT_RE_STRING + "'"
ERR_NUMERIC = "unable to parse numeric part of quantity"
ERR_SUFFIX = "unable to parse quantity's suffix"

_DIGITS = frozenset("0123456789")
MAX_QUANTITY_LENGTH = 200
"""Longest quantity string accepted (Differs from Go: a bound so that arithmetic stays cheap and
Python's int-conversion limit is never what a learner sees; no real quantity comes close)."""
_SUFFIX_CHARS = frozenset("eEinumkKMGTP")


class QuantityError(ValueError):
    """A string that is not a valid quantity.

    Go: quantity.go ``ErrFormatWrong`` / ``ErrNumeric`` / ``ErrSuffix``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go#L151-L154

    Differs from Go: one exception class; the Go error text is kept in ``reason`` and the message
    also quotes the input (``invalid quantity "12Q": ...``) so a manifest error can name it.
    """

    def __init__(self, quantity: str, reason: str) -> None:
        self.quantity = quantity
        self.reason = reason
        super().__init__(f"invalid quantity {quote(quantity)}: {reason}")


# ---------------------------------------------------------------------------------------------
# suffix.go
# ---------------------------------------------------------------------------------------------

# Suffix → (base, exponent). Go builds these tables in newSuffixer().
_DEC_SUFFIXES: dict[str, tuple[int, int]] = {
    "n": (10, -9),
    "u": (10, -6),
    "m": (10, -3),
    "": (10, 0),
    "k": (10, 3),
    "M": (10, 6),
    "G": (10, 9),
    "T": (10, 12),
    "P": (10, 15),
    "E": (10, 18),
}
_BIN_SUFFIXES: dict[str, tuple[int, int]] = {
    "Ki": (2, 10),
    "Mi": (2, 20),
    "Gi": (2, 30),
    "Ti": (2, 40),
    "Pi": (2, 50),
    "Ei": (2, 60),
}
# (base, exponent) → suffix. Go also maps (2, 0) to "" in the *decimal* table.
_DEC_CONSTRUCT: dict[tuple[int, int], str] = {v: k for k, v in _DEC_SUFFIXES.items()}
_DEC_CONSTRUCT[(2, 0)] = ""
_BIN_CONSTRUCT: dict[tuple[int, int], str] = {v: k for k, v in _BIN_SUFFIXES.items()}


def _interpret_suffix(s: str) -> tuple[int, int, Format, bool]:
    """Turn a suffix into ``(base, exponent, format, ok)``.

    Go: suffix.go ``suffixHandler.interpret``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/suffix.go#L180-L198
    """
    if s in _DEC_SUFFIXES:
        base, exponent = _DEC_SUFFIXES[s]
        return base, exponent, DECIMAL_SI, True
    if s in _BIN_SUFFIXES:
        base, exponent = _BIN_SUFFIXES[s]
        return base, exponent, BINARY_SI, True
    if len(s) > 1 and s[0] in "eE":
        parsed = _parse_int64(s[1:])
        if parsed is None:
            return 0, 0, DECIMAL_EXPONENT, False
        # Go stores the exponent in an int32, wrapping larger values.
        return 10, _wrap_int32(parsed), DECIMAL_EXPONENT, True
    return 0, 0, DECIMAL_EXPONENT, False


def _construct_suffix(base: int, exponent: int, fmt: Format) -> tuple[str, bool]:
    """Build the suffix for ``base**exponent`` in a format; ``("", False)`` when none exists.

    Go: suffix.go ``suffixHandler.constructBytes``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/suffix.go#L155-L178

    Quirk kept from Go: callers ignore ``ok``, so a decimal-SI quantity beyond ``E``
    (``1000E`` = 10^21) prints with no suffix at all (``"1"``).
    """
    if fmt == DECIMAL_SI:
        suffix = _DEC_CONSTRUCT.get((base, exponent))
        return ("", False) if suffix is None else (suffix, True)
    if fmt == BINARY_SI:
        suffix = _BIN_CONSTRUCT.get((base, exponent))
        return ("", False) if suffix is None else (suffix, True)
    if fmt == DECIMAL_EXPONENT:
        if base != 10:
            return "", False
        if exponent == 0:
            return "", True
        return f"e{exponent}", True
    return "", False


# ---------------------------------------------------------------------------------------------
# math.go / scale_int.go helpers (int64 arithmetic with overflow detection)
# ---------------------------------------------------------------------------------------------


def _fits_int64(v: int) -> bool:
    return _MOST_NEGATIVE <= v <= _MOST_POSITIVE


def _saturate_int64(v: int) -> int:
    """Differs from Go: Go's int64 results wrap on overflow; we clamp to the int64 range."""
    return max(_MOST_NEGATIVE, min(_MOST_POSITIVE, v))


def _wrap_int32(v: int) -> int:
    return ((v + (1 << 31)) % (1 << 32)) - (1 << 31)


def _parse_int64(s: str) -> int | None:
    """``strconv.ParseInt(s, 10, 64)``: optional sign then ASCII digits, within int64; else None."""
    body = s[1:] if s[:1] in ("+", "-") else s
    if not body or any(c not in _DIGITS for c in body):
        return None
    v = int(s)
    return v if _fits_int64(v) else None


def _int64_multiply(a: int, b: int) -> tuple[int, bool]:
    """Go: math.go ``int64Multiply`` — ``(a*b, ok)``, ok false on int64 overflow."""
    c = a * b
    return c, _fits_int64(c)


def _positive_scale_int64(base: int, scale: int) -> tuple[int, bool]:
    """``base * 10**scale`` and whether it fits an int64.

    Go: math.go ``positiveScaleInt64``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/math.go#L142-L168
    """
    if base == 0 or scale == 0:
        return base, True
    if scale > _LOG10_MAX_INT64 + 1:  # cannot fit: skip computing a huge power of ten
        return _saturate_int64(base * (1 << 64)), False
    c = base * 10**scale
    return c, _fits_int64(c)


def _negative_scale_int64(base: int, scale: int) -> tuple[int, bool]:
    """``base / 10**scale`` rounded *away from zero*, and whether it was exact.

    Go: math.go ``negativeScaleInt64``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/math.go#L170-L203
    """
    if scale == 0:
        return base, True
    magnitude = abs(base)
    if scale > len(str(magnitude)):
        q, r = 0, magnitude
    else:
        q, r = divmod(magnitude, 10**scale)
    if r:
        q += 1
    return (q if base >= 0 else -q), r == 0


def _remove_factors(value: int, base: int) -> tuple[int, int]:
    """Strip factors of ``base``: returns ``(result, times)`` with value == result * base**times.

    Go: math.go ``removeInt64Factors`` / ``removeBigIntFactors``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/math.go#L277-L309
    """
    negative = value < 0
    result = -value if negative else value
    times = 0
    while result >= base and result % base == 0:
        times += 1
        result //= base
    return (-result if negative else result), times


def _scaled_value(unscaled: int, scale: int, new_scale: int) -> int:
    """Rescale an inf.Dec-style number (``unscaled * 10**-scale``) to ``new_scale``, rounding up.

    Go: scale_int.go ``scaledValue``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/scale_int.go#L37-L95

    Quirk kept from Go: the fast path divides with truncation toward zero and then adds one for
    any remainder, so a *negative* non-integral value moves toward +inf by one extra step
    (``-1.000000001`` → ``0``), while the big-number path uses floor division and rounds up
    correctly.
    """
    dif = scale - new_scale
    if dif == 0:
        return _saturate_int64(unscaled)
    if dif < 0:
        up, _ = _positive_scale_int64(unscaled, -dif)
        return _saturate_int64(up)
    # Go tests unscaled < MaxInt64 (signed), so every int64 down to MinInt64 takes the fast path;
    # below MinInt64 Go's Int64() overflows, and the exact path here stands in for it.
    if _MOST_NEGATIVE <= unscaled < _MOST_POSITIVE and dif < _LOG10_MAX_INT64:
        divide = 10**dif
        result = abs(unscaled) // divide
        if unscaled < 0:
            result = -result  # Go's integer division truncates toward zero
        if unscaled - result * divide != 0:
            return result + 1
        return result
    if dif > len(str(abs(unscaled))):
        result, remainder = (0, unscaled) if unscaled >= 0 else (-1, 1)
    else:
        result, remainder = divmod(unscaled, 10**dif)  # Euclidean == floor for a positive divisor
    if remainder != 0:
        return _saturate_int64(result + 1)
    return _saturate_int64(result)


def _cmp_amounts(av: int, a_scale: int, bv: int, b_scale: int) -> int:
    """Exact three-way comparison of ``av*10**a_scale`` and ``bv*10**b_scale``.

    Go: amount.go ``int64Amount.Cmp`` / ``inf.Dec.Cmp`` (both exact).
    """
    if a_scale == b_scale:
        return (av > bv) - (av < bv)
    sa, sb = (av > 0) - (av < 0), (bv > 0) - (bv < 0)
    if sa != sb:
        return 1 if sa > sb else -1
    if sa == 0:
        return 0
    # Same sign: compare orders of magnitude first so huge exponents never build huge powers.
    ma, mb = len(str(abs(av))) + a_scale, len(str(abs(bv))) + b_scale
    if ma != mb:
        return sa if ma > mb else -sa
    low = min(a_scale, b_scale)
    x, y = av * 10 ** (a_scale - low), bv * 10 ** (b_scale - low)
    return (x > y) - (x < y)


def _add_int64_amounts(av: int, a_scale: int, bv: int, b_scale: int) -> tuple[int, int, bool]:
    """Add two int64Amounts at the smaller scale; ok is false when int64 would overflow.

    Go: amount.go ``int64Amount.Add``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/amount.go#L160-L199
    """
    if bv == 0:
        return av, a_scale, True
    if av == 0:
        return bv, b_scale, True
    if a_scale == b_scale:
        c = av + bv
        return c, a_scale, _fits_int64(c)
    if a_scale > b_scale:
        c, ok = _positive_scale_int64(av, a_scale - b_scale)
        c += bv
        return c, b_scale, ok and _fits_int64(c)
    c, ok = _positive_scale_int64(bv, b_scale - a_scale)
    c += av
    return c, a_scale, ok and _fits_int64(c)


# ---------------------------------------------------------------------------------------------
# quantity.go
# ---------------------------------------------------------------------------------------------


@attrs.frozen(eq=False, repr=False)
class Quantity:
    """A fixed-point number ``value * 10**scale`` that remembers how it likes to be printed.

    Go: quantity.go ``Quantity``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go#L35-L108

    Compared, ordered and hashed by numeric value (Go's ``Cmp``): ``1Ki == 1024``.

    Differs from Go: immutable (see the module docstring); ``_dec`` records whether Go would hold
    the amount as an ``inf.Dec`` rather than an ``int64Amount``; ``_s`` is Go's cached string,
    filled at parse time when the input was already canonical and lazily by ``string()``.
    """

    _value: int = 0
    _scale: int = 0
    format: Format = ""
    _dec: bool = False
    _s: str = ""

    # -- accessors ---------------------------------------------------------------------------

    def is_zero(self) -> bool:
        """Go: quantity.go ``Quantity.IsZero``."""
        return self._value == 0

    def sign(self) -> int:
        """-1, 0 or 1. Go: quantity.go ``Quantity.Sign``."""
        return (self._value > 0) - (self._value < 0)

    def as_int64(self) -> tuple[int, bool]:
        """The integer value when it is exactly an int64 at scale >= 0.

        Go: quantity.go ``Quantity.AsInt64`` / amount.go ``int64Amount.AsInt64``.
        """
        if self._dec or self._scale < 0:
            return 0, False
        return _positive_scale_int64(self._value, self._scale)

    def as_dec(self) -> Decimal:
        """The exact value as a :class:`decimal.Decimal`.

        Go: quantity.go ``Quantity.AsDec``. Differs from Go: does not switch the receiver to the
        inf.Dec form (quantities are immutable).
        """
        sign = 1 if self._value < 0 else 0
        digits = tuple(int(c) for c in str(abs(self._value)))
        return Decimal((sign, digits, self._scale))

    # -- rounding and scaled values ----------------------------------------------------------

    def _as_scale(self, scale: Scale) -> tuple[int, int, bool]:
        """Round up (away from zero) to at least ``scale``; returns ``(value, scale, exact)``.

        Go: amount.go ``int64Amount.AsScale`` / ``infDecAmount.AsScale``.
        """
        if self._scale >= scale:
            return self._value, self._scale, True
        result, exact = _negative_scale_int64(self._value, scale - self._scale)
        return result, scale, exact

    def round_up(self, scale: Scale) -> tuple[Quantity, bool]:
        """The quantity rounded away from zero to ``scale``, and whether nothing was lost.

        Go: quantity.go ``Quantity.RoundUp``. Differs from Go: returns a new quantity.
        """
        if self._scale >= scale:
            return self, True
        value, new_scale, exact = self._as_scale(scale)
        return Quantity(value=value, scale=new_scale, format=self.format, dec=self._dec), exact

    def scaled_value(self, scale: Scale) -> int:
        """``ceil(q * 10**-scale)`` as an int64, rounded the way Go rounds.

        Go: quantity.go ``Quantity.ScaledValue``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go#L708-L717

        For the int64 form, inexact results round *away from zero* (``-1.5`` → ``-2``). For the
        inf.Dec form Go's scaledValue is used, which rounds toward +inf and, for a negative
        fraction, one step further (see :func:`_scaled_value`).
        """
        if not self._dec:
            if self._scale < scale:
                result, _ = _negative_scale_int64(self._value, scale - self._scale)
                return result
            result, _ = _positive_scale_int64(self._value, self._scale - scale)
            return _saturate_int64(result)
        return _scaled_value(self._value, -self._scale, -scale)

    def value(self) -> int:
        """The value rounded up to an integer. Go: quantity.go ``Quantity.Value``."""
        return self.scaled_value(0)

    def milli_value(self) -> int:
        """The value in thousandths, rounded up. Go: quantity.go ``Quantity.MilliValue``."""
        return self.scaled_value(MILLI)

    # -- arithmetic --------------------------------------------------------------------------

    def add(self, y: Quantity) -> Quantity:
        """``self + y``; a zero receiver takes ``y``'s format.

        Go: quantity.go ``Quantity.Add``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go#L543-L558
        Differs from Go: returns a new quantity instead of adding in place.
        """
        fmt = self.format
        if not self._dec and not y._dec:
            if self._value == 0:
                fmt = y.format
            value, scale, ok = _add_int64_amounts(self._value, self._scale, y._value, y._scale)
            if ok:
                return Quantity(value=value, scale=scale, format=fmt)
        elif self.is_zero():
            fmt = y.format
        return _dec_sum(self, y._value, y._scale, fmt)

    def sub(self, y: Quantity) -> Quantity:
        """``self - y``; a zero receiver takes ``y``'s format.

        Go: quantity.go ``Quantity.Sub``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go#L560-L571
        Differs from Go: returns a new quantity instead of subtracting in place.
        """
        fmt = y.format if self.is_zero() else self.format
        if not self._dec and not y._dec:
            value, scale, ok = _add_int64_amounts(self._value, self._scale, -y._value, y._scale)
            if ok:
                return Quantity(value=value, scale=scale, format=fmt)
        return _dec_sum(self, -y._value, y._scale, fmt)

    def neg(self) -> Quantity:
        """``-self``. Go: quantity.go ``Quantity.Neg`` (in place there)."""
        return Quantity(value=-self._value, scale=self._scale, format=self.format, dec=self._dec)

    def cmp(self, y: Quantity) -> int:
        """-1, 0 or 1 as ``self`` is less than, equal to or greater than ``y``.

        Go: quantity.go ``Quantity.Cmp``.
        """
        return _cmp_amounts(self._value, self._scale, y._value, y._scale)

    def cmp_int64(self, y: int) -> int:
        """Compare with a plain integer. Go: quantity.go ``Quantity.CmpInt64``."""
        return _cmp_amounts(self._value, self._scale, y, 0)

    def copy(self) -> Quantity:
        """Go: quantity.go ``Quantity.Copy`` / ``DeepCopy``; quantities are immutable, so ``self``."""
        return self

    # -- printing ----------------------------------------------------------------------------

    def as_canonical_bytes(self) -> tuple[str, int]:
        """Mantissa digits and a base-10 exponent that is a multiple of 3 (``1.1e5`` → ``"110", 3``).

        Go: amount.go ``int64Amount.AsCanonicalBytes`` / ``infDecAmount.AsCanonicalBytes``.
        """
        amount, times = _remove_factors(self._value, 10)
        exponent = self._scale + times
        remainder = exponent % 3  # Python's modulo is never negative: 1 or 2 means "round down"
        if remainder == 1:
            amount, exponent = amount * 10, exponent - 1
        elif remainder == 2:
            amount, exponent = amount * 100, exponent - 2
        return str(amount), exponent

    def canonicalize_bytes(self) -> tuple[str, str]:
        """The canonical ``(number, suffix)`` pair of this quantity.

        Go: quantity.go ``Quantity.CanonicalizeBytes``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go#L413-L457

        Binary-SI values strictly between -1024 and 1024, or that are not whole numbers, are
        printed as decimal SI instead; an unknown format prints as a decimal exponent.
        """
        if self.is_zero():
            return "0", ""
        fmt = self.format
        rounded = 0
        if fmt in (DECIMAL_EXPONENT, DECIMAL_SI):
            pass
        elif fmt == BINARY_SI:
            if self.cmp_int64(-1024) > 0 and self.cmp_int64(1024) < 0:
                fmt = DECIMAL_SI
            else:
                value, scale, exact = self._as_scale(0)
                if not exact:
                    fmt = DECIMAL_SI
                else:
                    rounded = value * 10**scale
        else:
            fmt = DECIMAL_EXPONENT
        if fmt in (DECIMAL_EXPONENT, DECIMAL_SI):
            number, exponent = self.as_canonical_bytes()
            suffix, _ = _construct_suffix(10, exponent, fmt)
            return number, suffix
        amount, exponent = _remove_factors(rounded, 1024)
        suffix, _ = _construct_suffix(2, exponent * 10, fmt)
        return str(amount), suffix

    def string(self) -> str:
        """The canonical text, e.g. ``"1536Mi"``. Go: quantity.go ``Quantity.String``."""
        if not self._s:
            number, suffix = self.canonicalize_bytes()
            # A cache of a pure function of immutable fields, exactly like Go's q.s.
            object.__setattr__(self, "_s", number + suffix)
        return self._s

    def __str__(self) -> str:
        return self.string()

    def __repr__(self) -> str:
        return f"Quantity({self.string()!r})"

    # -- value semantics -----------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Quantity):
            return NotImplemented
        return self.cmp(other) == 0

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Quantity):
            return NotImplemented
        return self.cmp(other) != 0

    def __lt__(self, other: Quantity) -> bool:
        if not isinstance(other, Quantity):
            return NotImplemented
        return self.cmp(other) < 0

    def __le__(self, other: Quantity) -> bool:
        if not isinstance(other, Quantity):
            return NotImplemented
        return self.cmp(other) <= 0

    def __gt__(self, other: Quantity) -> bool:
        if not isinstance(other, Quantity):
            return NotImplemented
        return self.cmp(other) > 0

    def __ge__(self, other: Quantity) -> bool:
        if not isinstance(other, Quantity):
            return NotImplemented
        return self.cmp(other) >= 0

    def __hash__(self) -> int:
        # Equal values must hash equal whatever their scale: strip factors of ten first.
        value, times = _remove_factors(self._value, 10)
        return hash((value, self._scale + times if value else 0))


def _dec_sum(q: Quantity, yv: int, y_scale: int, fmt: Format) -> Quantity:
    """Exact sum in the inf.Dec form (aligned to the finer scale, like inf.Dec.Add)."""
    low = min(q._scale, y_scale)
    value = q._value * 10 ** (q._scale - low) + yv * 10 ** (y_scale - low)
    return Quantity(value=value, scale=low, format=fmt, dec=True)


def _parse_quantity_string(s: str) -> tuple[bool, str, str, str, str]:
    """Split a quantity into ``(positive, value, num, denom, suffix)``.

    Go: quantity.go ``parseQuantityString``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go#L157-L272

    ``num`` has its leading zeros stripped (``"0"`` when nothing is left); ``value`` is the signed
    number text before the suffix. Raises :class:`QuantityError` when the suffix part is malformed.
    """
    positive = True
    pos = 0
    end = len(s)
    if pos < end:
        if s[0] == "-":
            positive = False
            pos += 1
        elif s[0] == "+":
            pos += 1
    # Leading zeros.
    i = pos
    while True:
        if i >= end:
            return positive, "0", "0", "", ""
        if s[i] != "0":
            break
        pos += 1
        i += 1
    # Integer part.
    i = pos
    while i < end and s[i] in _DIGITS:
        i += 1
    if i >= end:
        return positive, s, s[pos:end], "", ""
    num = s[pos:i] or "0"
    pos = i
    # Fraction part ("1." and "." are accepted, as in Go).
    denom = ""
    if s[pos] == ".":
        pos += 1
        i = pos
        while i < end and s[i] in _DIGITS:
            i += 1
        denom = s[pos:i]
        if i >= end:
            return positive, s, num, denom, ""
        pos = i
    value = s[:pos]
    # Suffix letters, then an optional signed exponent.
    suffix_start = pos
    i = pos
    while i < end and s[i] in _SUFFIX_CHARS:
        i += 1
    if i >= end:
        return positive, value, num, denom, s[suffix_start:end]
    pos = i
    if s[pos] in "-+":
        pos += 1
    i = pos
    while i < end and s[i] in _DIGITS:
        i += 1
    if i >= end:
        return positive, value, num, denom, s[suffix_start:end]
    raise QuantityError(s, ERR_FORMAT_WRONG)


def parse_quantity(s: str) -> Quantity:
    """Parse a quantity string such as ``"100m"``, ``"1.5Gi"`` or ``"1e3"``.

    Go: quantity.go ``ParseQuantity``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go#L274-L389

    Values that fit an int64 at scale >= nano take the fast path; the rest are parsed exactly,
    rounded *up* to a whole nano (``0.1n`` → ``1n``: asking for some resource gives some), and
    binary-SI values are capped at 2^63-1. Quirks kept from Go: a bare suffix (``"Mi"``) or a lone
    ``"."`` parse as zero, and an input that is already canonical is printed back verbatim
    (``"+1k"`` prints ``+1k``, ``"1E3"`` prints ``1E3``).

    Raises :class:`QuantityError` quoting the input.
    """
    if not isinstance(s, str):
        raise QuantityError(repr(s), f"expected a string, got {type(s).__name__}")
    if len(s) == 0:
        raise QuantityError(s, ERR_FORMAT_WRONG)
    if s == "0":
        return Quantity(value=0, scale=0, format=DECIMAL_SI, s=s)

    if len(s) > MAX_QUANTITY_LENGTH:
        raise QuantityError(s[:40] + "...", f"{len(s)} characters long; kschedlearn accepts at most "
                            f"{MAX_QUANTITY_LENGTH} (Differs from Go: Go's inf.Dec has no such bound)")
    positive, _value_text, num, denom, suf = _parse_quantity_string(s)
    base, exponent, fmt, ok = _interpret_suffix(suf)
    if not ok:
        raise QuantityError(s, ERR_SUFFIX)

    precision = 0
    scale = 0
    mantissa = 1
    if fmt in (DECIMAL_EXPONENT, DECIMAL_SI):
        scale = exponent
        precision = _MAX_INT64_FACTORS - (len(num) + len(denom))
    elif fmt == BINARY_SI:
        if exponent >= 0 and len(denom) == 0:
            mantissa = 1 << exponent
            # 1Mi (2^20) carries ~6 decimal digits: Go's rough "exponent*3/10" estimate.
            precision = 15 - len(num) - int(exponent * 3 / 10) - 1
        else:
            precision = -1

    if precision >= 0:
        scale -= len(denom)
        if scale >= NANO:
            shifted = num + denom
            parsed = int(shifted)
            if parsed > _MOST_POSITIVE:
                raise QuantityError(s, ERR_NUMERIC)
            result, ok = _int64_multiply(parsed, mantissa)
            if ok:
                if not positive:
                    result = -result
                if fmt == BINARY_SI:
                    canonical = exponent % 10 == 0 and (parsed & 0x07) != 0
                else:
                    canonical = scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0"
                return Quantity(value=result, scale=scale, format=fmt, s=s if canonical else "")

    return _parse_quantity_slow(positive, num, denom, base, exponent, fmt)


def _parse_quantity_slow(
    positive: bool, num: str, denom: str, base: int, exponent: int, fmt: Format
) -> Quantity:
    """The inf.Dec half of ParseQuantity: exact value, round up to nano, cap binary SI."""
    unscaled = int(num + denom)
    scale = -len(denom)
    if base == 10:
        scale += exponent
    else:
        unscaled <<= exponent
    if unscaled != 0:
        unscaled, scale = _round_up_to_nano(unscaled, scale)
    if fmt == BINARY_SI and _cmp_amounts(unscaled, scale, _MOST_POSITIVE, 0) > 0:
        unscaled, scale = _MOST_POSITIVE, 0
    if fmt == BINARY_SI and _cmp_amounts(unscaled, scale, 1, 0) < 0 and unscaled > 0:
        fmt = DECIMAL_SI  # a fraction of one byte makes no sense in binary units
    if not positive:
        unscaled = -unscaled
    return Quantity(value=unscaled, scale=scale, format=fmt, dec=True)


def _round_up_to_nano(unscaled: int, scale: int) -> tuple[int, int]:
    """inf.Dec.Round(amount, 9, RoundUp) on a positive amount: ceil to a whole nano.

    Like inf, the result is expressed at scale -9 exactly (padding with zeros when coarser);
    the padding is skipped for absurdly large exponents where it could only waste memory.
    """
    if scale < NANO:
        shift = NANO - scale
        if shift > len(str(unscaled)):
            return 1, NANO
        q, r = divmod(unscaled, 10**shift)
        return q + (1 if r else 0), NANO
    if scale - NANO <= 2 * _LOG10_MAX_INT64:
        return unscaled * 10 ** (scale - NANO), NANO
    return unscaled, scale


def must_parse(s: str) -> Quantity:
    """Parse or raise — for tests and constants. Go: quantity.go ``MustParse`` (panics there)."""
    return parse_quantity(s)


def new_quantity(value: int, fmt: Format) -> Quantity:
    """``value`` units in format ``fmt``. Go: quantity.go ``NewQuantity``."""
    return Quantity(value=value, scale=0, format=fmt)


def new_milli_quantity(value: int, fmt: Format) -> Quantity:
    """``value / 1000`` units in format ``fmt``. Go: quantity.go ``NewMilliQuantity``."""
    return Quantity(value=value, scale=MILLI, format=fmt)


def new_scaled_quantity(value: int, scale: Scale) -> Quantity:
    """``value * 10**scale`` in decimal SI. Go: quantity.go ``NewScaledQuantity``."""
    return Quantity(value=value, scale=scale, format=DECIMAL_SI)


def unmarshal_json(raw: Any) -> Quantity:
    """Decode a manifest value (string, number or null) into a quantity.

    Go: quantity.go ``Quantity.UnmarshalJSON``, https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go#L645-L666

    ``null`` gives the zero quantity; strings are trimmed of surrounding whitespace (only this
    path allows it); YAML numbers are parsed from their decimal text.

    Differs from Go: takes the already-decoded YAML/JSON value instead of raw JSON bytes.
    """
    if raw is None:
        return Quantity()
    if isinstance(raw, bool):
        raise QuantityError(repr(raw), "expected a string or a number, got bool")
    if isinstance(raw, (int, float)):
        return parse_quantity(repr(raw))
    if isinstance(raw, str):
        return parse_quantity(raw.strip())
    raise QuantityError(repr(raw), f"expected a string or a number, got {type(raw).__name__}")

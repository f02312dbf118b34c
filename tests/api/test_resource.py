"""Ports of apimachinery resource/quantity_test.go (v1.6.1) plus kschedlearn properties.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/resource/quantity_test.go
Case ids name the Go test each row comes from ("brief" rows are the project's own examples).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.api.resource import (
    BINARY_SI,
    DECIMAL_EXPONENT,
    DECIMAL_SI,
    ERR_FORMAT_WRONG,
    ERR_SUFFIX,
    MICRO,
    MILLI,
    NANO,
    Quantity,
    QuantityError,
    must_parse,
    new_milli_quantity,
    new_quantity,
    new_scaled_quantity,
    parse_quantity,
    unmarshal_json,
)

MAX = (1 << 63) - 1

# (input, canonical String(), Value(), MilliValue(), Format)
PARSE_TABLE = [
    ("TestQuantityParse/0", "0", "0", 0, 0, DECIMAL_SI),
    ("TestQuantityParse/0n", "0n", "0", 0, 0, DECIMAL_SI),
    ("TestQuantityParse/0Ki", "0Ki", "0", 0, 0, BINARY_SI),
    ("TestQuantityParse/0M", "0M", "0", 0, 0, DECIMAL_SI),
    ("TestQuantityParse/1", "1", "1", 1, 1000, DECIMAL_SI),
    ("TestQuantityParse/1Ki", "1Ki", "1Ki", 1024, 1024000, BINARY_SI),
    ("TestQuantityParse/8Ki", "8Ki", "8Ki", 8192, 8192000, BINARY_SI),
    ("TestQuantityParse/7Mi", "7Mi", "7Mi", 7340032, 7340032000, BINARY_SI),
    ("TestQuantityParse/6Gi", "6Gi", "6Gi", 6442450944, 6442450944000, BINARY_SI),
    ("TestQuantityParse/5Ti", "5Ti", "5Ti", 5497558138880, 5497558138880000, BINARY_SI),
    ("TestQuantityParse/4Pi", "4Pi", "4Pi", 4503599627370496, 4503599627370496000, BINARY_SI),
    ("TestQuantityParse/100Ti", "100Ti", "100Ti", 109951162777600, 109951162777600000, BINARY_SI),
    ("TestQuantityParse/5n", "5n", "5n", 1, 1, DECIMAL_SI),
    ("TestQuantityParse/4u", "4u", "4u", 1, 1, DECIMAL_SI),
    ("TestQuantityParse/3m", "3m", "3m", 1, 3, DECIMAL_SI),
    ("TestQuantityParse/8k", "8k", "8k", 8000, 8000000, DECIMAL_SI),
    ("TestQuantityParse/50k", "50k", "50k", 50000, 50000000, DECIMAL_SI),
    ("TestQuantityParse/5T", "5T", "5T", 5 * 10**12, 5 * 10**15, DECIMAL_SI),
    ("TestQuantityParse/300T", "300T", "300T", 3 * 10**14, 3 * 10**17, DECIMAL_SI),
    ("TestQuantityParse/1E", "1E", "1E", 10**18, MAX, DECIMAL_SI),  # milli saturates (Go overflows)
    ("TestQuantityParse/1E-3", "1E-3", "1E-3", 1, 1, DECIMAL_EXPONENT),
    ("TestQuantityParse/1e3", "1e3", "1e3", 1000, 1000000, DECIMAL_EXPONENT),
    ("TestQuantityParse/1e14", "1e14", "100e12", 10**14, 10**17, DECIMAL_EXPONENT),
    ("TestQuantityParse/100.035k", "100.035k", "100.035k", 100035, 100035000, DECIMAL_SI),
    ("TestQuantityParse/0.001", "0.001", "1m", 1, 1, DECIMAL_SI),
    ("TestQuantityParse/0.0005k", "0.0005k", "500m", 1, 500, DECIMAL_SI),
    ("TestQuantityParse/0.5e0", "0.5e0", "500e-3", 1, 500, DECIMAL_EXPONENT),
    ("TestQuantityParse/10.035M", "10.035M", "10.035M", 10035000, 10035000000, DECIMAL_SI),
    ("TestQuantityParse/1.2e3", "1.2e3", "1200", 1200, 1200000, DECIMAL_EXPONENT),
    ("TestQuantityParse/1.3E+6", "1.3E+6", "1300e3", 1300000, 1300000000, DECIMAL_EXPONENT),
    ("TestQuantityParse/9.01", "9.01", "9010m", 10, 9010, DECIMAL_SI),
    ("TestQuantityParse/7.123456M", "7.123456M", "7.123456M", 7123456, 7123456000, DECIMAL_SI),
    ("TestQuantityParse/2.5P", "2.5P", "2500T", 25 * 10**14, 25 * 10**17, DECIMAL_SI),
    ("TestQuantityParse/3.001n-rounds-up", "3.001n", "4n", 1, 1, DECIMAL_SI),
    ("TestQuantityParse/1.1E-9-rounds-up", "1.1E-9", "2e-9", 1, 1, DECIMAL_EXPONENT),
    ("TestQuantityParse/0.0000000001-rounds-up", "0.0000000001", "1n", 1, 1, DECIMAL_SI),
    ("TestQuantityParse/0.00000012345", "0.00000012345", "124n", 1, 1, DECIMAL_SI),
    ("TestQuantityParse/9Ei-capped", "9Ei", str(MAX), MAX, MAX, BINARY_SI),
    ("TestQuantityParse/12E", "12E", "12E", MAX, MAX, DECIMAL_SI),  # value saturates (Go overflows)
    ("TestQuantityParse/100.035Ki", "100.035Ki", "102435840m", 102436, 102435840, BINARY_SI),
    ("TestQuantityParse/0.5Mi", "0.5Mi", "512Ki", 524288, 524288000, BINARY_SI),
    ("TestQuantityParse/0.05Gi", "0.05Gi", "53687091200m", 53687092, 53687091200, BINARY_SI),
    ("TestQuantityParse/0.025Ti", "0.025Ti", "27487790694400m", 27487790695, 27487790694400, BINARY_SI),
    ("TestQuantityParse/.001", ".001", "1m", 1, 1, DECIMAL_SI),
    ("TestQuantityParse/.0001k", ".0001k", "100m", 1, 100, DECIMAL_SI),
    ("TestQuantityParse/1.-kept-verbatim", "1.", "1.", 1, 1000, DECIMAL_SI),
    ("TestQuantityParse/1.G-kept-verbatim", "1.G", "1.G", 10**9, 10**12, DECIMAL_SI),
    ("TestQuantityParseEmit/1Mi", "1Mi", "1Mi", 1048576, 1048576000, BINARY_SI),
    ("TestQuantityParseEmit/1024Mi", "1024Mi", "1Gi", 1073741824, 1073741824000, BINARY_SI),
    ("TestQuantityParseEmit/1000M", "1000M", "1G", 10**9, 10**12, DECIMAL_SI),
    ("TestQuantityParseEmit/.001Ki", ".001Ki", "1024m", 2, 1024, BINARY_SI),
    ("TestQuantityParseEmit/.000001Ki", ".000001Ki", "1024u", 1, 2, DECIMAL_SI),
    ("TestQuantityParseEmit/.000000001Ki", ".000000001Ki", "1024n", 1, 1, DECIMAL_SI),
    ("TestQuantityParseEmit/.000000000001Ki", ".000000000001Ki", "2n", 1, 1, DECIMAL_SI),
    ("TestQuantityParseEmit/-1Ki", "-1Ki", "-1Ki", -1024, -1024000, BINARY_SI),
    ("TestQuantityParseEmit/-1000M", "-1000M", "-1G", -(10**9), -(10**12), DECIMAL_SI),
    ("TestQuantityParse/negative-int64-rounds-away-from-zero", "-1.5", "-1500m", -2, -1500, DECIMAL_SI),
    ("TestQuantityParse/-100m", "-100m", "-100m", -1, -100, DECIMAL_SI),
    # Go's scaledValue fast path: truncate, then +1 — a negative inf.Dec fraction lands on +1.
    ("scale_int.go/negative-dec-quirk", "-0.0001Ki", "-102400u", 1, -101, DECIMAL_SI),
    ("brief/2000", "2000", "2k", 2000, 2000000, DECIMAL_SI),
    ("brief/1024", "1024", "1024", 1024, 1024000, DECIMAL_SI),
    ("brief/1.5Gi", "1.5Gi", "1536Mi", 1610612736, 1610612736000, BINARY_SI),
    ("brief/0.1", "0.1", "100m", 1, 100, DECIMAL_SI),
    ("brief/100m", "100m", "100m", 1, 100, DECIMAL_SI),
    ("brief/1E3-kept-verbatim", "1E3", "1E3", 1000, 1000000, DECIMAL_EXPONENT),
    ("brief/+1k-kept-verbatim", "+1k", "+1k", 1000, 1000000, DECIMAL_SI),
    ("brief/010-kept-verbatim", "010", "010", 10, 10000, DECIMAL_SI),
    ("brief/bare-suffix-Mi-is-zero", "Mi", "0", 0, 0, BINARY_SI),
    ("brief/1000E-loses-suffix", "1000E", "1", MAX, MAX, DECIMAL_SI),
]


@pytest.mark.parametrize(
    ("text", "canonical", "value", "milli", "fmt"),
    [row[1:] for row in PARSE_TABLE],
    ids=[row[0] for row in PARSE_TABLE],
)
def test_parse_table(text: str, canonical: str, value: int, milli: int, fmt: str) -> None:
    q = parse_quantity(text)
    assert str(q) == canonical
    assert q.string() == canonical
    assert q.value() == value
    assert q.milli_value() == milli
    assert q.format == fmt


@pytest.mark.parametrize(("text", "canonical", "value", "milli", "fmt"), [row[1:] for row in PARSE_TABLE if row[2] not in ("0",) and not row[0].startswith(("brief/1000E", "TestQuantityParse/9Ei", "TestQuantityParse/12E"))], ids=[row[0] for row in PARSE_TABLE if row[2] not in ("0",) and not row[0].startswith(("brief/1000E", "TestQuantityParse/9Ei", "TestQuantityParse/12E"))])
def test_canonical_string_reparses_to_same_value(text: str, canonical: str, value: int, milli: int, fmt: str) -> None:
    assert parse_quantity(canonical) == parse_quantity(text)


INVALID = [
    ("TestQuantityParse/empty", "", ERR_FORMAT_WRONG),
    ("TestQuantityParse/1.1.M", "1.1.M", ERR_FORMAT_WRONG),
    ("TestQuantityParse/1+1.0M", "1+1.0M", ERR_FORMAT_WRONG),
    ("TestQuantityParse/0.1mi", "0.1mi", ERR_SUFFIX),
    ("TestQuantityParse/0.1am", "0.1am", ERR_FORMAT_WRONG),
    ("TestQuantityParse/aoeu", "aoeu", ERR_FORMAT_WRONG),
    ("TestQuantityParse/.5i", ".5i", ERR_SUFFIX),
    ("TestQuantityParse/1i", "1i", ERR_SUFFIX),
    ("TestQuantityParse/-3.01i", "-3.01i", ERR_SUFFIX),
    ("TestQuantityParse/-3.01e-", "-3.01e-", ERR_SUFFIX),
    ("TestQuantityParse/leading-space", " 1", ERR_FORMAT_WRONG),
    ("TestQuantityParse/trailing-space", "1 ", ERR_FORMAT_WRONG),
    ("brief/12Q", "12Q", ERR_FORMAT_WRONG),
    ("brief/1.5.3", "1.5.3", ERR_FORMAT_WRONG),
    ("brief/--1", "--1", ERR_SUFFIX),
    ("TestQuantityParseNonNumericPanic", "Non-Numeric", ERR_FORMAT_WRONG),
]


@pytest.mark.parametrize(("text", "reason"), [r[1:] for r in INVALID], ids=[r[0] for r in INVALID])
def test_invalid_quantities(text: str, reason: str) -> None:
    with pytest.raises(QuantityError) as info:
        parse_quantity(text)
    assert info.value.reason == reason
    assert info.value.quantity == text
    assert str(info.value) == f'invalid quantity "{text}": {reason}'
    assert isinstance(info.value, ValueError)


def test_error_message_names_the_input() -> None:
    with pytest.raises(ValueError, match=r'^invalid quantity "12Q": quantities must match'):
        must_parse("12Q")


def test_parse_rejects_non_strings() -> None:
    with pytest.raises(QuantityError, match="expected a string, got int"):
        parse_quantity(5)  # type: ignore[arg-type]


CMP = [("0", "0", 0), ("100m", "50m", 1), ("50m", "100m", -1), ("10000T", "100Gi", 1), ("1Ki", "1024", 0)]


@pytest.mark.parametrize(("x", "y", "expect"), CMP, ids=[f"TestQuantityCmp/{x}-{y}" for x, y, _ in CMP])
def test_cmp(x: str, y: str, expect: int) -> None:
    qx, qy = must_parse(x), must_parse(y)
    assert qx.cmp(qy) == expect
    assert qy.cmp(qx) == -expect
    assert (qx == qy) == (expect == 0)
    assert (qx < qy) == (expect < 0)
    assert (qx > qy) == (expect > 0)


def test_equal_values_hash_equal_whatever_the_format() -> None:
    assert must_parse("1Ki") == must_parse("1024") == must_parse("1.024k")
    assert len({must_parse("1Ki"), must_parse("1024"), must_parse("1024000m"), must_parse("1.024e3")}) == 1
    assert sorted([must_parse("1Gi"), must_parse("100m"), must_parse("2")]) == [
        must_parse("100m"),
        must_parse("2"),
        must_parse("1Gi"),
    ]
    assert must_parse("1") != "1"


@pytest.mark.parametrize("text", ["100m", "1Gi"])
def test_add_sub_zero_preserves_suffix(text: str) -> None:
    """Go: TestQuantityAddZeroPreservesSuffix / TestQuantitySubZeroPreservesSuffix."""
    zero, value = must_parse("0"), must_parse(text)
    assert str(value.add(zero)) == text
    assert str(zero.add(value)) == text
    assert str(value.sub(zero)) == text
    assert str(zero.sub(value)) == str(value.neg())


def test_add_sub_return_new_quantities() -> None:
    a, b = must_parse("100m"), must_parse("1")
    total = a.add(b)
    assert str(total) == "1100m" and str(a) == "100m" and str(b) == "1"
    assert str(must_parse("1Gi").sub(must_parse("512Mi"))) == "512Mi"
    assert str(must_parse("1.5Gi").add(must_parse("0.5Gi"))) == "2Gi"  # inf.Dec path
    big = new_quantity(MAX, DECIMAL_SI).add(new_quantity(MAX, DECIMAL_SI))  # int64 overflow → inf.Dec
    assert big.cmp(new_quantity(MAX, DECIMAL_SI)) > 0


NEG = [(Quantity(value=901, scale=-2, format=DECIMAL_SI), "-9010m"),
       (Quantity(value=901, scale=-2, format=DECIMAL_SI, dec=True), "-9010m")]


@pytest.mark.parametrize(("q", "out"), NEG, ids=["TestQuantityNeg/int", "TestQuantityNeg/dec"])
def test_neg(q: Quantity, out: str) -> None:
    n = q.neg()
    assert str(n) == out
    assert n.cmp(q) != 0


ROUND_UP = [
    ("9.01", -3, "9010m", True), ("9.01", -2, "9010m", True), ("9.01", -1, "9100m", False),
    ("9.01", 0, "10", False), ("9.01", 1, "10", False), ("9.01", 2, "100", False),
    ("-9.01", -3, "-9010m", True), ("-9.01", -1, "-9100m", False), ("-9.01", 0, "-10", False),
    ("-9.01", 2, "-100", False),
]


@pytest.mark.parametrize(("text", "scale", "expect", "ok"), ROUND_UP,
                         ids=[f"TestQuantityRoundUp/{t}@{s}" for t, s, _, _ in ROUND_UP])
def test_round_up(text: str, scale: int, expect: str, ok: bool) -> None:
    rounded, exact = must_parse(text).round_up(scale)
    assert exact == ok
    assert rounded == must_parse(expect)


STRING = [
    (1024**3, 0, BINARY_SI, "1Gi"), (300 * 1024**2, 0, BINARY_SI, "300Mi"), (6 * 1024, 0, BINARY_SI, "6Ki"),
    (1001 * 1024**3, 0, BINARY_SI, "1001Gi"), (1024**4, 0, BINARY_SI, "1Ti"), (5, 0, BINARY_SI, "5"),
    (500, -3, BINARY_SI, "500m"), (1, 9, DECIMAL_SI, "1G"), (1000, 6, DECIMAL_SI, "1G"),
    (1, -3, DECIMAL_SI, "1m"), (80, -3, DECIMAL_SI, "80m"), (1080, -3, DECIMAL_SI, "1080m"),
    (108, -2, DECIMAL_SI, "1080m"), (10800, -4, DECIMAL_SI, "1080m"), (300, 6, DECIMAL_SI, "300M"),
    (1, 12, DECIMAL_SI, "1T"), (1234567, 6, DECIMAL_SI, "1234567M"), (1234567, -3, BINARY_SI, "1234567m"),
    (3, 3, DECIMAL_SI, "3k"), (1025, 0, BINARY_SI, "1025"), (0, 0, DECIMAL_SI, "0"), (0, 0, BINARY_SI, "0"),
    (1, 9, DECIMAL_EXPONENT, "1e9"), (1, -3, DECIMAL_EXPONENT, "1e-3"), (1, -9, DECIMAL_EXPONENT, "1e-9"),
    (80, -3, DECIMAL_EXPONENT, "80e-3"), (300, 6, DECIMAL_EXPONENT, "300e6"), (3, 3, DECIMAL_EXPONENT, "3e3"),
    (1, -9, DECIMAL_SI, "1n"), (108, -8, DECIMAL_SI, "1080n"), (80, -6, DECIMAL_SI, "80u"),
    (1, 21, DECIMAL_SI, "1"),  # v1.6.1: no suffix beyond E, the magnitude is dropped
]


@pytest.mark.parametrize(("value", "scale", "fmt", "expect"), STRING,
                         ids=[f"TestQuantityString/{e}/{v}e{s}" for v, s, _, e in STRING])
@pytest.mark.parametrize("dec", [False, True], ids=["int64Amount", "infDec"])
def test_string(value: int, scale: int, fmt: str, expect: str, dec: bool) -> None:
    q = Quantity(value=value, scale=scale, format=fmt, dec=dec)
    assert str(q) == expect
    if value:
        assert str(q.neg()) == "-" + expect


MILLI_NEW = [(1, DECIMAL_SI, "1m"), (1000, DECIMAL_SI, "1"), (1234000, DECIMAL_SI, "1234"),
             (1024, BINARY_SI, "1024m"), (1000000, "invalidFormatDefaultsToExponent", "1e3"),
             (1024 * 1024, BINARY_SI, "1048576m")]


@pytest.mark.parametrize(("value", "fmt", "expect"), MILLI_NEW, ids=[f"TestMilliNewSet/{e}" for _, _, e in MILLI_NEW])
def test_new_milli_quantity(value: int, fmt: str, expect: str) -> None:
    q = new_milli_quantity(value, fmt)
    assert str(q) == expect
    assert must_parse(str(q)).milli_value() == value


NEW = [(1, DECIMAL_SI, "1"), (1000, DECIMAL_SI, "1k"), (1234000, DECIMAL_SI, "1234k"), (1024, BINARY_SI, "1Ki"),
       (1000000, "invalidFormatDefaultsToExponent", "1e6"), (1024 * 1024, BINARY_SI, "1Mi")]


@pytest.mark.parametrize(("value", "fmt", "expect"), NEW, ids=[f"TestNewSet/{e}" for _, _, e in NEW])
def test_new_quantity(value: int, fmt: str, expect: str) -> None:
    q = new_quantity(value, fmt)
    assert str(q) == expect
    assert must_parse(str(q)).value() == value


SCALED = [(1, NANO, "1n"), (1000, NANO, "1u"), (1, MICRO, "1u"), (1000, MICRO, "1m"), (1, MILLI, "1m"),
          (1000, MILLI, "1"), (1, 0, "1"), (0, NANO, "0"), (0, MICRO, "0"), (0, MILLI, "0"), (0, 0, "0")]


@pytest.mark.parametrize(("value", "scale", "expect"), SCALED,
                         ids=[f"TestNewScaledSet/{v}e{s}" for v, s, _ in SCALED])
def test_new_scaled_quantity(value: int, scale: int, expect: str) -> None:
    q = new_scaled_quantity(value, scale)
    assert str(q) == expect
    assert q.scaled_value(scale) == value


JSON = [(" 1", "1"), ("1 ", "1"), (1, "1"), (10, "10"), (-1, "-1"), (" -1", "-1"), (0.5, "500m"), (None, "0")]


@pytest.mark.parametrize(("raw", "expect"), JSON, ids=[f"TestJSONWhitespace/{r!r}" for r, _ in JSON])
def test_unmarshal_json(raw: object, expect: str) -> None:
    assert str(unmarshal_json(raw)) == expect


def test_unmarshal_json_rejects_bool() -> None:
    with pytest.raises(QuantityError, match="got bool"):
        unmarshal_json(True)


def test_as_int64_and_as_dec() -> None:
    assert must_parse("1k").as_int64() == (1000, True)
    assert must_parse("100m").as_int64() == (0, False)
    assert str(must_parse("1.5Gi").as_dec()) == "1610612736.000000000"
    assert must_parse("-2.5").sign() == -1 and must_parse("0").is_zero()


def test_huge_exponents_stay_cheap() -> None:
    q = must_parse("1e2000000000")
    assert str(q) == "100e1999999998"
    assert q.value() == MAX
    assert q > must_parse("1E") and must_parse("1e-2000000000") == must_parse("1n")


@settings(max_examples=examples(300), deadline=None)
@given(
    value=st.integers(min_value=-(10**12), max_value=10**12),
    scale=st.integers(min_value=-9, max_value=6),
    fmt=st.sampled_from([DECIMAL_SI, BINARY_SI, DECIMAL_EXPONENT]),
    dec=st.booleans(),
)
def test_round_trip_through_string(value: int, scale: int, fmt: str, dec: bool) -> None:
    """Go: TestJSON — printing then parsing keeps the value (the fuzz test's property)."""
    q = Quantity(value=value, scale=scale, format=fmt, dec=dec)
    again = parse_quantity(str(q))
    assert again == q
    assert hash(again) == hash(q)


@settings(max_examples=examples(200), deadline=None)
@given(milli=st.integers(min_value=0, max_value=10**15))
def test_milli_value_of_milli_quantity(milli: int) -> None:
    q = parse_quantity(f"{milli}m")
    assert q.milli_value() == milli
    assert q.value() == -(-milli // 1000)  # ceil for non-negative values

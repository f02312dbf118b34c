"""Ports of apimachinery fields/selector_test.go and fields_test.go (v1.6.1).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/fields/selector_test.go
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_budget import examples

from kschedlearn.apimachinery import fields
from kschedlearn.apimachinery.fields import (
    InvalidEscapeSequence,
    InvalidFieldSelectorError,
    Set,
    UnescapedRune,
)

GOOD = [
    ("x=a,y=b,z=c", "x=a,y=b,z=c"), ("", ""), ("x!=a,y=b", "x!=a,y=b"),
    ("x=a,y=b", "x=a,y=b"), ("x==a", "x=a"), ("x=a\\,b", "x=a\\,b"), ("x=a\\=b", "x=a\\=b"),
    ("x=a\\\\b", "x=a\\\\b"), ("y=b,x=a", "x=a,y=b"), ("x=", "x="), ("x!=", "x!="),
    ("spec.nodeName==,status.phase!=Succeeded,status.phase!=Failed",
     "spec.nodeName=,status.phase!=Failed,status.phase!=Succeeded"),
]


@pytest.mark.parametrize(("text", "out"), GOOD, ids=[f"TestSelectorParse/{t!r}" for t, _ in GOOD])
def test_selector_parse(text: str, out: str) -> None:
    assert fields.parse_selector(text).string() == out


BAD = [
    ("x=a||y=b", UnescapedRune), ("x==a==b", UnescapedRune), ("x=a,b", InvalidFieldSelectorError),
    ("x in (a)", InvalidFieldSelectorError), ("x in (a,b,c)", InvalidFieldSelectorError), ("x", InvalidFieldSelectorError),
    ("x=a\\q", InvalidEscapeSequence), ("x=a\\", InvalidEscapeSequence),
]


@pytest.mark.parametrize(("text", "err"), BAD, ids=[f"TestSelectorParse/bad/{t!r}" for t, _ in BAD])
def test_selector_parse_bad(text: str, err: type[Exception]) -> None:
    with pytest.raises(err):
        fields.parse_selector(text)


def test_error_messages() -> None:
    with pytest.raises(InvalidFieldSelectorError) as info:
        fields.parse_selector("x=a,b")
    assert str(info.value) == "invalid selector: 'x=a,b'; can't understand 'b'"
    with pytest.raises(InvalidFieldSelectorError) as info:
        fields.parse_selector("x=a=b")
    assert str(info.value) == "invalid field selector: unescaped character in value: 61"  # Go prints %v of a rune
    with pytest.raises(InvalidFieldSelectorError) as info:
        fields.parse_selector("x=a\\q")
    assert str(info.value) == "invalid field selector: invalid escape sequence: \\q"


def test_deterministic_parse() -> None:
    """Go: TestDeterministicParse."""
    assert str(fields.parse_selector("x=a,a=x")) == str(fields.parse_selector("a=x,x=a"))


MATCH = [
    ("", {"x": "y"}, True), ("x=y", {"x": "y"}, True), ("x=y,z=w", {"x": "y", "z": "w"}, True),
    ("x!=y,z!=w", {"x": "z", "z": "a"}, True), ("notin=in", {"notin": "in"}, True),
    ("x=y", {"x": "z"}, False), ("x=y,z=w", {"x": "w", "z": "w"}, False),
    ("x!=y,z!=w", {"x": "z", "z": "w"}, False), ("x=", {}, True), ("x!=", {}, False),
    ("foo=bar", {"foo": "bar", "baz": "blah"}, True), ("baz=blah", {"foo": "bar", "baz": "blah"}, True),
    ("foo=bar,baz=blah", {"foo": "bar", "baz": "blah"}, True), ("foo=blah", {"foo": "bar", "baz": "blah"}, False),
    ("baz=bar", {"foo": "bar", "baz": "blah"}, False),
    ("foo=bar,foobar=bar,baz=blah", {"foo": "bar", "baz": "blah"}, False),
    ("x=a\\,b", {"x": "a,b"}, True),
]


@pytest.mark.parametrize(("sel", "fs", "want"), MATCH, ids=[f"TestSelectorMatches/{s!r}-{w}" for s, _, w in MATCH])
def test_selector_matches(sel: str, fs: dict[str, str], want: bool) -> None:
    assert fields.parse_selector(sel).matches(Set(fs)) is want
    assert fields.parse_selector(sel).matches(fs) is want


def test_scheduler_pod_watch_selectors() -> None:
    """Spec §2.3: the unassigned/assigned pod watches of factory.go."""
    unassigned = fields.parse_selector("spec.nodeName==,status.phase!=Succeeded,status.phase!=Failed")
    assigned = fields.parse_selector("spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed")
    pending = {"spec.nodeName": "", "status.phase": "Pending"}
    bound = {"spec.nodeName": "node-1", "status.phase": "Pending"}
    done = {"spec.nodeName": "node-1", "status.phase": "Succeeded"}
    assert unassigned.matches(pending) and not unassigned.matches(bound)
    assert assigned.matches(bound) and not assigned.matches(pending) and not assigned.matches(done)


def test_one_term_equal_selector() -> None:
    """Go: TestOneTermEqualSelector."""
    assert fields.one_term_equal_selector("x", "y").matches(Set({"x": "y"}))
    assert not fields.one_term_equal_selector("x", "y").matches(Set({"x": "z"}))
    assert str(fields.one_term_equal_selector("metadata.name", "a,b")) == "metadata.name=a\\,b"


def test_everything_and_set_selectors() -> None:
    """Go: TestEverything, TestSetMatches, TestNilMapIsValid, TestSetIsEmpty."""
    assert fields.everything().matches({"x": "y"}) and fields.everything().empty()
    assert fields.selector_from_set(None).empty()
    assert Set().as_selector().empty()
    s = Set({"foo": "bar", "baz": "blah"})
    assert str(s) == "baz=blah,foo=bar" and s.get("nope") == "" and s.has("foo")
    for sel in ({}, {"foo": "bar"}, {"baz": "blah"}, {"foo": "bar", "baz": "blah"}):
        assert Set(sel).as_selector().matches(s)
    assert not Set({"foo": "=blah"}).as_selector().matches(s)


REQUIRES = [
    (fields.one_term_equal_selector("test", "b"), "test", "b", True),
    (fields.parse_selector("test=b"), "test", "b", True),
    (fields.parse_selector("test!=b"), "test", "", False),
    (fields.parse_selector("test=b,x=y"), "test", "b", True),
    (fields.everything(), "test", "", False),
    (fields.parse_selector("x=y"), "test", "", False),
]


@pytest.mark.parametrize(("sel", "field", "value", "found"), REQUIRES,
                         ids=[f"TestRequiresExactMatch/{i}" for i in range(len(REQUIRES))])
def test_requires_exact_match(sel: fields.Selector, field: str, value: str, found: bool) -> None:
    assert sel.requires_exact_match(field) == (value, found)


def test_transform() -> None:
    """Go: TestSelectorTransform / ParseAndTransformSelector."""
    def upper(field: str, value: str) -> tuple[str, str]:
        return field.upper(), value.upper()

    sel = fields.parse_and_transform_selector("a=b,c!=d", upper)
    assert str(sel) == "A=B,C!=D"

    def reject(field: str, value: str) -> tuple[str, str]:
        raise InvalidFieldSelectorError(f"field label not supported: {field}")

    with pytest.raises(InvalidFieldSelectorError, match="not supported: a"):
        fields.parse_and_transform_selector("a=b", reject)


def test_requirements() -> None:
    reqs = fields.parse_selector("a=b,c!=d").requirements()
    assert [(r.field, r.operator, r.value) for r in reqs] == [("a", "=", "b"), ("c", "!=", "d")]


ESCAPE = [("", ""), ("a", "a"), ("=", "\\="), (",", "\\,"), ("\\", "\\\\"), ("\\=\\,\\", "\\\\\\=\\\\\\,\\\\")]


@pytest.mark.parametrize(("raw", "escaped"), ESCAPE, ids=[f"TestEscapeValue/{r!r}" for r, _ in ESCAPE])
def test_escape_unescape(raw: str, escaped: str) -> None:
    assert fields.escape_value(raw) == escaped
    assert fields.unescape_value(escaped) == raw


@settings(max_examples=examples(150), deadline=None)
@given(value=st.text(alphabet="ab=,\\", max_size=8))
def test_escaped_values_round_trip_through_parse(value: str) -> None:
    sel = fields.one_term_equal_selector("f", value)
    again = fields.parse_selector(sel.string())
    assert again.requires_exact_match("f") == (value, True)

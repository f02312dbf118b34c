"""Port of apimachinery fields/selector_test.go and fields/fields_test.go at v1.6.1: the rows
``test_fields.py`` does not already carry.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/fields/selector_test.go
and https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/fields/fields_test.go

Go's ``hasTerm``/``notHasTerm``/``andTerm`` literals are the public ``HasTerm``/``NotHasTerm``/
``AndTerm`` here; a nil ``andTerm`` and an empty one are both ``AndTerm()`` (Go treats them alike).
"""

from __future__ import annotations

import pytest

from kschedlearn.apimachinery import fields
from kschedlearn.apimachinery.fields import AndTerm, HasTerm, InvalidEscapeSequence, NotHasTerm, Set
from kschedlearn.apimachinery.fields.selector import _split_term, _split_terms

_SPLIT_TERMS = {
    "a": ["a"],
    "a=avalue": ["a=avalue"],
    "a=avalue,b=bvalue": ["a=avalue", "b=bvalue"],
    "a=avalue,b==bvalue,c!=cvalue": ["a=avalue", "b==bvalue", "c!=cvalue"],
    "": [],  # Go: nil
    "a=a,": ["a=a", ""],
    ",a=a": ["", "a=a"],
    "k=\\,,k2=v2": ["k=\\,", "k2=v2"],
    "k=\\\\,k2=v2": ["k=\\\\", "k2=v2"],
    "k=\\\\\\,,k2=v2": ["k=\\\\\\,", "k2=v2"],
    "k=\\a\\b\\": ["k=\\a\\b\\"],
    "k=\\": ["k=\\"],
    "함=수,목=록": ["함=수", "목=록"],
}


@pytest.mark.parametrize(("selector", "terms"), [
    pytest.param(k, v, id=f"TestSplitTerms/{k!r}") for k, v in _SPLIT_TERMS.items()
])
def test_split_terms(selector: str, terms: list[str]) -> None:
    assert _split_terms(selector) == terms


_SPLIT_TERM = {
    "a=value": ("a", "=", "value", True),
    "b==value": ("b", "==", "value", True),
    "c!=value": ("c", "!=", "value", True),
    "": ("", "", "", False),
    "a": ("", "", "", False),
    "k=\\,": ("k", "=", "\\,", True),
    "k=\\=": ("k", "=", "\\=", True),
    "k=\\\\\\a\\b\\=\\,\\": ("k", "=", "\\\\\\a\\b\\=\\,\\", True),
    "함=수": ("함", "=", "수", True),
}


@pytest.mark.parametrize(("term", "expected"), [
    pytest.param(k, v, id=f"TestSplitTerm/{k!r}") for k, v in _SPLIT_TERM.items()
])
def test_split_term(term: str, expected: tuple[str, str, str, bool]) -> None:
    assert _split_term(term) == expected


@pytest.mark.parametrize("value", [
    pytest.param("\\", id="TestEscapeValue/invalid/orphan-slash"),
    pytest.param("\\\\\\", id="TestEscapeValue/invalid/escaped-slash-then-orphan"),
    pytest.param("\\a", id="TestEscapeValue/invalid/unknown-escape"),
])
def test_escape_value_invalid(value: str) -> None:
    """The valid rows of TestEscapeValue are ``test_fields.py::test_escape_unescape``."""
    with pytest.raises(InvalidEscapeSequence):
        fields.unescape_value(value)


@pytest.mark.parametrize("text", [
    pytest.param("x=a||y\\=b", id="TestSelectorParse/good/'x=a||y\\\\=b'"),
    pytest.param("x=a\\=\\=b", id="TestSelectorParse/good/'x=a\\\\=\\\\=b'"),
])
def test_selector_parse(text: str) -> None:
    """Go's good strings print back unchanged (the others are in ``test_fields.py``)."""
    assert fields.parse_selector(text).string() == text


_FIELDSET = {"foo": "bar", "baz": "blah", "complex": "=value\\,\\"}


def test_selector_matches() -> None:
    """Go: TestSelectorMatches, the escaped ``complex`` row (the rest are in ``test_fields.py``)."""
    assert fields.parse_selector("foo=bar,baz=blah,complex=\\=value\\\\\\,\\\\").matches(Set(_FIELDSET))


@pytest.mark.parametrize(("selector", "want"), [
    pytest.param({}, True, id="TestSetMatches/empty"),
    pytest.param({"foo": "bar"}, True, id="TestSetMatches/foo=bar"),
    pytest.param({"baz": "blah"}, True, id="TestSetMatches/baz=blah"),
    pytest.param({"foo": "bar", "baz": "blah"}, True, id="TestSetMatches/foo=bar,baz=blah"),
    pytest.param({"foo": "=blah"}, False, id="TestSetMatches/no/foo==blah"),
    pytest.param({"baz": "=bar"}, False, id="TestSetMatches/no/baz==bar"),
    pytest.param({"foo": "=bar", "foobar": "bar", "baz": "blah"}, False, id="TestSetMatches/no/three"),
])
def test_set_matches(selector: dict[str, str], want: bool) -> None:
    assert fields.selector_from_set(Set(selector)).matches(Set({"foo": "bar", "baz": "blah"})) is want


@pytest.mark.parametrize(("selector", "empty"), [
    pytest.param(Set().as_selector(), True, id="TestSetIsEmpty/empty-set"),
    pytest.param(AndTerm(), True, id="TestSetIsEmpty/nil-andTerm"),
    pytest.param(HasTerm(field="", value=""), False, id="TestSetIsEmpty/hasTerm"),
    pytest.param(NotHasTerm(field="", value=""), False, id="TestSetIsEmpty/notHasTerm"),
    pytest.param(AndTerm(terms=(AndTerm(),)), True, id="TestSetIsEmpty/nested-andTerm"),
    pytest.param(AndTerm(terms=(HasTerm(field="a", value="b"),)), False, id="TestSetIsEmpty/nested-hasTerm"),
])
def test_set_is_empty(selector: fields.Selector, empty: bool) -> None:
    assert selector.empty() is empty


_EMPTY_HAS = HasTerm(field="", value="")
_TEST_B = HasTerm(field="test", value="b")


@pytest.mark.parametrize(("selector", "label", "value", "found"), [
    pytest.param(Set().as_selector(), "test", "", False, id="TestRequiresExactMatch/empty set"),
    pytest.param(_EMPTY_HAS, "test", "", False, id="TestRequiresExactMatch/empty hasTerm"),
    pytest.param(HasTerm(field="a", value="b"), "test", "", False, id="TestRequiresExactMatch/skipped hasTerm"),
    pytest.param(_TEST_B, "test", "b", True, id="TestRequiresExactMatch/valid hasTerm"),
    pytest.param(HasTerm(field="test", value=""), "test", "", True,
                 id="TestRequiresExactMatch/valid hasTerm no value"),
    pytest.param(NotHasTerm(field="test", value="b"), "test", "", False,
                 id="TestRequiresExactMatch/valid notHasTerm"),
    pytest.param(NotHasTerm(field="test", value=""), "test", "", False,
                 id="TestRequiresExactMatch/valid notHasTerm no value"),
    pytest.param(AndTerm(), "test", "", False, id="TestRequiresExactMatch/nil andTerm"),
    pytest.param(AndTerm(terms=()), "test", "", False, id="TestRequiresExactMatch/empty andTerm"),
    pytest.param(AndTerm(terms=(AndTerm(),)), "test", "", False, id="TestRequiresExactMatch/nested andTerm"),
    pytest.param(AndTerm(terms=(_TEST_B,)), "test", "b", True, id="TestRequiresExactMatch/nested andTerm matches"),
    pytest.param(AndTerm(terms=(_EMPTY_HAS, _TEST_B)), "test", "b", True,
                 id="TestRequiresExactMatch/andTerm with non-match"),
])
def test_requires_exact_match(selector: fields.Selector, label: str, value: str, found: bool) -> None:
    assert selector.requires_exact_match(label) == (value, found)


# fields_test.go


@pytest.mark.parametrize(("fs", "want"), [
    pytest.param({"x": "y"}, "x=y", id="TestSetString/x=y"),
    pytest.param({"foo": "bar"}, "foo=bar", id="TestSetString/foo=bar"),
    pytest.param({"foo": "bar", "baz": "qup"}, "baz=qup,foo=bar", id="TestSetString/baz=qup,foo=bar"),
])
def test_set_string(fs: dict[str, str], want: str) -> None:
    assert Set(fs).string() == want


@pytest.mark.parametrize(("fs", "key", "has"), [
    pytest.param({"x": "y"}, "x", True, id="TestFieldHas/x-in-x=y"),
    pytest.param({"x": ""}, "x", True, id="TestFieldHas/x-in-x=empty"),
    pytest.param({"x": "y"}, "foo", False, id="TestFieldHas/foo-not-in-x=y"),
])
def test_field_has(fs: dict[str, str], key: str, has: bool) -> None:
    assert Set(fs).has(key) is has


def test_field_get() -> None:
    assert Set({"x": "y"}).get("x") == "y"

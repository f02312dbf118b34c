"""Port of apimachinery labels/labels_test.go at v1.6.1 (the ``Set`` helpers).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/labels/labels_test.go

The selector tests of the same package (selector_test.go) are in ``test_labels.py``.
Differs from Go: ``ConvertSelectorToLabelsMap`` raises on a bad pair instead of returning the
map read so far; every invalid row of Go's table expects the empty map, which is what Go
returns there too (each fails on its first pair), so the rows check the error only.
"""

from __future__ import annotations

import pytest

from kschedlearn.apimachinery import labels
from kschedlearn.apimachinery.labels import InvalidSelectorError, Set


@pytest.mark.parametrize(("ls", "want"), [
    pytest.param({"x": "y"}, "x=y", id="TestSetString/x=y"),
    pytest.param({"foo": "bar"}, "foo=bar", id="TestSetString/foo=bar"),
    pytest.param({"foo": "bar", "baz": "qup"}, "baz=qup,foo=bar", id="TestSetString/baz=qup,foo=bar"),
])
def test_set_string(ls: dict[str, str], want: str) -> None:
    assert Set(ls).string() == want
    assert str(Set(ls)) == want


@pytest.mark.parametrize(("ls", "key", "has"), [
    pytest.param({"x": "y"}, "x", True, id="TestLabelHas/x-in-x=y"),
    pytest.param({"x": ""}, "x", True, id="TestLabelHas/x-in-x=empty"),
    pytest.param({"x": "y"}, "foo", False, id="TestLabelHas/foo-not-in-x=y"),
])
def test_label_has(ls: dict[str, str], key: str, has: bool) -> None:
    assert Set(ls).has(key) is has


def test_label_get() -> None:
    assert Set({"x": "y"}).get("x") == "y"


@pytest.mark.parametrize(("labels1", "labels2", "conflict"), [
    pytest.param({}, {}, False, id="TestLabelConflict/0-both-empty"),
    pytest.param({"env": "test"}, {"infra": "true"}, False, id="TestLabelConflict/1-disjoint"),
    pytest.param({"env": "test"}, {"infra": "true", "env": "test"}, False, id="TestLabelConflict/2-same-value"),
    pytest.param({"env": "test"}, {"env": "dev"}, True, id="TestLabelConflict/3-different-value"),
    pytest.param({"env": "test", "infra": "false"}, {"infra": "true", "color": "blue"}, True,
                 id="TestLabelConflict/4-one-of-two-differs"),
])
def test_label_conflict(labels1: dict[str, str], labels2: dict[str, str], conflict: bool) -> None:
    assert labels.conflicts(Set(labels1), Set(labels2)) is conflict


@pytest.mark.parametrize(("labels1", "labels2", "merged"), [
    pytest.param({}, {}, {}, id="TestLabelMerge/0-both-empty"),
    pytest.param({"infra": "true"}, {}, {"infra": "true"}, id="TestLabelMerge/1-second-empty"),
    pytest.param({"infra": "true"}, {"env": "test", "color": "blue"},
                 {"infra": "true", "env": "test", "color": "blue"}, id="TestLabelMerge/2-union"),
])
def test_label_merge(labels1: dict[str, str], labels2: dict[str, str], merged: dict[str, str]) -> None:
    assert labels.equals(labels.merge(Set(labels1), Set(labels2)), merged)


_SELECTOR_PARSE = [
    ("", {}, True),
    ("x=a", {"x": "a"}, True),
    ("x=a,y=b,z=c", {"x": "a", "y": "b", "z": "c"}, True),
    (" x = a , y = b , z = c ", {"x": "a", "y": "b", "z": "c"}, True),
    ("color=green,env=test,service=front", {"color": "green", "env": "test", "service": "front"}, True),
    ("color=green, env=test, service=front", {"color": "green", "env": "test", "service": "front"}, True),
    (",", {}, False),
    ("x", {}, False),
    ("x,y", {}, False),
    ("x=$y", {}, False),
    ("x!=y", {}, False),
    ("x==y", {}, False),
    ("x=a||y=b", {}, False),
    ("x in (y)", {}, False),
    ("x notin (y)", {}, False),
    ("x y", {}, False),
]


@pytest.mark.parametrize(("selector", "want", "valid"), [
    pytest.param(s, w, v, id=f"TestLabelSelectorParse/{s!r}") for s, w, v in _SELECTOR_PARSE
])
def test_label_selector_parse(selector: str, want: dict[str, str], valid: bool) -> None:
    if not valid:
        with pytest.raises(InvalidSelectorError):
            labels.convert_selector_to_labels_map(selector)
        assert want == {}
        return
    got = labels.convert_selector_to_labels_map(selector)
    assert isinstance(got, Set)
    assert labels.equals(got, want)


@pytest.mark.parametrize(("selector", "message"), [
    pytest.param(",", "invalid selector: []", id="one-part-empty"),
    pytest.param("x==y", "invalid selector: [x  y]", id="three-parts"),
    pytest.param("x!=y", 'invalid label key "x!": name part must consist of alphanumeric characters, '
                 "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or "
                 "'my.name',  or '123-abc', regex used for validation is "
                 "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')", id="bad-key"),
])
def test_label_selector_parse_error_texts(selector: str, message: str) -> None:
    """kschedlearn-only: Go's error texts (``%s`` of the split ``[]string``, validateLabelKey)."""
    with pytest.raises(InvalidSelectorError) as info:
        labels.convert_selector_to_labels_map(selector)
    assert str(info.value) == message

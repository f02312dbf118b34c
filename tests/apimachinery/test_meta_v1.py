"""Ports of apimachinery apis/meta/v1 helpers_test.go (v1.6.1) plus manifest decoding.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers_test.go
"""

from __future__ import annotations

import pytest

from kschedlearn.api.errors import ManifestError
from kschedlearn.apimachinery import labels
from kschedlearn.apimachinery.apis.meta.v1 import (
    LabelSelector,
    LabelSelectorRequirement,
    format_label_selector,
    label_selector_as_map,
    label_selector_as_selector,
)

AS_SELECTOR = [
    ("nil", None, "", None),
    ("empty", LabelSelector(), "", None),
    ("matchLabels+expressions",
     LabelSelector(match_labels={"foo": "bar"},
                   match_expressions=(LabelSelectorRequirement(key="baz", operator="In", values=("qux", "norf")),)),
     "baz in (norf,qux),foo=bar", None),
    ("bad-operator",
     LabelSelector(match_labels={"foo": "bar"},
                   match_expressions=(LabelSelectorRequirement(key="baz", operator="Seriously", values=("qux",)),)),
     None, '"Seriously" is not a valid pod selector operator'),
    ("exists-and-does-not-exist",
     LabelSelector(match_expressions=(LabelSelectorRequirement(key="a", operator="Exists"),
                                      LabelSelectorRequirement(key="b", operator="DoesNotExist"),
                                      LabelSelectorRequirement(key="c", operator="NotIn", values=("x",)))),
     "a,!b,c notin (x)", None),
    ("in-without-values",
     LabelSelector(match_expressions=(LabelSelectorRequirement(key="a", operator="In"),)),
     None, "for 'in', 'notin' operators, values set can't be empty"),
]


@pytest.mark.parametrize(("ls", "out", "err"), [r[1:] for r in AS_SELECTOR],
                         ids=[f"TestLabelSelectorAsSelector/{r[0]}" for r in AS_SELECTOR])
def test_label_selector_as_selector(ls: LabelSelector | None, out: str | None, err: str | None) -> None:
    if err is not None:
        with pytest.raises(labels.InvalidSelectorError) as info:
            label_selector_as_selector(ls)
        assert str(info.value) == err
        return
    assert label_selector_as_selector(ls).string() == out


def test_nil_selects_nothing_and_empty_selects_everything() -> None:
    assert not label_selector_as_selector(None).matches({"a": "b"})
    assert label_selector_as_selector(None) == labels.nothing()
    assert label_selector_as_selector(LabelSelector()).matches({"a": "b"})
    sel = label_selector_as_selector(LabelSelector(match_labels={"app": "web"}))
    assert sel.matches({"app": "web", "x": "y"}) and not sel.matches({"app": "db"})


AS_MAP = [
    ("nil", None, None, None),
    ("matchLabels", LabelSelector(match_labels={"foo": "bar"}), {"foo": "bar"}, None),
    ("in-single-value",
     LabelSelector(match_labels={"foo": "bar"},
                   match_expressions=(LabelSelectorRequirement(key="baz", operator="In", values=("qux",)),)),
     {"foo": "bar", "baz": "qux"}, None),
    ("in-two-values",
     LabelSelector(match_expressions=(LabelSelectorRequirement(key="baz", operator="In", values=("qux", "norf")),)),
     None, 'operator "In" without a single value cannot be converted into the old label selector format'),
    ("notin",
     LabelSelector(match_expressions=(LabelSelectorRequirement(key="baz", operator="NotIn", values=("qux",)),)),
     None, 'operator "NotIn" cannot be converted into the old label selector format'),
    ("bogus",
     LabelSelector(match_expressions=(LabelSelectorRequirement(key="baz", operator="Bogus"),)),
     None, '"Bogus" is not a valid selector operator'),
]


@pytest.mark.parametrize(("ls", "out", "err"), [r[1:] for r in AS_MAP],
                         ids=[f"TestLabelSelectorAsMap/{r[0]}" for r in AS_MAP])
def test_label_selector_as_map(ls: LabelSelector | None, out: dict[str, str] | None, err: str | None) -> None:
    if err is not None:
        with pytest.raises(ValueError) as info:
            label_selector_as_map(ls)
        assert str(info.value) == err
        return
    assert label_selector_as_map(ls) == out


def test_format_label_selector() -> None:
    assert format_label_selector(LabelSelector()) == "<none>"
    assert format_label_selector(LabelSelector(match_labels={"a": "b"})) == "a=b"
    bad = LabelSelector(match_expressions=(LabelSelectorRequirement(key="a", operator="Nope"),))
    assert format_label_selector(bad) == "<error>"


MANIFEST = {
    "matchLabels": {"app": "web"},
    "matchExpressions": [
        {"key": "tier", "operator": "In", "values": ["frontend", "api"]},
        {"key": "canary", "operator": "DoesNotExist"},
    ],
}


def test_from_dict_to_dict_round_trip() -> None:
    ls = LabelSelector.from_dict(MANIFEST)
    assert ls.match_labels == {"app": "web"}
    assert ls.match_expressions == (
        LabelSelectorRequirement(key="tier", operator="In", values=("frontend", "api")),
        LabelSelectorRequirement(key="canary", operator="DoesNotExist", values=()),
    )
    assert ls.to_dict() == MANIFEST
    assert LabelSelector.from_dict(ls.to_dict()) == ls
    assert LabelSelector.from_dict({}).to_dict() == {}
    assert str(label_selector_as_selector(ls)) == "app=web,!canary,tier in (api,frontend)"


BAD_MANIFESTS = [
    ("not-a-mapping", ["x"], "spec.selector: expected a mapping, got list"),
    ("label-value-int", {"matchLabels": {"v": 1}}, "spec.selector.matchLabels.v: expected a string, got int 1"),
    ("expressions-not-list", {"matchExpressions": {"key": "a"}},
     "spec.selector.matchExpressions: expected a list, got dict"),
    ("values-item-int", {"matchExpressions": [{"key": "a", "operator": "In", "values": ["x", 2]}]},
     "spec.selector.matchExpressions[0].values[1]: expected a string, got int 2"),
    ("operator-int", {"matchExpressions": [{"key": "a", "operator": 3}]},
     "spec.selector.matchExpressions[0].operator: expected a string, got int 3"),
]


@pytest.mark.parametrize(("d", "msg"), [r[1:] for r in BAD_MANIFESTS], ids=[f"from_dict/{r[0]}" for r in BAD_MANIFESTS])
def test_from_dict_errors_name_the_field(d: object, msg: str) -> None:
    with pytest.raises(ManifestError) as info:
        LabelSelector.from_dict(d, path="spec.selector")
    assert str(info.value) == msg
    with pytest.raises(ManifestError, match=r"^Deployment default/web: spec\.selector"):
        LabelSelector.from_dict(d, path="spec.selector", obj="Deployment default/web")

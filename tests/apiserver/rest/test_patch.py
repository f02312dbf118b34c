"""PATCH bodies: RFC 7386 merge patch (its appendix A examples), strategic merge, RFC 6902 JSON patch.

Go: none — kschedlearn-only; the merge-patch rows are RFC 7386 Appendix A, the JSON-patch rows
follow RFC 6902 §4, the strategic rows what apimachinery's strategicpatch does with merge keys.
"""

from __future__ import annotations

from typing import Any

import pytest

from kschedlearn.apiserver.rest.patch import PatchError, apply_patch, json_patch, merge_patch, strategic_merge_patch


@pytest.mark.parametrize(("target", "patch", "result"), [
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"a": "foo"}, None, None),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
], ids=[f"rfc7386-A-{i}" for i in range(1, 15)])
def test_merge_patch_rfc7386_appendix_a(target: Any, patch: Any, result: Any) -> None:
    assert merge_patch(target, patch) == result


def test_strategic_merge_keys_containers_by_name() -> None:
    target = {"spec": {"containers": [{"name": "a", "image": "1"}, {"name": "b", "image": "1"}]}}
    patch = {"spec": {"containers": [{"name": "b", "image": "2"}, {"name": "c", "image": "3"}],
                      "$setElementOrder/containers": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}}
    out = strategic_merge_patch(target, patch)
    assert out["spec"]["containers"] == [{"name": "a", "image": "1"}, {"name": "b", "image": "2"},
                                         {"name": "c", "image": "3"}]


def test_strategic_delete_and_replace_directives() -> None:
    target = {"spec": {"containers": [{"name": "a"}, {"name": "b"}], "nodeSelector": {"x": "1", "y": "2"}}}
    patch = {"spec": {"containers": [{"name": "a", "$patch": "delete"}],
                      "nodeSelector": {"$patch": "replace", "z": "3"}}}
    out = strategic_merge_patch(target, patch)
    assert out["spec"] == {"containers": [{"name": "b"}], "nodeSelector": {"z": "3"}}


def test_strategic_list_without_merge_key_element_is_an_error() -> None:
    with pytest.raises(PatchError, match="merge key: name"):
        strategic_merge_patch({"spec": {"containers": [{"name": "a"}]}}, {"spec": {"containers": [{"image": "x"}]}})


@pytest.mark.parametrize(("ops", "result"), [
    ([{"op": "add", "path": "/baz", "value": "qux"}], {"foo": "bar", "baz": "qux"}),
    ([{"op": "remove", "path": "/foo"}], {}),
    ([{"op": "replace", "path": "/foo", "value": 1}], {"foo": 1}),
    ([{"op": "copy", "from": "/foo", "path": "/x"}], {"foo": "bar", "x": "bar"}),
    ([{"op": "move", "from": "/foo", "path": "/x"}], {"x": "bar"}),
    ([{"op": "test", "path": "/foo", "value": "bar"}], {"foo": "bar"}),
], ids=["add", "remove", "replace", "copy", "move", "test"])
def test_json_patch_rfc6902(ops: list[dict[str, Any]], result: Any) -> None:
    assert json_patch({"foo": "bar"}, ops) == result


def test_json_patch_on_lists() -> None:
    doc = {"a": [1, 2]}
    assert json_patch(doc, [{"op": "add", "path": "/a/1", "value": 9}, {"op": "add", "path": "/a/-", "value": 3}]) == {"a": [1, 9, 2, 3]}
    with pytest.raises(PatchError, match="out of range"):
        json_patch(doc, [{"op": "remove", "path": "/a/5"}])
    with pytest.raises(PatchError, match="test failed"):
        json_patch(doc, [{"op": "test", "path": "/a", "value": []}])


def test_unsupported_patch_type_names_it() -> None:
    with pytest.raises(PatchError, match="unsupported patch type 'text/plain'"):
        apply_patch("text/plain", {}, {})

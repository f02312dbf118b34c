"""Port of utils_test.go (``ExampleFindLabelsInSet``) plus table tests of the same helpers.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/utils_test.go
"""

from __future__ import annotations

import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.pod import Pod
from kschedlearn.scheduler.algorithm.predicates.utils import (
    add_unset_labels_to_map,
    create_selector_from_labels,
    filter_pods_by_namespace,
    find_labels_in_set,
)


def test_example_find_labels_in_set() -> None:
    """Go prints three lines (``will_see_this`` / ``label1=value1,label2=value2,label3=will_see_this``
    / ``pod1,pod2,``); the same facts are asserted here."""
    label_subset = {"label1": "value1", "label2": "value2"}
    ns_pods = [
        Pod(metadata=ObjectMeta(name="pod1", namespace="ns1",
                                labels={"label1": "wontSeeThis", "label2": "wontSeeThis", "label3": "will_see_this"})),
        Pod(metadata=ObjectMeta(name="pod2", namespace="ns1")),
        Pod(metadata=ObjectMeta(name="pod3ThatWeWontSee")),
    ]
    wanted = ["label1", "label2", "label3"]
    assert find_labels_in_set(wanted, ns_pods[0].metadata.labels)["label3"] == "will_see_this"
    add_unset_labels_to_map(label_subset, wanted, ns_pods[0].metadata.labels)
    assert label_subset == {"label1": "value1", "label2": "value2", "label3": "will_see_this"}
    assert [pod.metadata.name for pod in filter_pods_by_namespace(ns_pods, "ns1")] == ["pod1", "pod2"]


@pytest.mark.parametrize(
    "keep,selector,want",
    [
        (["a"], {"a": "1", "b": "2"}, {"a": "1"}),
        (["a", "c"], {"a": "1"}, {"a": "1"}),
        ([], {"a": "1"}, {}),
    ],
    ids=["subset", "missing key skipped", "nothing wanted"],
)
def test_find_labels_in_set(keep, selector, want) -> None:
    assert find_labels_in_set(keep, selector) == want


def test_add_unset_labels_keeps_existing_values() -> None:
    aff = {"region": "r1"}
    add_unset_labels_to_map(aff, ["region", "zone", "rack"], {"region": "r9", "zone": "z1"})
    assert aff == {"region": "r1", "zone": "z1"}


@pytest.mark.parametrize(
    "given,node_labels,matches",
    [
        (None, {"x": "y"}, True),
        ({}, {}, True),
        ({"region": "r1"}, {"region": "r1", "zone": "z"}, True),
        ({"region": "r1"}, {"region": "r2"}, False),
    ],
    ids=["nil selects everything", "empty selects everything", "subset matches", "value differs"],
)
def test_create_selector_from_labels(given, node_labels, matches) -> None:
    assert create_selector_from_labels(given).matches(node_labels) is matches

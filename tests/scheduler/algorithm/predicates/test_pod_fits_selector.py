"""Port of TestPodFitsSelector (predicates_test.go): the whole table, node-affinity cases included.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates_test.go
The Go cases give the node affinity as JSON; in 1.6 it is ``pod.spec.affinity``, so the same
JSON is decoded with ``Pod.from_dict``. (test_predicates.py holds an earlier, partial version
of this table plus two extra non-Go cases.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.pod import Pod
from kschedlearn.scheduler.algorithm.predicates import error as errs
from kschedlearn.scheduler.algorithm.predicates import predicates as p
from kschedlearn.scheduler.algorithm.predicates.metadata import predicate_metadata
from kschedlearn.scheduler.schedulercache.node_info import new_node_info


def _id(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_")


def _pod(node_selector: dict | None = None, required: Any = "absent", annotations: dict | None = None) -> Pod:
    """``required``: the JSON of requiredDuringSchedulingIgnoredDuringExecution ("absent" = no affinity)."""
    spec: dict[str, Any] = {}
    if node_selector is not None:
        spec["nodeSelector"] = node_selector
    if required != "absent":
        spec["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": required}}
    return Pod.from_dict({"metadata": {"annotations": annotations or {}}, "spec": spec})


def _terms(*terms: list) -> dict:
    return {"nodeSelectorTerms": [{"matchExpressions": exprs} for exprs in terms]}


def _e(key: str, op: str, *values: str) -> dict:
    out: dict[str, Any] = {"key": key, "operator": op}
    if values:
        out["values"] = list(values)
    return out


SELECTOR = [
    (_pod(), {}, True, "no selector"),
    (_pod({"foo": "bar"}), {}, False, "missing labels"),
    (_pod({"foo": "bar"}), {"foo": "bar"}, True, "same labels"),
    (_pod({"foo": "bar"}), {"foo": "bar", "baz": "blah"}, True, "node labels are superset"),
    (_pod({"foo": "bar", "baz": "blah"}), {"foo": "bar"}, False, "node labels are subset"),
    (_pod(required=_terms([_e("foo", "In", "bar", "value2")])), {"foo": "bar"}, True,
     "Pod with matchExpressions using In operator that matches the existing node"),
    (_pod(required=_terms([_e("kernel-version", "Gt", "0204")])), {"kernel-version": "0206"}, True,
     "Pod with matchExpressions using Gt operator that matches the existing node"),
    (_pod(required=_terms([_e("mem-type", "NotIn", "DDR", "DDR2")])), {"mem-type": "DDR3"}, True,
     "Pod with matchExpressions using NotIn operator that matches the existing node"),
    (_pod(required=_terms([_e("GPU", "Exists")])), {"GPU": "NVIDIA-GRID-K1"}, True,
     "Pod with matchExpressions using Exists operator that matches the existing node"),
    (_pod(required=_terms([_e("foo", "In", "value1", "value2")])), {"foo": "bar"}, False,
     "Pod with affinity that don't match node's labels won't schedule onto the node"),
    (_pod(required={"nodeSelectorTerms": None}), {"foo": "bar"}, False,
     "Pod with a nil []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto the node"),
    (_pod(required={"nodeSelectorTerms": []}), {"foo": "bar"}, False,
     "Pod with an empty []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto the node"),
    (_pod(required={"nodeSelectorTerms": [{}, {}]}), {"foo": "bar"}, False,
     "Pod with invalid NodeSelectTerms in affinity will match no objects and won't schedule onto the node"),
    (_pod(required={"nodeSelectorTerms": [{"matchExpressions": [{}]}]}), {"foo": "bar"}, False,
     "Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node"),
    (_pod(annotations={"some-key": "some-value"}), {"foo": "bar"}, True,
     "Pod with no Affinity will schedule onto a node"),
    (_pod(required=None), {"foo": "bar"}, True,
     "Pod with Affinity but nil NodeSelector will schedule onto a node"),
    (_pod(required=_terms([_e("GPU", "Exists"), _e("GPU", "NotIn", "AMD", "INTER")])), {"GPU": "NVIDIA-GRID-K1"}, True,
     "Pod with multiple matchExpressions ANDed that matches the existing node"),
    (_pod(required=_terms([_e("GPU", "Exists"), _e("GPU", "In", "AMD", "INTER")])), {"GPU": "NVIDIA-GRID-K1"}, False,
     "Pod with multiple matchExpressions ANDed that doesn't match the existing node"),
    (_pod(required=_terms([_e("foo", "In", "bar", "value2")], [_e("diffkey", "In", "wrong", "value2")])), {"foo": "bar"}, True,
     "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node"),
    (_pod({"foo": "bar"}, required=_terms([_e("foo", "Exists")])), {"foo": "bar"}, True,
     "Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node"),
    (_pod({"foo": "bar"}, required=_terms([_e("foo", "Exists")])), {"foo": "barrrrrr"}, False,
     "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won't schedule onto the node"),
]


@pytest.mark.parametrize("pod,node_labels,fits,test", SELECTOR, ids=[_id(c[3]) for c in SELECTOR])
def test_pod_fits_selector(pod: Pod, node_labels: dict, fits: bool, test: str) -> None:
    node_info = new_node_info()
    node_info.set_node(Node(metadata=ObjectMeta(labels=node_labels)))
    got, reasons = p.pod_selector_matches(pod, predicate_metadata(pod, None), node_info)
    assert got == fits
    assert reasons == ([] if fits else [errs.ERR_NODE_SELECTOR_NOT_MATCH])


def test_pod_fits_selector_without_node_is_an_error() -> None:
    with pytest.raises(p.PredicateError, match="node not found"):
        p.pod_selector_matches(Pod(), None, new_node_info())

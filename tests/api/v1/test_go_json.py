"""Go's encoding/json rules where 1.6 calls json.Unmarshal: the alpha annotations
(helpers.go GetAffinityFromPodAnnotations, GetAvoidPodsFromNodeAnnotations) and the
leader-election record (resourcelock). Keys match the json tags exactly first, then
case-insensitively; unknown keys are ignored; a later key overwrites an earlier one.
A malformed annotation is ignored where 1.6 drops the error (ReconcileAffinity).
"""

from __future__ import annotations

import json

import pytest

from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1 import ObjectMeta, Pod, get_affinity_from_pod_annotations
from kschedlearn.api.v1.helpers import get_avoid_pods_from_node_annotations
from kschedlearn.client.leaderelection.resourcelock.interface import LeaderElectionRecord
from kschedlearn.features import host_feature_gate
from kschedlearn.scheduler.schedulercache.reconcile_affinity import reconcile_affinity

AFF = "scheduler.alpha.kubernetes.io/affinity"
AVOID = "scheduler.alpha.kubernetes.io/preferAvoidPods"

REQUIRED = {"nodeSelectorTerms": [{"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}]}


@pytest.mark.parametrize("doc", [
    {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": REQUIRED}},
    {"NodeAffinity": {"RequiredDuringSchedulingIgnoredDuringExecution": REQUIRED}},
    {"NODEAFFINITY": {"requiredduringschedulingignoredduringexecution":
                      {"NodeSelectorTerms": [{"MatchExpressions": [{"KEY": "disk", "Operator": "In", "VALUES": ["ssd"]}]}]}}},
], ids=["exact", "capitalised", "any-case"])
def test_differently_cased_keys_are_honoured(doc):
    affinity = get_affinity_from_pod_annotations({AFF: json.dumps(doc)})
    (term,) = affinity.node_affinity.required_during_scheduling_ignored_during_execution.node_selector_terms
    (expr,) = term.match_expressions
    assert (expr.key, expr.operator, expr.values) == ("disk", "In", ("ssd",))


def test_unknown_keys_are_ignored_and_a_later_key_wins():
    doc = '{"colour": "red", "podAffinity": {"x": 1}, "PODAFFINITY": {"requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": "zone"}]}}'
    affinity = get_affinity_from_pod_annotations({AFF: doc})
    (term,) = affinity.pod_affinity.required_during_scheduling_ignored_during_execution
    assert term.topology_key == "zone"


def test_map_keys_stay_exact():
    """Only struct fields fold; map keys (matchLabels) are data."""
    doc = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"MatchLabels": {"App": "web"}}, "topologyKey": "zone"}]}}
    (term,) = get_affinity_from_pod_annotations({AFF: json.dumps(doc)}).pod_affinity.required_during_scheduling_ignored_during_execution
    assert dict(term.label_selector.match_labels) == {"App": "web"}


def test_prefer_avoid_pods_keys_fold():
    doc = {"PreferAvoidPods": [{"PodSignature": {"PodController": {"Kind": "ReplicationController", "Name": "rc", "UID": "u1",
                                                                    "APIVersion": "v1", "Controller": True}}}]}
    avoid = get_avoid_pods_from_node_annotations({AVOID: json.dumps(doc)})
    (entry,) = avoid.prefer_avoid_pods
    assert entry.pod_signature.pod_controller.uid == "u1"
    assert entry.pod_signature.pod_controller.kind == "ReplicationController"


@pytest.mark.parametrize("text", ["{nope", '{"nodeAffinity": 3}', '"just a string"', ""],
                         ids=["syntax", "wrong-type", "not-an-object", "empty"])
def test_malformed_annotation_is_ignored_by_reconcile_affinity(text):
    pod = Pod(metadata=ObjectMeta(name="p", annotations={AFF: text}))
    with host_feature_gate().set_for("AffinityInAnnotations=true"):
        assert reconcile_affinity(pod) is None  # Go: annotationsAffinity, _ := ... (error dropped)
    if text:
        with pytest.raises(ManifestError):
            get_affinity_from_pod_annotations({AFF: text})
    else:
        assert get_affinity_from_pod_annotations({AFF: text}) is None  # "" counts as absent


def test_leader_record_keys_fold():
    rec = LeaderElectionRecord.from_json(
        '{"HolderIdentity":"a","LEASEDURATIONSECONDS":15,"holderidentity":"b","extra":1,"LeaderTransitions":2}')
    assert (rec.holder_identity, rec.lease_duration_seconds, rec.leader_transitions) == ("b", 15, 2)

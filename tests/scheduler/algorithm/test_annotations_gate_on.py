"""Ports of the 1.6 annotation tests, run with the AffinityInAnnotations gate on, as in Go.

Go (test names are the ids' prefixes; tables taken from the exact v1.6.1 files):
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates_test.go
(TestPodAnnotationFitsSelector, TestInterPodAffinityAnnotations,
TestInterPodAffinityAnnotationsWithMultipleNodes),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/interpod_affinity_test.go
(TestInterPodAffinityAnnotationsPriority, TestHardPodAffinityAnnotationsSymmetricWeight),
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/priorities/node_affinity_test.go
(TestNodeAffinityAnnotationsPriority).

Each Go test starts with ``utilfeature.DefaultFeatureGate.Set("AffinityInAnnotations=true")``;
here the host process's gate is set for the duration of each test (``set_for``). The affinity
is the annotation ``scheduler.alpha.kubernetes.io/affinity``, decoded with Go's
``encoding/json`` rules (some Go cases spell ``PodAntiAffinity`` with a capital P).
As in Go, the checkers and the priority get no default failure domains.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.pod import Pod
from kschedlearn.features import host_feature_gate
from kschedlearn.scheduler.algorithm.predicates import error as errs
from kschedlearn.scheduler.algorithm.predicates import predicates as p
from kschedlearn.scheduler.algorithm.predicates.metadata import predicate_metadata
from kschedlearn.scheduler.algorithm.priorities.interpod_affinity import InterPodAffinity
from kschedlearn.scheduler.algorithm.priorities.node_affinity import (
    calculate_node_affinity_priority_map,
    calculate_node_affinity_priority_reduce,
)
from kschedlearn.scheduler.algorithm.priorities.test_util import priority_function
from kschedlearn.scheduler.algorithm.priorities.util.topologies import Topologies
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache.node_info import new_node_info
from kschedlearn.scheduler.schedulercache.util import create_node_name_to_info_map
from kschedlearn.scheduler.testing.fake_lister import FakeNodeInfo, FakeNodeLister, FakeNodeListInfo, FakePodLister

AFFINITY_ANNOTATION_KEY = "scheduler.alpha.kubernetes.io/affinity"


@pytest.fixture(autouse=True)
def _affinity_in_annotations():
    """Go: utilfeature.DefaultFeatureGate.Set("AffinityInAnnotations=true")."""
    with host_feature_gate().set_for("AffinityInAnnotations=true"):
        yield


def _id(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_")


def _pod(m: dict[str, Any]) -> Pod:
    """A pod manifest whose affinity annotation is given as a JSON object (encoded here)."""
    meta = dict(m.get("metadata", {}))
    if "annotations" in meta:
        meta["annotations"] = {k: json.dumps(v) if k == AFFINITY_ANNOTATION_KEY else v
                               for k, v in meta["annotations"].items()}
    return Pod.from_dict({**m, "metadata": meta})


def _node(m: dict[str, Any]) -> Node:
    return Node.from_dict(m)


def _hp(expected: list[tuple[str, int]]) -> list[HostPriority]:
    return [HostPriority(host=h, score=s) for h, s in expected]


POD_ANNOTATION_FITS_SELECTOR = [({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                            'values': ['bar',
                                                                                                                                                                                                       'value2']}]}]}}}}}},
  {'foo': 'bar'},
  True,
  'Pod with matchExpressions using In operator that matches the existing node'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'kernel-version',
                                                                                                                                                                                            'operator': 'Gt',
                                                                                                                                                                                            'values': ['0204']}]}]}}}}}},
  {'kernel-version': '0206'},
  True,
  'Pod with matchExpressions using Gt operator that matches the existing node'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'mem-type',
                                                                                                                                                                                            'operator': 'NotIn',
                                                                                                                                                                                            'values': ['DDR',
                                                                                                                                                                                                       'DDR2']}]}]}}}}}},
  {'mem-type': 'DDR3'},
  True,
  'Pod with matchExpressions using NotIn operator that matches the existing node'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'GPU',
                                                                                                                                                                                            'operator': 'Exists'}]}]}}}}}},
  {'GPU': 'NVIDIA-GRID-K1'},
  True,
  'Pod with matchExpressions using Exists operator that matches the existing node'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                            'values': ['value1',
                                                                                                                                                                                                       'value2']}]}]}}}}}},
  {'foo': 'bar'},
  False,
  "Pod with affinity that don't match node's labels won't schedule onto the node"),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': None}}}}}},
  {'foo': 'bar'},
  False,
  "Pod with a nil []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto the "
  'node'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': []}}}}}},
  {'foo': 'bar'},
  False,
  "Pod with an empty []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto "
  'the node'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{},
                                                                                                                                                                     {}]}}}}}},
  {'foo': 'bar'},
  False,
  "Pod with invalid NodeSelectTerms in affinity will match no objects and won't schedule onto the node"),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{}]}]}}}}}},
  {'foo': 'bar'},
  False,
  "Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the "
  'node'),
 ({'metadata': {'annotations': {'some-key': 'some-value'}}},
  {'foo': 'bar'},
  True,
  'Pod with no Affinity will schedule onto a node'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': None}}}}},
  {'foo': 'bar'},
  True,
  'Pod with Affinity but nil NodeSelector will schedule onto a node'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'GPU',
                                                                                                                                                                                            'operator': 'Exists'},
                                                                                                                                                                                           {'key': 'GPU',
                                                                                                                                                                                            'operator': 'NotIn',
                                                                                                                                                                                            'values': ['AMD',
                                                                                                                                                                                                       'INTER']}]}]}}}}}},
  {'GPU': 'NVIDIA-GRID-K1'},
  True,
  'Pod with multiple matchExpressions ANDed that matches the existing node'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'GPU',
                                                                                                                                                                                            'operator': 'Exists'},
                                                                                                                                                                                           {'key': 'GPU',
                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                            'values': ['AMD',
                                                                                                                                                                                                       'INTER']}]}]}}}}}},
  {'GPU': 'NVIDIA-GRID-K1'},
  False,
  "Pod with multiple matchExpressions ANDed that doesn't match the existing node"),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                            'values': ['bar',
                                                                                                                                                                                                       'value2']}]},
                                                                                                                                                                     {'matchExpressions': [{'key': 'diffkey',
                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                            'values': ['wrong',
                                                                                                                                                                                                       'value2']}]}]}}}}}},
  {'foo': 'bar'},
  True,
  "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto "
  'the node'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                            'operator': 'Exists'}]}]}}}}},
   'spec': {'nodeSelector': {'foo': 'bar'}}},
  {'foo': 'bar'},
  True,
  'Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are '
  'satisfied, will schedule onto the node'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                            'operator': 'Exists'}]}]}}}}},
   'spec': {'nodeSelector': {'foo': 'bar'}}},
  {'foo': 'barrrrrr'},
  False,
  "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are "
  "deprecating) is not satisfied, won't schedule onto the node")]

INTER_POD_AFFINITY_ANNOTATIONS = [({},
  [],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  True,
  'A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods'),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'In',
                                                                                                                                                                                       'values': ['securityscan',
                                                                                                                                                                                                  'value2']}]},
                                                                                                                                               'topologyKey': 'region'}]}}}}},
  [{'metadata': {'labels': {'service': 'securityscan'}}, 'spec': {'nodeName': 'machine1'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  True,
  'satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that '
  'matches the existing pod'),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'NotIn',
                                                                                                                                                                                       'values': ['securityscan3',
                                                                                                                                                                                                  'value3']}]},
                                                                                                                                               'topologyKey': 'region'}]}}}}},
  [{'metadata': {'labels': {'service': 'securityscan'}}, 'spec': {'nodeName': 'machine1'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  True,
  'satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in '
  'operator in labelSelector that matches the existing pod'),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'In',
                                                                                                                                                                                       'values': ['securityscan',
                                                                                                                                                                                                  'value2']}]},
                                                                                                                                               'namespaces': ['DiffNameSpace']}]}}}}},
  [{'metadata': {'namespace': 'ns', 'labels': {'service': 'securityscan'}},
    'spec': {'nodeName': 'machine1'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  False,
  'Does not satisfy the PodAffinity with labelSelector because of diff Namespace'),
 ({'metadata': {'labels': {'service': 'securityscan'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'In',
                                                                                                                                                                                       'values': ['antivirusscan',
                                                                                                                                                                                                  'value2']}]}}]}}}}},
  [{'metadata': {'labels': {'service': 'securityscan'}}, 'spec': {'nodeName': 'machine1'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  False,
  "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod"),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'Exists'},
                                                                                                                                                                                      {'key': 'wrongkey',
                                                                                                                                                                                       'operator': 'DoesNotExist'}]},
                                                                                                                                               'topologyKey': 'region'},
                                                                                                                                              {'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'In',
                                                                                                                                                                                       'values': ['securityscan']},
                                                                                                                                                                                      {'key': 'service',
                                                                                                                                                                                       'operator': 'NotIn',
                                                                                                                                                                                       'values': ['WrongValue']}]},
                                                                                                                                               'topologyKey': 'region'}]}}}}},
  [{'metadata': {'labels': {'service': 'securityscan'}}, 'spec': {'nodeName': 'machine1'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  True,
  'satisfies the PodAffinity with different label Operators in multiple '
  'RequiredDuringSchedulingIgnoredDuringExecution '),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'Exists'},
                                                                                                                                                                                      {'key': 'wrongkey',
                                                                                                                                                                                       'operator': 'DoesNotExist'}]},
                                                                                                                                               'topologyKey': 'region'},
                                                                                                                                              {'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'In',
                                                                                                                                                                                       'values': ['securityscan2']},
                                                                                                                                                                                      {'key': 'service',
                                                                                                                                                                                       'operator': 'NotIn',
                                                                                                                                                                                       'values': ['WrongValue']}]},
                                                                                                                                               'topologyKey': 'region'}]}}}}},
  [{'metadata': {'labels': {'service': 'securityscan'}}, 'spec': {'nodeName': 'machine1'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  False,
  'The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the '
  "node because one of the matchExpression item don't match."),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'In',
                                                                                                                                                                                       'values': ['securityscan',
                                                                                                                                                                                                  'value2']}]},
                                                                                                                                               'topologyKey': 'region'}]},
                                                                           'podAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                           'operator': 'In',
                                                                                                                                                                                           'values': ['antivirusscan',
                                                                                                                                                                                                      'value2']}]},
                                                                                                                                                   'topologyKey': 'node'}]}}}}},
  [{'metadata': {'labels': {'service': 'securityscan'}}, 'spec': {'nodeName': 'machine1'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  True,
  'satisfies the PodAffinity and PodAntiAffinity with the existing pod'),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'In',
                                                                                                                                                                                       'values': ['securityscan',
                                                                                                                                                                                                  'value2']}]},
                                                                                                                                               'topologyKey': 'region'}]},
                                                                           'podAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                           'operator': 'In',
                                                                                                                                                                                           'values': ['antivirusscan',
                                                                                                                                                                                                      'value2']}]},
                                                                                                                                                   'topologyKey': 'node'}]}}}}},
  [{'metadata': {'labels': {'service': 'securityscan'},
                 'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'PodAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                            'values': ['antivirusscan',
                                                                                                                                                                                                       'value2']}]},
                                                                                                                                                    'topologyKey': 'node'}]}}}},
    'spec': {'nodeName': 'machine1'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  True,
  'satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod'),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'In',
                                                                                                                                                                                       'values': ['securityscan',
                                                                                                                                                                                                  'value2']}]},
                                                                                                                                               'topologyKey': 'region'}]},
                                                                           'podAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                           'operator': 'In',
                                                                                                                                                                                           'values': ['securityscan',
                                                                                                                                                                                                      'value2']}]},
                                                                                                                                                   'topologyKey': 'zone'}]}}}}},
  [{'metadata': {'labels': {'service': 'securityscan'}}, 'spec': {'nodeName': 'machine1'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  False,
  "satisfies the PodAffinity but doesn't satisfies the PodAntiAffinity with the existing pod"),
 ({'metadata': {'labels': {'service': 'securityscan'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'In',
                                                                                                                                                                                       'values': ['securityscan',
                                                                                                                                                                                                  'value2']}]},
                                                                                                                                               'topologyKey': 'region'}]},
                                                                           'podAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                           'operator': 'In',
                                                                                                                                                                                           'values': ['antivirusscan',
                                                                                                                                                                                                      'value2']}]},
                                                                                                                                                   'topologyKey': 'node'}]}}}}},
  [{'metadata': {'labels': {'service': 'securityscan'},
                 'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'PodAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                            'values': ['securityscan',
                                                                                                                                                                                                       'value2']}]},
                                                                                                                                                    'topologyKey': 'zone'}]}}}},
    'spec': {'nodeName': 'machine1'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  False,
  "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfies PodAntiAffinity symmetry with the "
  'existing pod'),
 ({'metadata': {'labels': {'service': 'securityscan'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                       'operator': 'NotIn',
                                                                                                                                                                                       'values': ['securityscan',
                                                                                                                                                                                                  'value2']}]},
                                                                                                                                               'topologyKey': 'region'}]}}}}},
  [{'metadata': {'labels': {'service': 'securityscan'}}, 'spec': {'nodeName': 'machine2'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  False,
  'pod matches its own Label in PodAffinity and that matches the existing pod Labels'),
 ({'metadata': {'labels': {'service': 'securityscan'}}},
  [{'metadata': {'labels': {'service': 'securityscan'},
                 'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'PodAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                            'values': ['securityscan',
                                                                                                                                                                                                       'value2']}]},
                                                                                                                                                    'topologyKey': 'zone'}]}}}},
    'spec': {'nodeName': 'machine1'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  False,
  'verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. '
  "doesn't satisfy PodAntiAffinity symmetry with the existing pod"),
 ({'metadata': {'labels': {'service': 'securityscan'}}},
  [{'metadata': {'labels': {'service': 'securityscan'},
                 'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'PodAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                            'operator': 'NotIn',
                                                                                                                                                                                            'values': ['securityscan',
                                                                                                                                                                                                       'value2']}]},
                                                                                                                                                    'topologyKey': 'zone'}]}}}},
    'spec': {'nodeName': 'machine1'}}],
  {'metadata': {'name': 'machine1', 'labels': {'region': 'r1', 'zone': 'z11'}}},
  True,
  'verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. '
  'satisfy PodAntiAffinity symmetry with the existing pod')]

INTER_POD_AFFINITY_ANNOTATIONS_MULTIPLE_NODES = [({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                       'operator': 'In',
                                                                                                                                                                                       'values': ['bar']}]},
                                                                                                                                               'topologyKey': 'region'}]}}}}},
  [{'metadata': {'labels': {'foo': 'bar'}}, 'spec': {'nodeName': 'machine1'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'China', 'az': 'az1'}}},
   {'metadata': {'name': 'machine3', 'labels': {'region': 'India'}}}],
  {'machine1': True, 'machine2': True, 'machine3': False},
  'A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them '
  'has an existing pod that match the affinity rules'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': {'nodeSelectorTerms': [{'matchExpressions': [{'key': 'hostname',
                                                                                                                                                                                            'operator': 'NotIn',
                                                                                                                                                                                            'values': ['h1']}]}]}},
                                                                           'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                       'operator': 'In',
                                                                                                                                                                                       'values': ['abc']}]},
                                                                                                                                               'topologyKey': 'region'}]}}}}},
  [{'metadata': {'labels': {'foo': 'abc'}}, 'spec': {'nodeName': 'nodeA'}},
   {'metadata': {'labels': {'foo': 'def'}}, 'spec': {'nodeName': 'nodeB'}}],
  [{'metadata': {'name': 'nodeA', 'labels': {'region': 'r1', 'hostname': 'h1'}}},
   {'metadata': {'name': 'nodeB', 'labels': {'region': 'r1', 'hostname': 'h2'}}}],
  {'nodeA': False, 'nodeB': True},
  'NodeA and nodeB have same topologyKey and label value. NodeA does not satisfy node affinity rule, but has '
  'an existing pod that match the inter pod affinity rule. The pod can be scheduled onto nodeB.'),
 ({'metadata': {'labels': {'foo': 'bar'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                       'operator': 'In',
                                                                                                                                                                                       'values': ['bar']}]},
                                                                                                                                               'topologyKey': 'zone'}]}}}}},
  [],
  [{'metadata': {'name': 'nodeA', 'labels': {'zone': 'az1', 'hostname': 'h1'}}},
   {'metadata': {'name': 'nodeB', 'labels': {'zone': 'az2', 'hostname': 'h2'}}}],
  {'nodeA': True, 'nodeB': True},
  'The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of '
  "the collection should not be blocked from being scheduled onto any node, even there's no existing pod "
  'that match the rule anywhere.'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                           'operator': 'In',
                                                                                                                                                                                           'values': ['abc']}]},
                                                                                                                                                   'topologyKey': 'region'}]}}}}},
  [{'metadata': {'labels': {'foo': 'abc'}}, 'spec': {'nodeName': 'nodeA'}}],
  [{'metadata': {'name': 'nodeA', 'labels': {'region': 'r1', 'hostname': 'nodeA'}}},
   {'metadata': {'name': 'nodeB', 'labels': {'region': 'r1', 'hostname': 'nodeB'}}}],
  {'nodeA': False, 'nodeB': False},
  'NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that match the inter pod '
  'affinity rule. The pod can not be scheduled onto nodeA and nodeB.'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAntiAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                           'operator': 'In',
                                                                                                                                                                                           'values': ['abc']}]},
                                                                                                                                                   'topologyKey': 'region'}]}}}}},
  [{'metadata': {'labels': {'foo': 'abc'}}, 'spec': {'nodeName': 'nodeA'}}],
  [{'metadata': {'name': 'nodeA', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'nodeB', 'labels': {'region': 'China', 'az': 'az1'}}},
   {'metadata': {'name': 'nodeC', 'labels': {'region': 'India'}}}],
  {'nodeA': False, 'nodeB': False, 'nodeC': True},
  'NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that match the inter pod '
  'affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be schedulerd onto nodeC')]

INTER_POD_AFFINITY_ANNOTATIONS_PRIORITY = [({'metadata': {'labels': {'security': 'S1'}, 'annotations': {}}, 'spec': {'nodeName': ''}},
  [],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'India'}}},
   {'metadata': {'name': 'machine3', 'labels': {'az': 'az1'}}}],
  [('machine1', 0), ('machine2', 0), ('machine3', 0)],
  'all machines are same priority as Affinity is nil'),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                                            'values': ['S1']}]},
                                                                                                                                                                    'namespaces': [],
                                                                                                                                                                    'topologyKey': 'region'}}]}}}},
   'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': 'machine2'}},
   {'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine3'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'India'}}},
   {'metadata': {'name': 'machine3', 'labels': {'az': 'az1'}}}],
  [('machine1', 10), ('machine2', 0), ('machine3', 0)],
  'Affinity: pod that matches topology key & pods in nodes will get high score comparing to otherswhich '
  "doesn't match either pods in nodes or in topology key"),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                                            'values': ['S1']}]},
                                                                                                                                                                    'namespaces': [],
                                                                                                                                                                    'topologyKey': 'region'}}]}}}},
   'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine1'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'China', 'az': 'az1'}}},
   {'metadata': {'name': 'machine3', 'labels': {'region': 'India'}}}],
  [('machine1', 10), ('machine2', 10), ('machine3', 0)],
  'All the nodes that have the same topology key & label value with one of them has an existing pod that '
  'match the affinity rules, have the same score'),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 6,
                                                                                                                                                'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                                            'values': ['S2']}]},
                                                                                                                                                                    'namespaces': [],
                                                                                                                                                                    'topologyKey': 'region'}}]}}}},
   'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': 'machine2'}},
   {'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': 'machine3'}},
   {'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': 'machine4'}},
   {'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': 'machine5'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'India'}}},
   {'metadata': {'name': 'machine3', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine4', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine5', 'labels': {'region': 'India'}}}],
  [('machine1', 10), ('machine2', 5), ('machine3', 10), ('machine4', 10), ('machine5', 5)],
  'Affinity: nodes in one region has more matching pods comparing to other reqion, so the region which has '
  'more macthes will get high score'),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 8,
                                                                                                                                                'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                            'operator': 'NotIn',
                                                                                                                                                                                                            'values': ['S1']},
                                                                                                                                                                                                           {'key': 'security',
                                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                                            'values': ['S2']}]},
                                                                                                                                                                    'namespaces': [],
                                                                                                                                                                    'topologyKey': 'region'}},
                                                                                                                                               {'weight': 2,
                                                                                                                                                'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                            'operator': 'Exists'},
                                                                                                                                                                                                           {'key': 'wrongkey',
                                                                                                                                                                                                            'operator': 'DoesNotExist'}]},
                                                                                                                                                                    'namespaces': [],
                                                                                                                                                                    'topologyKey': 'region'}}]}}}},
   'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': 'machine2'}},
   {'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine3'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'India'}}},
   {'metadata': {'name': 'machine3', 'labels': {'az': 'az1'}}}],
  [('machine1', 2), ('machine2', 10), ('machine3', 0)],
  'Affinity: different Label operators and values for pod affinity scheduling preference, including some '
  'match failures '),
 ({'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S1'},
                 'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                 'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                             'operator': 'In',
                                                                                                                                                                                                             'values': ['S1']}]},
                                                                                                                                                                     'namespaces': [],
                                                                                                                                                                     'topologyKey': 'region'}}]}}}},
    'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S2'},
                 'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 6,
                                                                                                                                                 'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                             'operator': 'In',
                                                                                                                                                                                                             'values': ['S2']}]},
                                                                                                                                                                     'namespaces': [],
                                                                                                                                                                     'topologyKey': 'region'}}]}}}},
    'spec': {'nodeName': 'machine2'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'India'}}},
   {'metadata': {'name': 'machine3', 'labels': {'az': 'az1'}}}],
  [('machine1', 0), ('machine2', 10), ('machine3', 0)],
  'Affinity symmetry: considred only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity '
  'symmetry'),
 ({'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S1'},
                 'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                        'operator': 'In',
                                                                                                                                                                                        'values': ['S1',
                                                                                                                                                                                                   'value2']}]},
                                                                                                                                                'namespaces': [],
                                                                                                                                                'topologyKey': 'region'},
                                                                                                                                               {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                        'operator': 'Exists'},
                                                                                                                                                                                       {'key': 'wrongkey',
                                                                                                                                                                                        'operator': 'DoesNotExist'}]},
                                                                                                                                                'namespaces': [],
                                                                                                                                                'topologyKey': 'region'}]}}}},
    'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S2'},
                 'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                        'operator': 'In',
                                                                                                                                                                                        'values': ['S1',
                                                                                                                                                                                                   'value2']}]},
                                                                                                                                                'namespaces': [],
                                                                                                                                                'topologyKey': 'region'},
                                                                                                                                               {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                        'operator': 'Exists'},
                                                                                                                                                                                       {'key': 'wrongkey',
                                                                                                                                                                                        'operator': 'DoesNotExist'}]},
                                                                                                                                                'namespaces': [],
                                                                                                                                                'topologyKey': 'region'}]}}}},
    'spec': {'nodeName': 'machine2'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'India'}}},
   {'metadata': {'name': 'machine3', 'labels': {'az': 'az1'}}}],
  [('machine1', 10), ('machine2', 10), ('machine3', 0)],
  'Affinity symmetry: considred RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry'),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAntiAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                    'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                                'operator': 'In',
                                                                                                                                                                                                                'values': ['S1']}]},
                                                                                                                                                                        'namespaces': [],
                                                                                                                                                                        'topologyKey': 'az'}}]}}}},
   'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': 'machine2'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'az': 'az1'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'China'}}}],
  [('machine1', 0), ('machine2', 10)],
  'Anti Affinity: pod that doesnot match existing pods in node will get high score '),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAntiAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                    'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                                'operator': 'In',
                                                                                                                                                                                                                'values': ['S1']}]},
                                                                                                                                                                        'namespaces': [],
                                                                                                                                                                        'topologyKey': 'az'}}]}}}},
   'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine2'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'az': 'az1'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'China'}}}],
  [('machine1', 0), ('machine2', 10)],
  'Anti Affinity: pod that does not matches topology key & matches the pods in nodes will get higher score '
  'comparing to others '),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAntiAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                    'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                                'operator': 'In',
                                                                                                                                                                                                                'values': ['S1']}]},
                                                                                                                                                                        'namespaces': [],
                                                                                                                                                                        'topologyKey': 'az'}}]}}}},
   'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': 'machine2'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'az': 'az1'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'India'}}}],
  [('machine1', 0), ('machine2', 10)],
  'Anti Affinity: one node has more matching pods comparing to other node, so the node which has more '
  'unmacthes will get high score'),
 ({'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S1'},
                 'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAntiAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                     'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                                 'operator': 'In',
                                                                                                                                                                                                                 'values': ['S2']}]},
                                                                                                                                                                         'namespaces': [],
                                                                                                                                                                         'topologyKey': 'az'}}]}}}},
    'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S2'},
                 'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAntiAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                     'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                                 'operator': 'In',
                                                                                                                                                                                                                 'values': ['S1']}]},
                                                                                                                                                                         'namespaces': [],
                                                                                                                                                                         'topologyKey': 'az'}}]}}}},
    'spec': {'nodeName': 'machine2'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'az': 'az1'}}},
   {'metadata': {'name': 'machine2', 'labels': {'az': 'az2'}}}],
  [('machine1', 0), ('machine2', 10)],
  'Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score'),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 8,
                                                                                                                                                'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                                            'values': ['S1']}]},
                                                                                                                                                                    'namespaces': [],
                                                                                                                                                                    'topologyKey': 'region'}}]},
                                                                           'podAntiAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                    'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                                'operator': 'In',
                                                                                                                                                                                                                'values': ['S2']}]},
                                                                                                                                                                        'namespaces': [],
                                                                                                                                                                        'topologyKey': 'az'}}]}}}},
   'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine2'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine2', 'labels': {'az': 'az1'}}}],
  [('machine1', 10), ('machine2', 0)],
  'Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod '
  'affinity & anti affinity'),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 8,
                                                                                                                                                'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                                            'values': ['S1']}]},
                                                                                                                                                                    'namespaces': [],
                                                                                                                                                                    'topologyKey': 'region'}}]},
                                                                           'podAntiAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                    'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                                'operator': 'In',
                                                                                                                                                                                                                'values': ['S2']}]},
                                                                                                                                                                        'namespaces': [],
                                                                                                                                                                        'topologyKey': 'az'}}]}}}},
   'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine2'}},
   {'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine3'}},
   {'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine3'}},
   {'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine4'}},
   {'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine5'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China', 'az': 'az1'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'India'}}},
   {'metadata': {'name': 'machine3', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine4', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine5', 'labels': {'region': 'India'}}}],
  [('machine1', 10), ('machine2', 4), ('machine3', 10), ('machine4', 10), ('machine5', 4)],
  'Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing '
  'pods have the same labels'),
 ({'metadata': {'labels': {'security': 'S1'},
                'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 8,
                                                                                                                                                'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                            'operator': 'In',
                                                                                                                                                                                                            'values': ['S1']}]},
                                                                                                                                                                    'namespaces': [],
                                                                                                                                                                    'topologyKey': 'region'}}]},
                                                                           'podAntiAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                    'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                                'operator': 'In',
                                                                                                                                                                                                                'values': ['S2']}]},
                                                                                                                                                                        'namespaces': [],
                                                                                                                                                                        'topologyKey': 'az'}}]}}}},
   'spec': {'nodeName': ''}},
  [{'metadata': {'labels': {'security': 'S1'}}, 'spec': {'nodeName': 'machine1'}},
   {'metadata': {'labels': {'security': 'S2'}}, 'spec': {'nodeName': 'machine2'}},
   {'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 8,
                                                                                                                                                 'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                             'operator': 'In',
                                                                                                                                                                                                             'values': ['S1']}]},
                                                                                                                                                                     'namespaces': [],
                                                                                                                                                                     'topologyKey': 'region'}}]},
                                                                            'podAntiAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                     'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                                 'operator': 'In',
                                                                                                                                                                                                                 'values': ['S2']}]},
                                                                                                                                                                         'namespaces': [],
                                                                                                                                                                         'topologyKey': 'az'}}]}}}},
    'spec': {'nodeName': 'machine3'}},
   {'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAntiAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 5,
                                                                                                                                                     'podAffinityTerm': {'labelSelector': {'matchExpressions': [{'key': 'security',
                                                                                                                                                                                                                 'operator': 'In',
                                                                                                                                                                                                                 'values': ['S1']}]},
                                                                                                                                                                         'namespaces': [],
                                                                                                                                                                         'topologyKey': 'az'}}]}}}},
    'spec': {'nodeName': 'machine4'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine2', 'labels': {'az': 'az1'}}},
   {'metadata': {'name': 'machine3', 'labels': {'region': 'India'}}},
   {'metadata': {'name': 'machine4', 'labels': {'az': 'az2'}}}],
  [('machine1', 10), ('machine2', 0), ('machine3', 10), ('machine4', 0)],
  'Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution '
  'in both pod affinity & anti affinity & symmetry')]

HARD_POD_AFFINITY_ANNOTATIONS_SYMMETRIC_WEIGHT = [({'metadata': {'labels': {'service': 'S1'}}, 'spec': {'nodeName': ''}},
  [{'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                        'operator': 'In',
                                                                                                                                                                                        'values': ['S1']}]},
                                                                                                                                                'namespaces': [],
                                                                                                                                                'topologyKey': 'region'}]}}}},
    'spec': {'nodeName': 'machine1'}},
   {'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                        'operator': 'In',
                                                                                                                                                                                        'values': ['S1']}]},
                                                                                                                                                'namespaces': [],
                                                                                                                                                'topologyKey': 'region'}]}}}},
    'spec': {'nodeName': 'machine2'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'India'}}},
   {'metadata': {'name': 'machine3', 'labels': {'az': 'az1'}}}],
  1,
  [('machine1', 10), ('machine2', 10), ('machine3', 0)],
  'Hard Pod Affinity symmetry: hard pod affinity symmetry weights 1 by default, then nodes that match the '
  'hard pod affinity symmetry rules, get a high score'),
 ({'metadata': {'labels': {'service': 'S1'}}, 'spec': {'nodeName': ''}},
  [{'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                        'operator': 'In',
                                                                                                                                                                                        'values': ['S1']}]},
                                                                                                                                                'namespaces': [],
                                                                                                                                                'topologyKey': 'region'}]}}}},
    'spec': {'nodeName': 'machine1'}},
   {'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'podAffinity': {'requiredDuringSchedulingIgnoredDuringExecution': [{'labelSelector': {'matchExpressions': [{'key': 'service',
                                                                                                                                                                                        'operator': 'In',
                                                                                                                                                                                        'values': ['S1']}]},
                                                                                                                                                'namespaces': [],
                                                                                                                                                'topologyKey': 'region'}]}}}},
    'spec': {'nodeName': 'machine2'}}],
  [{'metadata': {'name': 'machine1', 'labels': {'region': 'China'}}},
   {'metadata': {'name': 'machine2', 'labels': {'region': 'India'}}},
   {'metadata': {'name': 'machine3', 'labels': {'az': 'az1'}}}],
  0,
  [('machine1', 0), ('machine2', 0), ('machine3', 0)],
  'Hard Pod Affinity symmetry: hard pod affinity symmetry is closed(weights 0), then nodes that match the '
  'hard pod affinity symmetry rules, get same score with those not match')]

NODE_AFFINITY_ANNOTATIONS_PRIORITY = [({'metadata': {'annotations': {}}},
  [{'metadata': {'name': 'machine1', 'labels': {'foo': 'bar'}}},
   {'metadata': {'name': 'machine2', 'labels': {'key': 'value'}}},
   {'metadata': {'name': 'machine3', 'labels': {'az': 'az1'}}}],
  [('machine1', 0), ('machine2', 0), ('machine3', 0)],
  'all machines are same priority as NodeAffinity is nil'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 2,
                                                                                                                                                 'preference': {'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                      'operator': 'In',
                                                                                                                                                                                      'values': ['bar']}]}}]}}}}},
  [{'metadata': {'name': 'machine1', 'labels': {'abc': 'az11', 'def': 'az22'}}},
   {'metadata': {'name': 'machine2', 'labels': {'key': 'value'}}},
   {'metadata': {'name': 'machine3', 'labels': {'az': 'az1'}}}],
  [('machine1', 0), ('machine2', 0), ('machine3', 0)],
  "no machine macthes preferred scheduling requirements in NodeAffinity of pod so all machines' priority is "
  'zero'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 2,
                                                                                                                                                 'preference': {'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                      'operator': 'In',
                                                                                                                                                                                      'values': ['bar']}]}}]}}}}},
  [{'metadata': {'name': 'machine1', 'labels': {'foo': 'bar'}}},
   {'metadata': {'name': 'machine2', 'labels': {'key': 'value'}}},
   {'metadata': {'name': 'machine3', 'labels': {'az': 'az1'}}}],
  [('machine1', 10), ('machine2', 0), ('machine3', 0)],
  'only machine1 matches the preferred scheduling requirements of pod'),
 ({'metadata': {'annotations': {'scheduler.alpha.kubernetes.io/affinity': {'nodeAffinity': {'preferredDuringSchedulingIgnoredDuringExecution': [{'weight': 2,
                                                                                                                                                 'preference': {'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                      'operator': 'In',
                                                                                                                                                                                      'values': ['bar']}]}},
                                                                                                                                                {'weight': 4,
                                                                                                                                                 'preference': {'matchExpressions': [{'key': 'key',
                                                                                                                                                                                      'operator': 'In',
                                                                                                                                                                                      'values': ['value']}]}},
                                                                                                                                                {'weight': 5,
                                                                                                                                                 'preference': {'matchExpressions': [{'key': 'foo',
                                                                                                                                                                                      'operator': 'In',
                                                                                                                                                                                      'values': ['bar']},
                                                                                                                                                                                     {'key': 'key',
                                                                                                                                                                                      'operator': 'In',
                                                                                                                                                                                      'values': ['value']},
                                                                                                                                                                                     {'key': 'az',
                                                                                                                                                                                      'operator': 'In',
                                                                                                                                                                                      'values': ['az1']}]}}]}}}}},
  [{'metadata': {'name': 'machine1', 'labels': {'foo': 'bar'}}},
   {'metadata': {'name': 'machine5', 'labels': {'foo': 'bar', 'key': 'value', 'az': 'az1'}}},
   {'metadata': {'name': 'machine2', 'labels': {'key': 'value'}}}],
  [('machine1', 1), ('machine5', 10), ('machine2', 3)],
  'all machines matches the preferred scheduling requirements of pod but with different priorities ')]



@pytest.mark.parametrize("pod,labels,fits,test", POD_ANNOTATION_FITS_SELECTOR,
                         ids=["TestPodAnnotationFitsSelector:" + _id(c[-1]) for c in POD_ANNOTATION_FITS_SELECTOR])
def test_pod_annotation_fits_selector(pod, labels, fits, test):
    pod = _pod(pod)
    node_info = new_node_info()
    node_info.set_node(_node({"metadata": {"labels": labels}}))
    got, reasons = p.pod_selector_matches(pod, predicate_metadata(pod, None), node_info)
    if not got:
        assert reasons == [errs.ERR_NODE_SELECTOR_NOT_MATCH], test
    assert got == fits, test


@pytest.mark.parametrize("pod,pods,node,fits,test", INTER_POD_AFFINITY_ANNOTATIONS,
                         ids=["TestInterPodAffinityAnnotations:" + _id(c[-1]) for c in INTER_POD_AFFINITY_ANNOTATIONS])
def test_inter_pod_affinity_annotations(pod, pods, node, fits, test):
    pod, pods, node = _pod(pod), [_pod(x) for x in pods], _node(node)
    pods_on_node = [x for x in pods if x.spec.node_name == node.metadata.name]
    fit = p.PodAffinityChecker(FakeNodeInfo(node), FakePodLister(pods), Topologies())
    node_info = new_node_info(*pods_on_node)
    node_info.set_node(node)
    got, reasons = fit.inter_pod_affinity_matches(pod, predicate_metadata(pod, {node.metadata.name: node_info}), node_info)
    if not got:
        assert reasons == [errs.ERR_POD_AFFINITY_NOT_MATCH], test
    assert got == fits, test


@pytest.mark.parametrize("pod,pods,nodes,fits,test", INTER_POD_AFFINITY_ANNOTATIONS_MULTIPLE_NODES,
                         ids=["TestInterPodAffinityAnnotationsWithMultipleNodes:" + _id(c[-1])
                              for c in INTER_POD_AFFINITY_ANNOTATIONS_MULTIPLE_NODES])
def test_inter_pod_affinity_annotations_with_multiple_nodes(pod, pods, nodes, fits, test):
    pod, pods, nodes = _pod(pod), [_pod(x) for x in pods], [_node(n) for n in nodes]
    node_list_info = FakeNodeListInfo(nodes)
    for node in nodes:
        pods_on_node = [x for x in pods if x.spec.node_name == node.metadata.name]
        test_fit = p.PodAffinityChecker(node_list_info, FakePodLister(pods), Topologies())
        node_info = new_node_info(*pods_on_node)
        node_info.set_node(node)
        got, reasons = test_fit.inter_pod_affinity_matches(
            pod, predicate_metadata(pod, {node.metadata.name: node_info}), node_info)
        if not got:
            assert reasons == [errs.ERR_POD_AFFINITY_NOT_MATCH], test
        from kschedlearn.api.v1 import get_affinity_from_pod_annotations

        affinity = get_affinity_from_pod_annotations(pod.metadata.annotations)
        if affinity is not None and affinity.node_affinity is not None:
            selector_info = new_node_info()
            selector_info.set_node(node)
            fits2, reasons = p.pod_selector_matches(
                pod, predicate_metadata(pod, {node.metadata.name: selector_info}), selector_info)
            if not fits2:
                assert reasons == [errs.ERR_NODE_SELECTOR_NOT_MATCH], test
            got = got and fits2
        assert got == fits[node.metadata.name], (test, node.metadata.name)


@pytest.mark.parametrize("pod,pods,nodes,expected,test", INTER_POD_AFFINITY_ANNOTATIONS_PRIORITY,
                         ids=["TestInterPodAffinityAnnotationsPriority:" + _id(c[-1])
                              for c in INTER_POD_AFFINITY_ANNOTATIONS_PRIORITY])
def test_inter_pod_affinity_annotations_priority(pod, pods, nodes, expected, test):
    pod, pods, nodes = _pod(pod), [_pod(x) for x in pods], [_node(n) for n in nodes]
    node_name_to_info = create_node_name_to_info_map(pods, nodes)
    inter_pod_affinity = InterPodAffinity(
        info=FakeNodeListInfo(nodes), node_lister=FakeNodeLister(nodes), pod_lister=FakePodLister(pods),
        hard_pod_affinity_weight=1,  # v1.DefaultHardPodAffinitySymmetricWeight
        failure_domains=Topologies(),
    )
    got = inter_pod_affinity.calculate_inter_pod_affinity_priority(pod, node_name_to_info, nodes)
    assert got == _hp(expected), test


@pytest.mark.parametrize("pod,pods,nodes,weight,expected,test", HARD_POD_AFFINITY_ANNOTATIONS_SYMMETRIC_WEIGHT,
                         ids=["TestHardPodAffinityAnnotationsSymmetricWeight:" + _id(c[-1])
                              for c in HARD_POD_AFFINITY_ANNOTATIONS_SYMMETRIC_WEIGHT])
def test_hard_pod_affinity_annotations_symmetric_weight(pod, pods, nodes, weight, expected, test):
    pod, pods, nodes = _pod(pod), [_pod(x) for x in pods], [_node(n) for n in nodes]
    node_name_to_info = create_node_name_to_info_map(pods, nodes)
    ipa = InterPodAffinity(
        info=FakeNodeListInfo(nodes), node_lister=FakeNodeLister(nodes), pod_lister=FakePodLister(pods),
        hard_pod_affinity_weight=weight, failure_domains=Topologies(),
    )
    assert ipa.calculate_inter_pod_affinity_priority(pod, node_name_to_info, nodes) == _hp(expected), test


@pytest.mark.parametrize("pod,nodes,expected,test", NODE_AFFINITY_ANNOTATIONS_PRIORITY,
                         ids=["TestNodeAffinityAnnotationsPriority:" + _id(c[-1]) for c in NODE_AFFINITY_ANNOTATIONS_PRIORITY])
def test_node_affinity_annotations_priority(pod, nodes, expected, test):
    pod, nodes = _pod(pod), [_node(n) for n in nodes]
    node_name_to_info = create_node_name_to_info_map([], nodes)
    nap = priority_function(calculate_node_affinity_priority_map, calculate_node_affinity_priority_reduce)
    assert nap(pod, node_name_to_info, nodes) == _hp(expected), test


def test_gate_off_ignores_every_annotation():
    """(kschedlearn) The same node-affinity table with the gate off: nothing counts."""
    with host_feature_gate().set_for("AffinityInAnnotations=false"):
        for pod, nodes, _expected, test in NODE_AFFINITY_ANNOTATIONS_PRIORITY:
            pod, nodes = _pod(pod), [_node(n) for n in nodes]
            nap = priority_function(calculate_node_affinity_priority_map, calculate_node_affinity_priority_reduce)
            got = nap(pod, create_node_name_to_info_map([], nodes), nodes)
            assert [hp.score for hp in got] == [0] * len(nodes), test

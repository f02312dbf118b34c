"""Port of pkg/api/v1/helpers_test.go at v1.6.1: the tests and rows ``test_helpers.py`` lacks.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/api/v1/helpers_test.go

``test_helpers.py`` already carries TestNodeSelectorRequirementsAsSelector (its ``nil`` and
``[]`` rows are one row here: the model has no nil slice, an absent list is ``()``),
TestTaintToString, TestMatchTaint, TestTolerationToleratesTaint,
TestTolerationsTolerateTaintsWithFilter and TestGetAvoidPodsFromNode. This module adds Go's
TestGetAffinityFromPodAnnotations table and marks the tests of helpers kschedlearn does not
mirror (the scheduler never calls them) as skipped, so the whole file is accounted for.
"""

from __future__ import annotations

import pytest

from kschedlearn.api import v1
from kschedlearn.api.errors import ManifestError

_VALID = """
						{"nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
							"nodeSelectorTerms": [{
								"matchExpressions": [{
									"key": "foo",
									"operator": "In",
									"values": ["value1", "value2"]
								}]
							}]
						}}}"""

_TRUNCATED = """
						{"nodeAffinity": { "requiredDuringSchedulingIgnoredDuringExecution": {
							"nodeSelectorTerms": [{
								"matchExpressions": [{
									"key": "foo",
						"""


@pytest.mark.parametrize(("annotations", "expect_err"), [
    pytest.param({}, False, id="TestGetAffinityFromPodAnnotations/0-empty-pod"),
    pytest.param({v1.AFFINITY_ANNOTATION_KEY: _VALID}, False, id="TestGetAffinityFromPodAnnotations/1-valid"),
    pytest.param({v1.AFFINITY_ANNOTATION_KEY: _TRUNCATED}, True, id="TestGetAffinityFromPodAnnotations/2-truncated"),
])
def test_get_affinity_from_pod_annotations(annotations: dict[str, str], expect_err: bool) -> None:
    pod = v1.Pod(metadata=v1.ObjectMeta(annotations=annotations))
    if expect_err:
        with pytest.raises(ManifestError):
            v1.get_affinity_from_pod_annotations(pod.metadata.annotations)
        return
    affinity = v1.get_affinity_from_pod_annotations(pod.metadata.annotations)
    if not annotations:
        assert affinity is None
        return
    # kschedlearn-only: the decoded value, beyond Go's "no error"
    assert affinity is not None and affinity.node_affinity is not None
    required = affinity.node_affinity.required_during_scheduling_ignored_during_execution
    assert required is not None
    assert required.node_selector_terms[0].match_expressions == (
        v1.NodeSelectorRequirement(key="foo", operator=v1.NODE_SELECTOR_OP_IN, values=("value1", "value2")),
    )


_NOT_MIRRORED = "kschedlearn does not mirror {}: the 1.6 scheduler never calls it"


@pytest.mark.parametrize("go_test", [
    pytest.param("TestAddToNodeAddresses", id="TestAddToNodeAddresses",
                 marks=pytest.mark.skip(reason=_NOT_MIRRORED.format("AddToNodeAddresses"))),
    pytest.param("TestGetAccessModesFromString", id="TestGetAccessModesFromString",
                 marks=pytest.mark.skip(reason=_NOT_MIRRORED.format("GetAccessModesFromString"))),
    pytest.param("TestRemoveDuplicateAccessModes", id="TestRemoveDuplicateAccessModes",
                 marks=pytest.mark.skip(reason=_NOT_MIRRORED.format("removeDuplicateAccessModes"))),
    pytest.param("TestSysctlsFromPodAnnotation", id="TestSysctlsFromPodAnnotation",
                 marks=pytest.mark.skip(reason=_NOT_MIRRORED.format("SysctlsFromPodAnnotation"))),
])
def test_helpers_not_mirrored(go_test: str) -> None:
    raise AssertionError(f"{go_test} is skipped: its helper is not mirrored")

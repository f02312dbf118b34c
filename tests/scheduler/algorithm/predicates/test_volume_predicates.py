"""Port of TestEBSVolumeCountConflicts (predicates_test.go), run for all three MaxPDVolumeCount
filters, plus NoVolumeZoneConflict cases written from the spec.

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithm/predicates/predicates_test.go
- The Go table exercises only the EBS filter. The same table is run here for the GCE PD and
  Azure Disk filters too, by building the same pods with the matching volume source: the
  predicate code is shared, only the filter differs.
- predicates_test.go of 1.6 has no table for NoVolumeZoneConflict; the zone cases below come
  from spec §7.9 (k8s-1.6.1-facts.md), not from Go.
"""

from __future__ import annotations

import re
from typing import Callable

import pytest

from kschedlearn.api.v1.meta import ObjectMeta
from kschedlearn.api.v1.node import Node
from kschedlearn.api.v1.others import (
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    PersistentVolumeSpec,
)
from kschedlearn.api.v1.pod import (
    AWSElasticBlockStoreVolumeSource,
    AzureDiskVolumeSource,
    GCEPersistentDiskVolumeSource,
    HostPathVolumeSource,
    PersistentVolumeClaimVolumeSource,
    Pod,
    PodSpec,
    Volume,
)
from kschedlearn.scheduler.algorithm.predicates import error as errs
from kschedlearn.scheduler.algorithm.predicates import predicates as p
from kschedlearn.scheduler.algorithm.predicates.metadata import predicate_metadata
from kschedlearn.scheduler.schedulercache.node_info import new_node_info
from kschedlearn.scheduler.testing.fake_lister import FakePersistentVolumeClaimInfo, FakePersistentVolumeInfo


def _id(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", s).strip("_")


# --- one "kind" per MaxPDVolumeCount variant: (filter, inline volume source, PV spec) ---------

KINDS: dict[str, tuple[p.VolumeFilter, Callable[[str], Volume], Callable[[str], PersistentVolumeSpec]]] = {
    "EBS": (
        p.EBS_VOLUME_FILTER,
        lambda vid: Volume(aws_elastic_block_store=AWSElasticBlockStoreVolumeSource(volume_id=vid)),
        lambda vid: PersistentVolumeSpec(aws_elastic_block_store=AWSElasticBlockStoreVolumeSource(volume_id=vid)),
    ),
    "GCEPD": (
        p.GCE_PD_VOLUME_FILTER,
        lambda vid: Volume(gce_persistent_disk=GCEPersistentDiskVolumeSource(pd_name=vid)),
        lambda vid: PersistentVolumeSpec(gce_persistent_disk=GCEPersistentDiskVolumeSource(pd_name=vid)),
    ),
    "AzureDisk": (
        p.AZURE_DISK_VOLUME_FILTER,
        lambda vid: Volume(azure_disk=AzureDiskVolumeSource(disk_name=vid)),
        lambda vid: PersistentVolumeSpec(azure_disk=AzureDiskVolumeSource(disk_name=vid)),
    ),
}


def _pods(vol: Callable[[str], Volume]) -> dict[str, Pod]:
    """The named pods of the Go test, with ``vol`` as the counted volume type."""

    def pod(*volumes: Volume) -> Pod:
        return Pod(spec=PodSpec(volumes=volumes))

    def pvc(claim: str) -> Volume:
        return Volume(persistent_volume_claim=PersistentVolumeClaimVolumeSource(claim_name=claim))

    host_path = Volume(host_path=HostPathVolumeSource())
    return {
        "oneVolPod": pod(vol("ovp")),
        "ebsPVCPod": pod(pvc("someEBSVol")),
        "splitPVCPod": pod(pvc("someNonEBSVol"), pvc("someEBSVol")),
        "twoVolPod": pod(vol("tvp1"), vol("tvp2")),
        "splitVolsPod": pod(host_path, vol("svp")),
        "nonApplicablePod": pod(host_path),
        "deletedPVCPod": pod(pvc("deletedPVC")),
        "deletedPVPod": pod(pvc("pvcWithDeletedPV")),
        "emptyPod": Pod(spec=PodSpec()),
    }


VOLUME_COUNT = [
    # (newPod, existingPods, maxVols, fits, test)
    ("oneVolPod", ["twoVolPod", "oneVolPod"], 4, True, "fits when node capacity >= new pod's EBS volumes"),
    ("twoVolPod", ["oneVolPod"], 2, False, "doesn't fit when node capacity < new pod's EBS volumes"),
    ("splitVolsPod", ["twoVolPod"], 3, True, "new pod's count ignores non-EBS volumes"),
    ("twoVolPod", ["splitVolsPod", "nonApplicablePod", "emptyPod"], 3, True, "existing pods' counts ignore non-EBS volumes"),
    ("ebsPVCPod", ["splitVolsPod", "nonApplicablePod", "emptyPod"], 3, True, "new pod's count considers PVCs backed by EBS volumes"),
    ("splitPVCPod", ["splitVolsPod", "oneVolPod"], 3, True, "new pod's count ignores PVCs not backed by EBS volumes"),
    ("twoVolPod", ["oneVolPod", "ebsPVCPod"], 3, False, "existing pods' counts considers PVCs backed by EBS volumes"),
    ("twoVolPod", ["oneVolPod", "twoVolPod", "ebsPVCPod"], 4, True, "already-mounted EBS volumes are always ok to allow"),
    ("splitVolsPod", ["oneVolPod", "oneVolPod", "ebsPVCPod"], 3, True, "the same EBS volumes are not counted multiple times"),
    ("ebsPVCPod", ["oneVolPod", "deletedPVCPod"], 2, False, "pod with missing PVC is counted towards the PV limit"),
    ("ebsPVCPod", ["oneVolPod", "deletedPVCPod"], 3, True, "pod with missing PVC is counted towards the PV limit"),
    ("ebsPVCPod", ["oneVolPod", "deletedPVPod"], 2, False, "pod with missing PV is counted towards the PV limit"),
    ("ebsPVCPod", ["oneVolPod", "deletedPVPod"], 3, True, "pod with missing PV is counted towards the PV limit"),
]
# Go repeats two names with different maxVols; the ids carry maxVols to stay unique.
VOLUME_COUNT_IDS = [f"{_id(c[4])}_max{c[2]}" for c in VOLUME_COUNT]


def _pv_info(pv_spec: Callable[[str], PersistentVolumeSpec]) -> FakePersistentVolumeInfo:
    return FakePersistentVolumeInfo([
        PersistentVolume(metadata=ObjectMeta(name="someEBSVol"), spec=pv_spec("ebsVol")),
        PersistentVolume(metadata=ObjectMeta(name="someNonEBSVol"), spec=PersistentVolumeSpec()),
    ])


PVC_INFO = FakePersistentVolumeClaimInfo([
    PersistentVolumeClaim(metadata=ObjectMeta(name="someEBSVol"), spec=PersistentVolumeClaimSpec(volume_name="someEBSVol")),
    PersistentVolumeClaim(metadata=ObjectMeta(name="someNonEBSVol"), spec=PersistentVolumeClaimSpec(volume_name="someNonEBSVol")),
    PersistentVolumeClaim(metadata=ObjectMeta(name="pvcWithDeletedPV"), spec=PersistentVolumeClaimSpec(volume_name="pvcWithDeletedPV")),
])


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("new_pod,existing,max_vols,fits,test", VOLUME_COUNT, ids=VOLUME_COUNT_IDS)
def test_volume_count_conflicts(kind, new_pod, existing, max_vols, fits, test) -> None:
    volume_filter, vol, pv_spec = KINDS[kind]
    pods = _pods(vol)
    pod = pods[new_pod]
    pred = p.new_max_pd_volume_count_predicate(volume_filter, max_vols, _pv_info(pv_spec), PVC_INFO)
    got, reasons = pred(pod, predicate_metadata(pod, None), new_node_info(*(pods[n] for n in existing)))
    assert got == fits
    assert reasons == ([] if fits else [errs.ERR_MAX_VOLUME_COUNT_EXCEEDED])


def test_volume_count_filters_ignore_each_other() -> None:
    """Not in Go: a GCE PD is invisible to the EBS counter (and so on)."""
    gce_pods = _pods(KINDS["GCEPD"][1])
    pred = p.new_max_pd_volume_count_predicate(p.EBS_VOLUME_FILTER, 0, FakePersistentVolumeInfo([]), PVC_INFO)
    assert pred(gce_pods["twoVolPod"], None, new_node_info(gce_pods["oneVolPod"])) == (True, [])


@pytest.mark.parametrize(
    "claim,pvcs,message",
    [
        ("", [], "PersistentVolumeClaim had no name"),
        ("unbound", [PersistentVolumeClaim(metadata=ObjectMeta(name="unbound"))], 'PersistentVolumeClaim is not bound: "unbound"'),
    ],
    ids=["claim without name", "unbound claim"],
)
def test_volume_count_errors(claim, pvcs, message) -> None:
    """Spec §7.10: these abort scheduling with an error, not a failure reason."""
    pod = Pod(spec=PodSpec(volumes=(Volume(persistent_volume_claim=PersistentVolumeClaimVolumeSource(claim_name=claim)),)))
    pred = p.new_max_pd_volume_count_predicate(p.EBS_VOLUME_FILTER, 39, FakePersistentVolumeInfo([]), FakePersistentVolumeClaimInfo(pvcs))
    with pytest.raises(p.PredicateError, match=re.escape(message)):
        pred(pod, None, new_node_info())


# --- NoVolumeZoneConflict (spec §7.9; no Go table in 1.6) -----------------------------------

ZONE = p.LABEL_ZONE_FAILURE_DOMAIN
REGION = p.LABEL_ZONE_REGION


def _zone_pv(name: str, labels: dict) -> PersistentVolume:
    return PersistentVolume(metadata=ObjectMeta(name=name, labels=labels))


def _claim(name: str, volume_name: str) -> PersistentVolumeClaim:
    return PersistentVolumeClaim(metadata=ObjectMeta(name=name, namespace="default"),
                                 spec=PersistentVolumeClaimSpec(volume_name=volume_name))


ZONE_PVS = FakePersistentVolumeInfo([
    _zone_pv("pv-a", {ZONE: "us-a"}),
    _zone_pv("pv-b", {ZONE: "us-b", REGION: "us"}),
    _zone_pv("pv-plain", {"other": "label"}),
])
ZONE_PVCS = FakePersistentVolumeClaimInfo([
    _claim("claim-a", "pv-a"), _claim("claim-b", "pv-b"), _claim("claim-plain", "pv-plain"), _claim("claim-unbound", ""),
])


def _claim_pod(*claims: str) -> Pod:
    vols = tuple(Volume(persistent_volume_claim=PersistentVolumeClaimVolumeSource(claim_name=c)) for c in claims)
    return Pod(metadata=ObjectMeta(name="p", namespace="default"), spec=PodSpec(volumes=vols))


VOLUME_ZONE = [
    (Pod(metadata=ObjectMeta(namespace="default")), {ZONE: "us-a"}, True, "pod without volumes fits"),
    (_claim_pod("claim-a"), {"kubernetes.io/hostname": "n"}, True, "node without zone labels fits"),
    (_claim_pod("claim-a"), {ZONE: "us-a"}, True, "volume zone equals node zone"),
    (_claim_pod("claim-a"), {ZONE: "us-b"}, False, "volume zone differs from node zone"),
    (_claim_pod("claim-b"), {ZONE: "us-b"}, False, "volume region missing on the node counts as a mismatch"),
    (_claim_pod("claim-b"), {ZONE: "us-b", REGION: "us"}, True, "volume zone and region both equal"),
    (_claim_pod("claim-plain"), {ZONE: "us-a"}, True, "volume without zone labels fits anywhere"),
    (_claim_pod("claim-plain", "claim-a"), {ZONE: "us-b"}, False, "any mismatching volume fails the pod"),
]


@pytest.mark.parametrize("pod,node_labels,fits,test", VOLUME_ZONE, ids=[_id(c[3]) for c in VOLUME_ZONE])
def test_volume_zone_predicate(pod, node_labels, fits, test) -> None:
    node_info = new_node_info()
    node_info.set_node(Node(metadata=ObjectMeta(name="n", labels=node_labels)))
    pred = p.new_volume_zone_predicate(ZONE_PVS, ZONE_PVCS)
    got, reasons = pred(pod, None, node_info)
    assert got == fits
    assert reasons == ([] if fits else [errs.ERR_VOLUME_ZONE_CONFLICT])


@pytest.mark.parametrize(
    "claim,message",
    [("", "PersistentVolumeClaim had no name"), ("claim-unbound", 'PersistentVolumeClaim is not bound: "claim-unbound"')],
    ids=["claim without name", "unbound claim is an error not a reason"],
)
def test_volume_zone_errors(claim, message) -> None:
    node_info = new_node_info()
    node_info.set_node(Node(metadata=ObjectMeta(name="n", labels={ZONE: "us-a"})))
    with pytest.raises(p.PredicateError, match=re.escape(message)):
        p.new_volume_zone_predicate(ZONE_PVS, ZONE_PVCS)(_claim_pod(claim), None, node_info)


def test_volume_zone_without_node_is_an_error() -> None:
    with pytest.raises(p.PredicateError, match="node not found"):
        p.new_volume_zone_predicate(ZONE_PVS, ZONE_PVCS)(_claim_pod("claim-a"), None, new_node_info())

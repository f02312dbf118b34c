"""Every kind decodes from a rich manifest and encodes back to exactly the same dict."""

from __future__ import annotations

import copy

import attrs
import pytest

from kschedlearn.api import v1
from kschedlearn.api.resource import parse_quantity

POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {
        "name": "web-1",
        "namespace": "default",
        "uid": "uid-web-1",
        "resourceVersion": "42",
        "generateName": "web-",
        "labels": {"app": "web", "app.kubernetes.io/tier": "frontend"},
        "annotations": {"note": "hello"},
        "creationTimestamp": "2017-04-03T00:00:05Z",
        "deletionTimestamp": "2017-04-03T01:00:00.5Z",
        "deletionGracePeriodSeconds": 30,
        "ownerReferences": [
            {"apiVersion": "extensions/v1beta1", "kind": "ReplicaSet", "name": "web", "uid": "rs-1", "controller": True}
        ],
    },
    "spec": {
        "initContainers": [{"name": "init", "image": "busybox", "resources": {"requests": {"cpu": "2", "memory": "1G"}}}],
        "containers": [
            {
                "name": "nginx",
                "image": "nginx:1.11",
                "command": ["nginx"],
                "args": ["-g", "daemon off;"],
                "ports": [
                    {"name": "http", "containerPort": 80, "hostPort": 8080, "protocol": "TCP", "hostIP": "0.0.0.0"},
                    {"containerPort": 53, "hostPort": 53, "protocol": "UDP"},
                ],
                "resources": {
                    "requests": {"cpu": "500m", "memory": "128Mi", "alpha.kubernetes.io/nvidia-gpu": "1"},
                    "limits": {"cpu": "1", "memory": "256Mi", "pod.alpha.kubernetes.io/opaque-int-resource-foo": "3"},
                },
                "imagePullPolicy": "IfNotPresent",
            }
        ],
        "restartPolicy": "Always",
        "terminationGracePeriodSeconds": 0,
        "dnsPolicy": "ClusterFirst",
        "nodeSelector": {"disk": "ssd"},
        "serviceAccountName": "default",
        "nodeName": "node-1",
        "hostNetwork": True,
        "hostPID": True,
        "schedulerName": "default-scheduler",
        "affinity": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a", "b"]}]},
                        {"matchExpressions": [{"key": "gpu", "operator": "Exists"}]},
                    ]
                },
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 5, "preference": {"matchExpressions": [{"key": "cores", "operator": "Gt", "values": ["4"]}]}}
                ],
            },
            "podAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "labelSelector": {
                            "matchLabels": {"app": "db"},
                            "matchExpressions": [{"key": "tier", "operator": "In", "values": ["backend"]}],
                        },
                        "namespaces": ["default", "prod"],
                        "topologyKey": "failure-domain.beta.kubernetes.io/zone",
                    }
                ],
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "weight": 10,
                        "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "kubernetes.io/hostname"},
                    }
                ],
            },
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}
                ],
            },
        },
        "tolerations": [
            {"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"},
            {"operator": "Exists"},
            {"key": "node.alpha.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
        ],
        "volumes": [
            {"name": "pd", "gcePersistentDisk": {"pdName": "disk-1", "fsType": "ext4", "partition": 1, "readOnly": True}},
            {"name": "ebs", "awsElasticBlockStore": {"volumeID": "vol-1", "fsType": "ext4"}},
            {
                "name": "rbd",
                "rbd": {
                    "monitors": ["10.0.0.1:6789", "10.0.0.2:6789"],
                    "image": "foo",
                    "fsType": "ext4",
                    "pool": "kube",
                    "user": "admin",
                    "keyring": "/etc/ceph/keyring",
                    "readOnly": True,
                },
            },
            {
                "name": "iscsi",
                "iscsi": {
                    "targetPortal": "10.0.0.3:3260",
                    "iqn": "iqn.2017-04.com.example:storage",
                    "lun": 0,
                    "iscsiInterface": "default",
                    "fsType": "ext4",
                },
            },
            {
                "name": "azure",
                "azureDisk": {"diskName": "d1", "diskURI": "https://x/d1.vhd", "cachingMode": "ReadOnly", "fsType": "ext4"},
            },
            {"name": "claim", "persistentVolumeClaim": {"claimName": "data", "readOnly": True}},
            {"name": "host", "hostPath": {"path": "/var/log"}},
            {"name": "scratch", "emptyDir": {}},
            {"name": "mem", "emptyDir": {"medium": "Memory"}},
        ],
    },
    "status": {
        "phase": "Pending",
        "conditions": [
            {
                "type": "PodScheduled",
                "status": "False",
                "reason": "Unschedulable",
                "message": "No nodes are available that match all of the following predicates:: Insufficient cpu (1).",
                "lastTransitionTime": "2017-04-03T00:00:06Z",
                "lastProbeTime": "2017-04-02T23:59:59Z",
            }
        ],
        "hostIP": "10.0.0.10",
        "podIP": "172.16.0.5",
        "startTime": "2017-04-03T00:00:07Z",
        "qosClass": "Burstable",
    },
}

NODE = {
    "apiVersion": "v1",
    "kind": "Node",
    "metadata": {
        "name": "node-1",
        "labels": {
            "kubernetes.io/hostname": "node-1",
            "failure-domain.beta.kubernetes.io/zone": "us-east-1a",
            "failure-domain.beta.kubernetes.io/region": "us-east-1",
        },
        "annotations": {
            "scheduler.alpha.kubernetes.io/preferAvoidPods": '{"preferAvoidPods": []}',
        },
    },
    "spec": {
        "podCIDR": "10.244.1.0/24",
        "externalID": "node-1",
        "providerID": "aws:///us-east-1a/i-1",
        "unschedulable": True,
        "taints": [
            {"key": "dedicated", "value": "web", "effect": "NoSchedule"},
            {"key": "node.alpha.kubernetes.io/notReady", "effect": "NoExecute", "timeAdded": "2017-04-03T00:10:00Z"},
        ],
    },
    "status": {
        "capacity": {"cpu": "4", "memory": "16Gi", "pods": "110", "alpha.kubernetes.io/nvidia-gpu": "2"},
        "allocatable": {"cpu": "3800m", "memory": "15Gi", "pods": "110"},
        "phase": "Running",
        "conditions": [
            {
                "type": "Ready",
                "status": "True",
                "reason": "KubeletReady",
                "message": "kubelet is posting ready status",
                "lastHeartbeatTime": "2017-04-03T00:00:10Z",
                "lastTransitionTime": "2017-04-03T00:00:00Z",
            },
            {"type": "MemoryPressure", "status": "False"},
            {"type": "DiskPressure", "status": "False"},
        ],
        "addresses": [{"type": "InternalIP", "address": "10.0.0.10"}, {"type": "Hostname", "address": "node-1"}],
        "images": [{"names": ["nginx:1.11", "nginx@sha256:abc"], "sizeBytes": 181000000}],
    },
}

BINDING = {
    "apiVersion": "v1",
    "kind": "Binding",
    "metadata": {"name": "web-1", "namespace": "default", "uid": "uid-web-1"},
    "target": {"kind": "Node", "name": "node-1", "apiVersion": "v1"},
}

EVENT = {
    "apiVersion": "v1",
    "kind": "Event",
    "metadata": {"name": "web-1.14b", "namespace": "default"},
    "involvedObject": {
        "kind": "Pod",
        "namespace": "default",
        "name": "web-1",
        "uid": "uid-web-1",
        "apiVersion": "v1",
        "resourceVersion": "42",
        "fieldPath": "spec.containers{nginx}",
    },
    "reason": "Scheduled",
    "message": "Successfully assigned web-1 to node-1",
    "source": {"component": "default-scheduler", "host": "master"},
    "firstTimestamp": "2017-04-03T00:00:06Z",
    "lastTimestamp": "2017-04-03T00:00:09Z",
    "count": 2,
    "type": "Normal",
}

ENDPOINTS = {
    "apiVersion": "v1",
    "kind": "Endpoints",
    "metadata": {
        "name": "kube-scheduler",
        "namespace": "kube-system",
        "annotations": {"control-plane.alpha.kubernetes.io/leader": '{"holderIdentity":"master"}'},
    },
    "subsets": [
        {
            "addresses": [
                {"ip": "172.16.0.5", "hostname": "web-1", "nodeName": "node-1", "targetRef": {"kind": "Pod", "name": "web-1"}}
            ],
            "notReadyAddresses": [{"ip": "172.16.0.6"}],
            "ports": [{"name": "http", "port": 80, "protocol": "TCP"}],
        }
    ],
}

SERVICE = {
    "apiVersion": "v1",
    "kind": "Service",
    "metadata": {"name": "web", "namespace": "default"},
    "spec": {
        "ports": [
            {"name": "http", "protocol": "TCP", "port": 80, "targetPort": 8080, "nodePort": 30080},
            {"name": "named", "protocol": "TCP", "port": 81, "targetPort": "http"},
        ],
        "selector": {"app": "web"},
        "clusterIP": "10.96.0.10",
        "type": "NodePort",
        "sessionAffinity": "None",
    },
}

TEMPLATE = {
    "metadata": {"labels": {"app": "web"}},
    "spec": {"containers": [{"name": "nginx", "image": "nginx", "resources": {"requests": {"cpu": "100m"}}}]},
}

RC = {
    "apiVersion": "v1",
    "kind": "ReplicationController",
    "metadata": {"name": "web", "namespace": "default"},
    "spec": {"replicas": 0, "minReadySeconds": 5, "selector": {"app": "web"}, "template": TEMPLATE},
    "status": {"replicas": 0, "readyReplicas": 1},
}

REPLICA_SET = {
    "apiVersion": "extensions/v1beta1",
    "kind": "ReplicaSet",
    "metadata": {"name": "web", "namespace": "default"},
    "spec": {
        "replicas": 3,
        "selector": {"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["db"]}]},
        "template": TEMPLATE,
    },
    "status": {"replicas": 3, "readyReplicas": 2, "availableReplicas": 2, "observedGeneration": 1},
}

STATEFUL_SET = {
    "apiVersion": "apps/v1beta1",
    "kind": "StatefulSet",
    "metadata": {"name": "db", "namespace": "default"},
    "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "db"}}, "template": TEMPLATE, "serviceName": "db"},
    "status": {"observedGeneration": 0, "replicas": 2},
}

DEPLOYMENT = {
    "apiVersion": "extensions/v1beta1",
    "kind": "Deployment",
    "metadata": {"name": "shop", "namespace": "default", "annotations": {"deployment.kubernetes.io/revision": "2"}},
    "spec": {
        "replicas": 3, "selector": {"matchLabels": {"app": "shop"}}, "template": TEMPLATE,
        "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": "25%"}},
        "minReadySeconds": 5, "revisionHistoryLimit": 2, "paused": True, "rollbackTo": {"revision": 1},
        "progressDeadlineSeconds": 600,
    },
    "status": {
        "observedGeneration": 2, "replicas": 3, "updatedReplicas": 3, "readyReplicas": 3, "availableReplicas": 3,
        "conditions": [{"type": "Available", "status": "True", "lastUpdateTime": "2017-04-03T00:00:10Z",
                        "lastTransitionTime": "2017-04-03T00:00:10Z", "reason": "MinimumReplicasAvailable",
                        "message": "Deployment has minimum availability."}],
    },
}

DAEMON_SET = {
    "apiVersion": "extensions/v1beta1",
    "kind": "DaemonSet",
    "metadata": {"name": "agent", "namespace": "kube-system"},
    "spec": {"selector": {"matchLabels": {"app": "agent"}}, "template": TEMPLATE,
             "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}}, "templateGeneration": 3},
    "status": {"currentNumberScheduled": 2, "numberMisscheduled": 0, "desiredNumberScheduled": 2, "numberReady": 2,
               "observedGeneration": 3,
               "updatedNumberScheduled": 2, "numberAvailable": 2},
}

PV = {
    "apiVersion": "v1",
    "kind": "PersistentVolume",
    "metadata": {
        "name": "pv-1",
        "labels": {"failure-domain.beta.kubernetes.io/zone": "us-east-1a", "failure-domain.beta.kubernetes.io/region": "us-east-1"},
    },
    "spec": {
        "capacity": {"storage": "10Gi"},
        "gcePersistentDisk": {"pdName": "disk-1", "fsType": "ext4"},
        "accessModes": ["ReadWriteOnce"],
        "claimRef": {"kind": "PersistentVolumeClaim", "namespace": "default", "name": "data", "uid": "pvc-1"},
        "persistentVolumeReclaimPolicy": "Retain",
        "storageClassName": "standard",
    },
    "status": {"phase": "Bound"},
}

PV_EBS_AZURE = {
    "apiVersion": "v1",
    "kind": "PersistentVolume",
    "metadata": {"name": "pv-2"},
    "spec": {
        "capacity": {"storage": "1Gi"},
        "awsElasticBlockStore": {"volumeID": "vol-2"},
        "azureDisk": {"diskName": "d2", "diskURI": "https://x/d2.vhd"},
    },
}

PVC = {
    "apiVersion": "v1",
    "kind": "PersistentVolumeClaim",
    "metadata": {"name": "data", "namespace": "default"},
    "spec": {
        "accessModes": ["ReadWriteOnce"],
        "selector": {"matchLabels": {"tier": "gold"}},
        "resources": {"requests": {"storage": "5Gi"}},
        "volumeName": "pv-1",
        "storageClassName": "",
    },
    "status": {"phase": "Bound", "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "10Gi"}},
}

MANIFESTS = {
    "Pod": (v1.Pod, POD),
    "Node": (v1.Node, NODE),
    "Binding": (v1.Binding, BINDING),
    "Event": (v1.Event, EVENT),
    "Endpoints": (v1.Endpoints, ENDPOINTS),
    "Service": (v1.Service, SERVICE),
    "ReplicationController": (v1.ReplicationController, RC),
    "ReplicaSet": (v1.ReplicaSet, REPLICA_SET),
    "StatefulSet": (v1.StatefulSet, STATEFUL_SET),
    "Deployment": (v1.KINDS["Deployment"], DEPLOYMENT),
    "DaemonSet": (v1.KINDS["DaemonSet"], DAEMON_SET),
    "PersistentVolume": (v1.PersistentVolume, PV),
    "PersistentVolume-ebs-azure": (v1.PersistentVolume, PV_EBS_AZURE),
    "PersistentVolumeClaim": (v1.PersistentVolumeClaim, PVC),
}


@pytest.mark.parametrize("cls,manifest", list(MANIFESTS.values()), ids=list(MANIFESTS))
def test_round_trip_is_exact(cls, manifest):
    original = copy.deepcopy(manifest)
    obj = cls.from_dict(manifest)
    assert isinstance(obj, cls)
    assert obj.to_dict() == original
    assert manifest == original  # decoding does not touch its input
    assert cls.from_dict(obj.to_dict()) == obj


def test_every_kind_is_registered_and_round_tripped():
    assert {cls.kind for cls, _ in MANIFESTS.values()} == set(v1.KINDS)


@pytest.mark.parametrize(
    "cls,kind,api_version",
    [
        (v1.Pod, "Pod", "v1"),
        (v1.Node, "Node", "v1"),
        (v1.Binding, "Binding", "v1"),
        (v1.Event, "Event", "v1"),
        (v1.Endpoints, "Endpoints", "v1"),
        (v1.Service, "Service", "v1"),
        (v1.ReplicationController, "ReplicationController", "v1"),
        (v1.ReplicaSet, "ReplicaSet", "extensions/v1beta1"),
        (v1.StatefulSet, "StatefulSet", "apps/v1beta1"),
        (v1.PersistentVolume, "PersistentVolume", "v1"),
        (v1.PersistentVolumeClaim, "PersistentVolumeClaim", "v1"),
    ],
)
def test_kind_constants_and_empty_objects(cls, kind, api_version):
    assert cls.kind == kind
    assert cls.api_version == api_version
    obj = cls()
    assert obj.to_dict()["kind"] == kind
    assert obj.to_dict()["apiVersion"] == api_version
    assert cls.from_dict(obj.to_dict()) == obj


def test_decoded_values_have_python_types():
    pod = v1.Pod.from_dict(POD)
    assert pod.metadata.creation_timestamp == 5.0
    assert pod.metadata.deletion_timestamp == 3600.5
    assert pod.status.conditions[0].last_probe_time == -1.0
    assert pod.spec.containers[0].resources.requests["cpu"] == parse_quantity("500m")
    assert pod.spec.containers[0].resources.requests["cpu"].milli_value() == 500
    assert pod.spec.containers[0].ports[0].host_port == 8080
    assert pod.spec.volumes[2].rbd.ceph_monitors == ("10.0.0.1:6789", "10.0.0.2:6789")
    assert pod.spec.volumes[1].aws_elastic_block_store.volume_id == "vol-1"
    assert pod.spec.volumes[4].azure_disk.data_disk_uri == "https://x/d1.vhd"
    assert pod.spec.tolerations[2].toleration_seconds == 300
    assert pod.spec.termination_grace_period_seconds == 0
    assert pod.metadata.owner_references[0].controller is True
    term = pod.spec.affinity.pod_affinity.required_during_scheduling_ignored_during_execution[0]
    assert term.label_selector.match_labels == {"app": "db"}
    assert term.namespaces == ("default", "prod")
    assert isinstance(pod.spec.containers, tuple)
    svc = v1.Service.from_dict(SERVICE)
    assert svc.spec.ports[0].target_port == 8080
    assert svc.spec.ports[1].target_port == "http"


def test_defaults_and_evolve():
    pod = v1.Pod()
    assert pod.spec.containers == ()
    assert pod.metadata.labels == {}
    assert pod.spec.affinity is None
    assert pod.metadata.deletion_timestamp is None
    assert pod.to_dict() == {"apiVersion": "v1", "kind": "Pod"}
    assert v1.ContainerPort().protocol == "TCP"
    assert v1.Toleration().operator == ""
    assigned = attrs.evolve(pod, spec=attrs.evolve(pod.spec, node_name="node-1"))
    assert assigned.spec.node_name == "node-1" and pod.spec.node_name == ""
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        pod.spec = v1.PodSpec()  # type: ignore[misc]


def test_omitempty_and_go_fields_without_omitempty():
    port = v1.ContainerPort(container_port=0, protocol="")
    assert port.to_dict() == {"containerPort": 0}
    cond = v1.PodCondition()
    assert cond.to_dict() == {"type": "", "status": ""}
    # Optional fields are written when set, even to a zero value.
    assert v1.Volume(name="x", empty_dir=v1.EmptyDirVolumeSource()).to_dict() == {"name": "x", "emptyDir": {}}
    assert v1.ReplicationControllerSpec(replicas=0).to_dict() == {"replicas": 0}
    assert v1.OwnerReference(controller=False).to_dict() == {
        "apiVersion": "", "kind": "", "name": "", "uid": "", "controller": False,
    }


def test_unknown_keys_are_ignored_and_not_preserved():
    manifest = {
        "kind": "Pod",
        "metadata": {"name": "p", "clusterName": "x"},
        "spec": {"containers": [{"name": "c", "env": [{"name": "A", "value": "1"}]}], "futureField": True},
    }
    pod = v1.Pod.from_dict(manifest)
    assert pod.to_dict() == {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}]}}


def test_null_means_absent():
    pod = v1.Pod.from_dict({"kind": "Pod", "metadata": {"name": "p", "labels": None, "creationTimestamp": None}, "spec": None})
    assert pod.metadata.labels == {}
    assert pod.metadata.creation_timestamp is None
    assert pod.spec == v1.PodSpec()


def test_numbers_are_accepted_as_quantities():
    node = v1.Node.from_dict({"kind": "Node", "status": {"capacity": {"cpu": 2, "pods": 110, "memory": "1Gi"}}})
    assert node.status.capacity["cpu"].milli_value() == 2000
    assert node.status.capacity["pods"].value() == 110
    assert node.to_dict()["status"]["capacity"] == {"cpu": "2", "pods": "110", "memory": "1Gi"}


def test_label_selector_fields_missing_in_manifest_get_go_zero_values():
    rs = v1.ReplicaSet.from_dict({"kind": "ReplicaSet", "spec": {"selector": {"matchExpressions": [{"operator": "Exists"}]}}})
    req = rs.spec.selector.match_expressions[0]
    assert (req.key, req.operator, req.values) == ("", "Exists", ())

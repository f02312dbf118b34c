"""Write the sample cluster dump shipped for `Simulation.from_manifests` (deterministic).

    python tools/make_sample_dump.py kschedlearn/scenarios/data/dumps/sample-cluster.yaml

A made-up but realistic modern cluster, shaped as `kubectl get nodes,pods,services,rc,rs,
statefulsets,pv,pvc,deployments,daemonsets -A -o yaml` prints it (a `v1 List`): 12 nodes in 3
zones (one a tainted control-plane node), three Deployments with their ReplicaSets and pods, a
StatefulSet with PVCs and PVs, a DaemonSet, Services, and a scale-up whose new pods are pending.
Modern fields (managedFields, containerStatuses, topologySpreadConstraints, ...) are included on
purpose, so the importer's "unknown to 1.6" summary has something to say.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

import yaml

ZONES = ("eu-west-1a", "eu-west-1b", "eu-west-1c")
STAMP = "2026-11-20T09:00:00Z"


def uid(*parts: str) -> str:
    h = hashlib.sha256("/".join(parts).encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def managed(manager: str) -> list[dict[str, Any]]:
    return [{"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {}}, "manager": manager,
             "operation": "Update", "time": STAMP}]


def node(i: int) -> dict[str, Any]:
    zone = ZONES[i % 3]
    name = f"ip-10-0-{i // 3}-{10 + i}.eu-west-1.compute.internal"
    control = i == 0
    cpu, mem = ("2", "7935Mi") if control else ("4", "15977Mi") if i % 2 else ("8", "31896Mi")
    labels = {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
              "topology.kubernetes.io/zone": zone, "topology.kubernetes.io/region": "eu-west-1",
              "node.kubernetes.io/instance-type": "m5.large" if control else ("m5.xlarge" if i % 2 else "m5.2xlarge")}
    if i % 4 != 3:  # most nodes still carry the deprecated beta label 1.6 reads
        labels["failure-domain.beta.kubernetes.io/zone"] = zone
    if control:
        labels["node-role.kubernetes.io/control-plane"] = ""
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "uid": uid("node", name), "resourceVersion": str(1000 + i),
                     "creationTimestamp": STAMP, "labels": labels,
                     "annotations": {"node.alpha.kubernetes.io/ttl": "0", "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
                     "managedFields": managed("kubelet")},
        "spec": {"providerID": f"aws:///{zone}/i-0{i:015x}", "podCIDR": f"10.244.{i}.0/24",
                 **({"taints": [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]} if control else {})},
        "status": {
            "capacity": {"cpu": cpu, "memory": mem, "pods": "110", "ephemeral-storage": "83873772Ki"},
            "allocatable": {"cpu": cpu, "memory": mem, "pods": "110", "ephemeral-storage": "77298068228"},
            "conditions": [
                {"type": "MemoryPressure", "status": "False", "reason": "KubeletHasSufficientMemory", "lastHeartbeatTime": STAMP, "lastTransitionTime": STAMP},
                {"type": "DiskPressure", "status": "False", "reason": "KubeletHasNoDiskPressure", "lastHeartbeatTime": STAMP, "lastTransitionTime": STAMP},
                {"type": "PIDPressure", "status": "False", "reason": "KubeletHasSufficientPID", "lastHeartbeatTime": STAMP, "lastTransitionTime": STAMP},
                {"type": "Ready", "status": "True", "reason": "KubeletReady", "lastHeartbeatTime": STAMP, "lastTransitionTime": STAMP},
            ],
            "addresses": [{"type": "InternalIP", "address": f"10.0.{i // 3}.{10 + i}"}, {"type": "Hostname", "address": name}],
            "nodeInfo": {"kubeletVersion": "v1.31.2", "containerRuntimeVersion": "containerd://1.7.22", "osImage": "Amazon Linux 2023",
                         "kernelVersion": "6.1.112", "architecture": "amd64", "operatingSystem": "linux"},
            "images": [{"names": ["registry.k8s.io/pause@sha256:ee6521f", "registry.k8s.io/pause:3.9"], "sizeBytes": 321520},
                       *([{"names": ["nginx:1.27"], "sizeBytes": 72000000}] if i % 3 == 1 else [])],
        },
    }


def pod(ns: str, name: str, app: str, owner: tuple[str, str] | None, node_name: str, cpu: str, mem: str, *,
        image: str = "nginx:1.27", extra_spec: dict[str, Any] | None = None, port: int | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "namespace": ns, "uid": uid("pod", ns, name), "resourceVersion": "2000",
                            "creationTimestamp": STAMP, "labels": {"app": app, "pod-template-hash": "7d9c8b5f4"},
                            "managedFields": managed("kube-controller-manager")}
    if owner:
        meta["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": owner[0], "name": owner[1], "uid": uid(owner[0], ns, owner[1]),
                                    "controller": True, "blockOwnerDeletion": True}]
    container: dict[str, Any] = {"name": app, "image": image, "imagePullPolicy": "IfNotPresent",
                                 "resources": {"requests": {"cpu": cpu, "memory": mem}, "limits": {"memory": mem}},
                                 "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
                                 "livenessProbe": {"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 10},
                                 "securityContext": {"allowPrivilegeEscalation": False}}
    if port:
        container["ports"] = [{"containerPort": port, "protocol": "TCP"}]
    spec: dict[str, Any] = {"containers": [container], "restartPolicy": "Always", "terminationGracePeriodSeconds": 30,
                            "dnsPolicy": "ClusterFirst", "serviceAccountName": "default", "schedulerName": "default-scheduler",
                            "enableServiceLinks": True, "preemptionPolicy": "PreemptLowerPriority", "priority": 0,
                            "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}],
                            **(extra_spec or {})}
    status: dict[str, Any]
    if node_name:
        spec["nodeName"] = node_name
        status = {"phase": "Running", "hostIP": "10.0.0.1", "podIP": "10.244.0.10", "qosClass": "Burstable", "startTime": STAMP,
                  "conditions": [{"type": t, "status": "True", "lastTransitionTime": STAMP}
                                 for t in ("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled")],
                  "containerStatuses": [{"name": app, "ready": True, "restartCount": 0, "image": image, "imageID": "", "started": True,
                                         "state": {"running": {"startedAt": STAMP}}}]}
    else:
        status = {"phase": "Pending", "qosClass": "Burstable",
                  "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "lastTransitionTime": STAMP,
                                  "message": "0/12 nodes are available: 12 Insufficient cpu."}]}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


def owner_obj(kind: str, api: str, ns: str, name: str, app: str, replicas: int, **extra: Any) -> dict[str, Any]:
    return {"apiVersion": api, "kind": kind,
            "metadata": {"name": name, "namespace": ns, "uid": uid(kind, ns, name), "resourceVersion": "1500",
                         "creationTimestamp": STAMP, "labels": {"app": app}, "generation": 3, "managedFields": managed("kubectl")},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": app}},
                     "template": {"metadata": {"labels": {"app": app}}, "spec": {"containers": [{"name": app, "image": "nginx:1.27"}]}}, **extra},
            "status": {"replicas": replicas, "readyReplicas": replicas, "observedGeneration": 3}}


def service(ns: str, name: str, app: str, port: int) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": name, "namespace": ns, "uid": uid("svc", ns, name), "resourceVersion": "1200", "creationTimestamp": STAMP},
            "spec": {"selector": {"app": app}, "ports": [{"port": port, "targetPort": port, "protocol": "TCP"}], "type": "ClusterIP",
                     "clusterIP": f"172.20.{port % 250}.{len(name)}", "clusterIPs": [f"172.20.{port % 250}.{len(name)}"],
                     "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack", "internalTrafficPolicy": "Cluster"},
            "status": {"loadBalancer": {}}}


def build() -> dict[str, Any]:
    nodes = [node(i) for i in range(12)]
    workers = [n["metadata"]["name"] for n in nodes[1:]]
    items: list[dict[str, Any]] = list(nodes)
    pods: list[dict[str, Any]] = []
    # a DaemonSet: one log agent on every node, the control plane included (it tolerates the taint)
    items.append({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "fluent-bit", "namespace": "kube-system",
                  "uid": uid("ds", "fluent-bit"), "creationTimestamp": STAMP}, "spec": {"selector": {"matchLabels": {"app": "fluent-bit"}}}})
    for n in nodes:
        name = n["metadata"]["name"]
        pods.append(pod("kube-system", f"fluent-bit-{hashlib.sha256(name.encode()).hexdigest()[:5]}", "fluent-bit",
                        ("DaemonSet", "fluent-bit"), name, "50m", "64Mi", image="fluent/fluent-bit:3.1"))
    deployments = [("shop", "frontend", 8, "250m", "256Mi", 8080, 0), ("shop", "cart", 5, "500m", "512Mi", 7070, 3),
                   ("shop", "catalog", 6, "1", "1Gi", 3550, 4)]
    for ns, app, replicas, cpu, mem, port, pending in deployments:
        rs = f"{app}-7d9c8b5f4"
        items.append(owner_obj("Deployment", "apps/v1", ns, app, app, replicas + pending, strategy={"type": "RollingUpdate"}))
        items.append(owner_obj("ReplicaSet", "apps/v1", ns, rs, app, replicas + pending))
        items.append(service(ns, app, app, port))
        for r in range(replicas + pending):
            host = workers[(r * 3 + len(app)) % len(workers)] if r < replicas else ""
            pods.append(pod(ns, f"{rs}-{hashlib.sha256(f'{app}{r}'.encode()).hexdigest()[:5]}", app, ("ReplicaSet", rs), host,
                            cpu, mem, port=port))
    # a StatefulSet with one volume claim per replica, bound to zonal PVs
    items.append(owner_obj("StatefulSet", "apps/v1", "shop", "redis", "redis", 3, serviceName="redis"))
    items.append(service("shop", "redis", "redis", 6379))
    for r in range(3):
        claim, pv = f"data-redis-{r}", f"pvc-{uid('pv', str(r))}"
        items.append({"apiVersion": "v1", "kind": "PersistentVolume",
                      "metadata": {"name": pv, "uid": uid("pv", pv), "creationTimestamp": STAMP,
                                   "labels": {ZONE_LABEL: ZONES[r], "topology.kubernetes.io/zone": ZONES[r]}},
                      "spec": {"capacity": {"storage": "10Gi"}, "accessModes": ["ReadWriteOnce"], "storageClassName": "gp3",
                               "persistentVolumeReclaimPolicy": "Delete",
                               "awsElasticBlockStore": {"volumeID": f"aws://{ZONES[r]}/vol-0{r}abc", "fsType": "ext4"},
                               "claimRef": {"kind": "PersistentVolumeClaim", "namespace": "shop", "name": claim}},
                      "status": {"phase": "Bound"}})
        items.append({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                      "metadata": {"name": claim, "namespace": "shop", "uid": uid("pvc", claim), "creationTimestamp": STAMP},
                      "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}},
                               "storageClassName": "gp3", "volumeName": pv, "volumeMode": "Filesystem"},
                      "status": {"phase": "Bound", "capacity": {"storage": "10Gi"}}})
        host = workers[(r + 2) % 3 + 3]  # a worker in zone r (worker k is node k+1)
        pods.append(pod("shop", f"redis-{r}", "redis", ("StatefulSet", "redis"), host if r < 2 else "", "500m", "1Gi",
                        image="redis:7.4", port=6379,
                        extra_spec={"volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": claim}}],
                                    "hostname": f"redis-{r}", "subdomain": "redis"}))
    # two pending pods with constraints a learner will want to see explained
    pods.append(pod("shop", "report-job", "report", None, "", "2", "4Gi",
                    extra_spec={"nodeSelector": {"node.kubernetes.io/instance-type": "m5.2xlarge"},
                                "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                                                               "whenUnsatisfiable": "DoNotSchedule",
                                                               "labelSelector": {"matchLabels": {"app": "report"}}}]}))
    pods.append(pod("shop", "canary", "frontend", None, "", "250m", "256Mi", port=8080,
                    extra_spec={"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                        {"labelSelector": {"matchLabels": {"app": "frontend"}}, "topologyKey": "kubernetes.io/hostname"}]}}}))
    items.extend(pods)
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items}


ZONE_LABEL = "failure-domain.beta.kubernetes.io/zone"


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[1])
    out.parent.mkdir(parents=True, exist_ok=True)
    header = "# A made-up modern cluster, as `kubectl get ... -A -o yaml` prints it (tools/make_sample_dump.py).\n"
    out.write_text(header + yaml.safe_dump(build(), sort_keys=False, width=120), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Real captures of real clusters, replayed on the 1.6 scheduler (``kschedlearn/scenarios/data/dumps/real``).

Go: none — kschedlearn-only. The dumps were written by others (support bundles, sonobuoy results,
an OpenShift insights archive, tool fixtures; sources, commits and licences in the README beside
them). Each one must load, with its import report asserted, and run; and for (at least) two pending
pods per dump, the placement the simulated 1.6 scheduler makes is checked against a calculation by
hand from 1.6's rules, written next to the assertion. Captures with no pending pod get pending pods
by *unbinding* some in the test (``spec.nodeName`` removed, ``status`` cleared; said at each test).

Rules used in the hand calculations (``../shared/spec/k8s-1.6.1-facts.md`` §7-§8):

- PodFitsResources counts the *requests* of the node's non-terminated pods (regular containers)
  and fails on ``allocatable < requested + pod``; a pod with no cpu/memory request only needs a
  free pod slot.
- LeastRequestedPriority = ``((alloc - nz) * 10 // alloc)`` for cpu and memory, averaged with ``//``,
  where ``nz`` are the *non-zero* requests (a container without a cpu request counts 100m, without
  a memory request 200Mi) of the node's pods plus the pod; 0 once ``nz > alloc``.
  BalancedResourceAllocation = ``int(10 - |cpu fraction - memory fraction| * 10)``, 0 if a fraction
  reaches 1. SelectorSpread gives 10 everywhere when no Service/RC/RS/StatefulSet selects the pod
  (these dumps hold only nodes and pods), NodePreferAvoidPods 10 (×10000), TaintToleration 10.
- selectHost sorts by score, ties by host name *descending*, and picks ``lastNodeIndex % ties``;
  the counter starts at 0 and grows with every pod placed.
- 1.6's scheduler does not wait for its informers to sync: the first pod it pops at start finds no
  nodes ("no nodes available to schedule pods"), and its PodScheduled=False update, coming back
  as MODIFIED, puts it at the end of the queue. The queue is filled from the API server's list,
  in namespace/name order (Go's ``FIFO.Replace`` uses a map's random order; kschedlearn keeps the
  list's), so with two pending pods the one *later* in namespace/name order is placed first
  (``lastNodeIndex`` 0) and the earlier one second (``lastNodeIndex`` 1).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.apiserver.rest.tables import table
from kschedlearn.scenarios.cluster_dump import load_cluster_dump
from kschedlearn.scenarios.dump_report import NOT_IN_1_6, NOT_MODELLED, SCHEDULING
from kschedlearn.viz.decision import Decision

REAL = Path(__file__).resolve().parents[2] / "kschedlearn" / "scenarios" / "data" / "dumps" / "real"
MATCH_FIELDS = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[].matchFields"

#: dump -> (nodes, bound pods, pending pods, skipped items, fields the report must name: {(part, kind, field): count})
EXPECTED: dict[str, tuple[int, int, int, int, dict[tuple[str, str, str], int]]] = {
    "k3s-v1.33": (1, 11, 2, 0, {(SCHEDULING, "Pod", "spec.topologySpreadConstraints"): 1,
                                (SCHEDULING, "Pod", "spec.priorityClassName"): 5,
                                (NOT_IN_1_6, "Pod", MATCH_FIELDS): 1,
                                (NOT_IN_1_6, "Node", "status.allocatable[ephemeral-storage]"): 1,
                                (NOT_MODELLED, "Pod", "spec.containers[].env"): 6,
                                (NOT_MODELLED, "Node", "status.daemonEndpoints"): 1}),
    "openshift-4.7": (2, 30, 1, 0, {(SCHEDULING, "Pod", "spec.priority"): 30,
                                    (NOT_IN_1_6, "Pod", "status.podIPs"): 30,
                                    (NOT_MODELLED, "Pod", "status.initContainerStatuses"): 3,
                                    (NOT_MODELLED, "Pod", "spec.volumes[].secret"): 28}),
    "kind-v1.21": (1, 21, 1, 0, {(SCHEDULING, "Pod", "spec.containers[].resources.requests[ephemeral-storage]"): 1,
                                 (NOT_IN_1_6, "Pod", MATCH_FIELDS): 3,
                                 (NOT_IN_1_6, "Pod", "spec.containers[].startupProbe"): 4,
                                 (NOT_MODELLED, "Pod", "spec.containers[].livenessProbe"): 6}),
    "kind-v1.14": (1, 16, 0, 0, {(SCHEDULING, "Pod", "spec.priority"): 7, (NOT_IN_1_6, "Pod", MATCH_FIELDS): 6,
                                 (NOT_IN_1_6, "Pod", "spec.containers[].securityContext.procMount"): 5}),
    # 1.8 is close to 1.6: the only field 1.6 did not have is hostPath.type
    "aws-kubeadm-v1.8": (3, 19, 0, 0, {(NOT_IN_1_6, "Pod", "spec.volumes[].hostPath.type"): 7,
                                       (NOT_MODELLED, "Pod", "status.containerStatuses"): 19}),
    "aws-arm64-v1.21": (2, 11, 0, 0, {(SCHEDULING, "Node", "metadata.labels[topology.kubernetes.io/zone] without "
                                                         "failure-domain.beta.kubernetes.io/zone"): 2,
                                      (NOT_IN_1_6, "Pod", MATCH_FIELDS): 5,
                                      (NOT_IN_1_6, "Node", "status.allocatable[hugepages-32Mi]"): 2}),
    "minikube-v1.15": (1, 1, 0, 0, {(NOT_IN_1_6, "Pod", "spec.enableServiceLinks"): 1,
                                    (NOT_MODELLED, "Pod", "spec.volumes[].secret"): 1}),
    "node-fixtures-doks-microk8s-kurl": (7, 0, 0, 0, {(NOT_IN_1_6, "Node", "status.allocatable[nvidia.com/gpu]"): 1,
                                                      (NOT_MODELLED, "Node", "status.volumesInUse"): 1}),
}
#: what the report never calls "1.6 did not have": 1.6 had these fields (kschedlearn does not model them)
HAD_IN_1_6 = ("spec.containers[].env", "spec.containers[].livenessProbe", "spec.containers[].readinessProbe",
              "spec.containers[].volumeMounts", "spec.volumes[].secret", "spec.volumes[].configMap",
              "spec.serviceAccount", "status.containerStatuses", "status.nodeInfo", "status.daemonEndpoints")


def _text(name: str) -> str:
    return (REAL / f"{name}.json").read_text()


def unbound(name: str, *pods: str) -> str:
    """The dump with ``pods`` made pending: ``spec.nodeName`` removed and ``status`` cleared."""
    doc = json.loads(_text(name))
    found: list[str] = []

    def walk(obj: Any) -> None:
        if isinstance(obj, dict) and isinstance(obj.get("items"), list):
            for item in obj["items"]:
                walk(item)
        elif isinstance(obj, dict) and obj.get("metadata", {}).get("name") in pods:
            obj["spec"].pop("nodeName")
            obj["status"] = {}
            found.append(obj["metadata"]["name"])

    walk(doc)
    assert sorted(found) == sorted(pods)
    return json.dumps(doc)


def replay(text: str, seconds: float = 3.0) -> Simulation:
    sim = Simulation.from_manifests(text, seed=1, snapshots=False)
    sim.run_until(lambda e: e.time > seconds)
    assert sim.crashes == ()
    return sim


def last(sim: Simulation, pod: str) -> Decision:
    return sim.decision(pod)[-1]


def scores(attempt: Decision, node: str) -> dict[str, int]:
    j = attempt.scored_nodes.index(node)
    return {name: attempt.scores[i][j] for i, name in enumerate(attempt.names)}


def failed(attempt: Decision) -> dict[str, list[str]]:
    """node -> the reasons of its failing predicates (a FitError's content)."""
    return {v.node: [r for _, reasons in v.predicates for r in reasons] for v in attempt.verdicts if not v.fits}


# -- every dump: loads, its report asserted, runs, bound pods stay ------------------------------------------

@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_dump_loads_with_its_report_and_runs(name: str) -> None:
    nodes, bound, pending, skipped, fields = EXPECTED[name]
    scenario, report = load_cluster_dump(REAL / f"{name}.json")
    assert (report.nodes, report.bound_pods, report.pending_pods, len(report.skipped_items)) == (
        nodes, bound, pending, skipped)
    for (part, kind, field), count in fields.items():
        found = [f for f in report.part(part) if f.kind == kind and f.field == field]
        assert [f.count for f in found] == [count], (part, kind, field, found)
    not_in_1_6 = {f.field for f in report.not_in_1_6}
    assert not not_in_1_6 & set(HAD_IN_1_6), not_in_1_6 & set(HAD_IN_1_6)
    assert report.summary().startswith(f"{name}.json: {nodes} node")
    sim = replay((REAL / f"{name}.json").read_text())
    where = {f"{p.metadata.namespace}/{p.metadata.name}": p.spec.node_name for p in sim.world.api.storage.items("pods")}
    for obj in scenario.objects:
        if type(obj).kind == "Pod" and obj.spec.node_name:
            assert where[f"{obj.metadata.namespace or 'default'}/{obj.metadata.name}"] == obj.spec.node_name


def test_imported_nodes_show_their_own_kubelet_version_and_roles() -> None:
    rows = {}
    for name in ("k3s-v1.33", "openshift-4.7", "aws-kubeadm-v1.8"):
        scenario, _ = load_cluster_dump(REAL / f"{name}.json")
        nodes = [o for o in scenario.objects if type(o).kind == "Node"]
        rows.update({r["cells"][0]: r["cells"] for r in table("nodes", nodes, 0.0, "1")["rows"]})
    # NAME STATUS ROLES AGE VERSION INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME
    assert rows["c9b7eea91"][2:3] + rows["c9b7eea91"][4:5] == ["control-plane,master", "v1.33.4+k3s1"]
    master = rows["master-0.imeixner20210707.lab.upshift.rdu2.redhat.com"]
    assert (master[2], master[4]) == ("master", "v1.20.0+2817867")
    assert "Red Hat Enterprise Linux CoreOS" in master[7] and master[9].startswith("cri-o://")
    worker = rows["ip-10-0-9-16.us-west-2.compute.internal"]
    assert (worker[2], worker[4], worker[5]) == ("<none>", "v1.8.4", "10.0.9.16")


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="no kubectl binary on PATH (.ci/run installs it)")
def test_real_kubectl_shows_the_captured_versions_and_roles(tmp_path: Path) -> None:
    sim = Simulation.from_manifests(REAL / "openshift-4.7.json", seed=1, snapshots=False)
    serving = sim.serve(kubeconfig=tmp_path / "kubeconfig")
    try:
        out = serving.run_kubectl("get nodes")
    finally:
        serving.stop()
    rows = [line.split() for line in out.strip().splitlines()]
    assert rows[0] == ["NAME", "STATUS", "ROLES", "AGE", "VERSION"]
    assert [(r[0].split(".")[0], r[2], r[4]) for r in rows[1:]] == [
        ("master-0", "master", "v1.20.0+2817867"), ("worker-0", "worker", "v1.20.0+2817867")]


# -- k3s v1.33 (a real support bundle): the two pending pods stay pending, as in the captured cluster -------

def test_k3s_the_cpu_hogs_do_not_fit_in_1_6_either() -> None:
    sim = replay(_text("k3s-v1.33"))
    # The one node c9b7eea91 has 2000m allocatable. Its 9 non-terminated pods request 1300m
    # (backend-api 100 + cpu-intensive 800 + memory-hungry 2 × 100 + coredns 100 + metrics-server
    # 100; the two Succeeded helm-install pods do not count: 1.6's assigned-pod watch leaves them
    # out). A cpu-hog asks 800m: 1300 + 800 = 2100 > 2000 -> "Insufficient cpu", both times.
    for pod in ("default/cpu-intensive-app-7bcfc5d944-hw2vc", "default/cpu-intensive-app-7bcfc5d944-n79rt"):
        attempt = last(sim, pod)
        assert attempt.host == "" and failed(attempt) == {"c9b7eea91": ["Insufficient cpu"]}


def test_k3s_an_unbound_daemon_pod_is_pinned_back_as_1_6s_controller_would() -> None:
    # Unbound by the test: the svclb DaemonSet pod. Its matchFields term (metadata.name In
    # [c9b7eea91]) becomes spec.nodeName: 1.6's DaemonSet controller placed its pods itself.
    scenario, report = load_cluster_dump(unbound("k3s-v1.33", "svclb-traefik-9ce4920b-v8m6k"))
    pod = next(o for o in scenario.objects if o.metadata.name == "svclb-traefik-9ce4920b-v8m6k")
    assert pod.spec.node_name == "c9b7eea91" and (report.bound_pods, report.pending_pods) == (11, 2)
    assert [f.action for f in report.changes_scheduling if f.field == MATCH_FIELDS] == [
        "replaced by spec.nodeName (as 1.6's DaemonSet controller set it)"]


# -- OpenShift 4.7 (an insights archive): the pending router, and an operator unbound ------------------------

def test_openshift_the_router_goes_to_the_worker_whose_ports_the_capture_shows_free() -> None:
    # Unbound by the test: etcd-operator (on master-0).
    sim = replay(unbound("openshift-4.7", "etcd-operator-78bb597755-r6lgn"))
    master, worker = ("master-0.imeixner20210707.lab.upshift.rdu2.redhat.com",
                      "worker-0.imeixner20210707.lab.upshift.rdu2.redhat.com")
    # router-default (pending in the capture): nodeSelector node-role.kubernetes.io/worker="" and
    # kubernetes.io/os=linux; master-0 lacks the worker label (MatchNodeSelector) and carries the
    # master NoSchedule taint the router does not tolerate. worker-0 has both labels, no taint, and
    # host ports 80/443/1936 free: the capture said "didn't have free ports" because of the other
    # router replica, which the archive does not hold. So 1.6 binds it to worker-0, the only fit.
    router = last(sim, "openshift-ingress/router-default-7bbdcfcf9b-7xdln")
    assert router.host == worker and failed(router) == {master: ["MatchNodeSelector", "PodToleratesNodeTaints"]}
    # worker-0's pods (two prometheus) request 152m and 2524971008 B; with the router (100m,
    # 256Mi = 268435456 B) nz = 252m / 2793406464 B of 3500m / 7170334720 B:
    # LeastRequested = ((3248*10)//3500 + (4376928256*10)//7170334720) // 2 = (9 + 6) // 2 = 7;
    # Balanced = int(10 - |0.072 - 0.3896| * 10) = int(6.824) = 6.
    assert {k: scores(router, worker)[k] for k in ("LeastRequestedPriority", "BalancedResourceAllocation")} == {
        "LeastRequestedPriority": 7, "BalancedResourceAllocation": 6}
    # etcd-operator: nodeSelector node-role.kubernetes.io/master="" -> worker-0 fails
    # MatchNodeSelector; it tolerates the master taint, so master-0 is its only fit.
    operator = last(sim, "openshift-etcd-operator/etcd-operator-78bb597755-r6lgn")
    assert operator.host == master and failed(operator) == {worker: ["MatchNodeSelector"]}


# -- kind v1.21 (sonobuoy results): an unsatisfiable nodeSelector, and coredns unbound -----------------------

def test_kind_1_21_the_quota_test_pod_never_fits_and_coredns_does() -> None:
    sim = replay(unbound("kind-v1.21", "coredns-558bd4d5db-gv559"))
    # terminating-pod (pending in the capture, from the resourcequota e2e test) selects
    # x-test.k8s.io/unsatisfiable=not-schedulable, a label no node has: MatchNodeSelector fails.
    quota = last(sim, "resourcequota-9871/terminating-pod")
    assert quota.host == "" and failed(quota) == {"kind-control-plane": ["MatchNodeSelector"]}
    # coredns (unbound by the test) asks 100m / 70Mi; the node (8 CPUs) has no taint in this
    # capture: it fits and is the only node.
    assert last(sim, "kube-system/coredns-558bd4d5db-gv559").host == "kind-control-plane"


# -- kind v1.14 (sonobuoy's own test data): two pods unbound, one node ---------------------------------------

def test_kind_1_14_both_unbound_pods_return_to_the_only_node() -> None:
    sim = replay(unbound("kind-v1.14", "coredns-fb8b8dccf-kzlvs", "sonobuoy"))
    # kind-control-plane: 6000m allocatable, 12 non-terminated pods left requesting 750m (850m
    # minus the unbound coredns' 100m; sonobuoy asked nothing): coredns (100m) and sonobuoy both
    # fit, on the only node. heptio-sonobuoy/sonobuoy comes first in namespace/name order, meets
    # the empty node list and is retried after coredns: lastNodeIndex 0 for coredns, 1 for it.
    first, second = last(sim, "heptio-sonobuoy/sonobuoy"), last(sim, "kube-system/coredns-fb8b8dccf-kzlvs")
    assert (first.host, second.host) == ("kind-control-plane", "kind-control-plane")
    assert (second.last_node_index, first.last_node_index) == (0, 1)


# -- AWS kubeadm v1.8 (sonobuoy 0.10 results, 3 nodes): a real choice between nodes --------------------------

def test_aws_1_8_dashboard_and_kube_dns_by_hand() -> None:
    # Unbound by the test: kube-dns (on ip-10-0-26-239) and kubernetes-dashboard (on the master).
    sim = replay(unbound("aws-kubeadm-v1.8", "kube-dns-545bc4bfd4-t4lzx", "kubernetes-dashboard-796487df76-d6ds7"))
    a, b, m = ("ip-10-0-26-239.us-west-2.compute.internal", "ip-10-0-9-16.us-west-2.compute.internal",
               "ip-10-0-9-206.us-west-2.compute.internal")
    # Each node: 1000m cpu, 3840593920 B memory allocatable. kube-dns is popped first, finds no
    # nodes and queues again behind the dashboard, which is placed first.
    # Dashboard: no requests (nz 100m / 200Mi); it tolerates the master taint, so all three fit.
    #   a: nz 650m / 1000Mi (calico-node 250+100, kube-proxy 100, systemd-logs 2x100; 5 x 200Mi)
    #      LR = ((1000-750)*10//1000 + (3840593920-1258291200)*10//3840593920)//2 = (2+6)//2 = 4
    #      Balanced = int(10 - |0.75 - 0.32763|*10) = int(5.776) = 5            -> 9
    #   b: nz 750m / 1200Mi (calico-node 350, kube-proxy 100, sonobuoy 100, systemd-logs 200)
    #      LR = ((150*10)//1000 + (2372587520*10)//3840593920)//2 = (1+6)//2 = 3
    #      Balanced = int(10 - |0.85 - 0.38223|*10) = 5                         -> 8
    #   m: nz 1500m > 1000m with the pod: LR cpu 0, memory 3 -> 1; Balanced 0   -> 1
    dashboard = last(sim, "kube-system/kubernetes-dashboard-796487df76-d6ds7")
    assert dashboard.host == a and dashboard.last_node_index == 0
    assert [(n, s["LeastRequestedPriority"], s["BalancedResourceAllocation"])
            for n in (a, b, m) for s in [scores(dashboard, n)]] == [(a, 4, 5), (b, 3, 5), (m, 1, 0)]
    # kube-dns: requests 260m / 110Mi. The master has 800m requested: 800 + 260 > 1000 -> Insufficient cpu.
    #   a (now with the dashboard): nz 750+260 = 1010m > 1000m -> LR cpu 0; memory
    #      (3840593920-1373634560)*10//3840593920 = 6 -> LR 3; cpu fraction >= 1 -> Balanced 0
    #   b: 750+260 = 1010m as well -> LR 3, Balanced 0.  A tie: sorted by name descending
    #      [ip-10-0-9-16, ip-10-0-26-239], lastNodeIndex 1 -> index 1 -> ip-10-0-26-239.
    dns = last(sim, "kube-system/kube-dns-545bc4bfd4-t4lzx")
    assert failed(dns) == {m: ["Insufficient cpu"]} and dns.ties == 2
    assert [h for h, _ in dns.ranked] == [b, a] and dns.last_node_index == 1 and dns.host == a
    # The captured cluster had the dashboard on the master; 1.6's spreading puts it on a worker.


# -- AWS arm64 v1.21 (honeycomb agent fixtures): a taint added after the pods ---------------------------------

def test_aws_arm64_pods_that_do_not_tolerate_the_hound_taint_fit_nowhere() -> None:
    # Unbound by the test: kuard and grafana (both on duckboat-01 in the capture).
    sim = replay(unbound("aws-arm64-v1.21", "kuard-6b65d9d8b5-44bbs", "grafana-7db5dff8ff-vwrnf"))
    # Both nodes carry type=hound:NoSchedule. kuard and grafana tolerate only the not-ready and
    # unreachable NoExecute taints, so PodToleratesNodeTaints fails on both nodes: once unbound,
    # 1.6 cannot put them back (NoSchedule does not evict, which is how they ran there).
    for pod in ("default/kuard-6b65d9d8b5-44bbs", "olly/grafana-7db5dff8ff-vwrnf"):
        attempt = last(sim, pod)
        assert attempt.host == "" and failed(attempt) == {
            "duckboat-01": ["PodToleratesNodeTaints"], "duckboat-02": ["PodToleratesNodeTaints"]}


# -- minikube v1.15 (k9s fixtures): the capture holds one pod ------------------------------------------------

def test_minikube_the_one_pod_returns_by_hand() -> None:
    # Unbound by the test: default/nginx, the only pod of the capture (so only one pending pod here).
    sim = replay(unbound("minikube-v1.15", "nginx"))
    # minikube: 4000m / 8256671744 B allocatable, empty once nginx is unbound; nginx asks 100m / 70Mi.
    # LR = ((3900*10)//4000 + ((8256671744-73400320)*10)//8256671744)//2 = (9+9)//2 = 9
    # Balanced = int(10 - |0.025 - 0.00889|*10) = int(9.839) = 9
    attempt = last(sim, "default/nginx")
    assert attempt.host == "minikube"
    assert {k: scores(attempt, "minikube")[k] for k in ("LeastRequestedPriority", "BalancedResourceAllocation")} == {
        "LeastRequestedPriority": 9, "BalancedResourceAllocation": 9}


# -- troubleshoot's node fixtures (DigitalOcean 1.19, microk8s 1.16, kURL 1.29 with a GPU): no pods in the
#    capture, so the test adds two of its own -----------------------------------------------------------------

def test_node_fixtures_a_gpu_pod_lands_on_a_node_without_gpu() -> None:
    doc = json.loads(_text("node-fixtures-doks-microk8s-kurl"))
    doc["items"].append({"apiVersion": "v1", "kind": "PodList", "items": [  # the test's own pods
        {"metadata": {"name": "gpu-job"}, "spec": {"containers": [{"name": "cuda", "resources": {
            "requests": {"cpu": "500m", "memory": "1Gi", "nvidia.com/gpu": "1"}, "limits": {"nvidia.com/gpu": "1"}}}]}},
        {"metadata": {"name": "pool-web"}, "spec": {"nodeSelector": {"doks.digitalocean.com/node-pool": "pool-yd23sqk7u"},
                                                    "containers": [{"name": "web", "resources": {"requests": {
                                                        "cpu": "250m", "memory": "256Mi"}}}]}}]})
    sim = replay(json.dumps(doc))
    # pool-web (placed first: gpu-job meets the empty node list): only the three pool-yd23sqk7u
    # nodes match its nodeSelector; they are identical and empty, so they tie. Sorted by name
    # descending: 3i7v3, 3i7it, 3i7i7; lastNodeIndex 0 -> pool-yd23sqk7u-3i7v3.
    web = last(sim, "default/pool-web")
    assert web.ties == 3 and web.last_node_index == 0 and web.host == "pool-yd23sqk7u-3i7v3"
    # gpu-job: 1.6 does not check nvidia.com/gpu, so every node fits (each has >= 1000m and
    # >= 1Gi). By hand (500m, 1Gi = 1073741824 B):
    #   repldev-marc 8000m/31509098496 B: LR (9+9)//2 = 9, Balanced int(10-|0.0625-0.0341|*10) = 9 -> 18
    #   biggernode   8000m/30641487872 B: LR 9, Balanced int(10-|0.0625-0.0350|*10) = 9         -> 18
    #   pool nodes   2000m/3261071360 B: LR (7+6)//2 = 6 (5 on 3i7v3, which holds pool-web), Balanced 9
    #   smallnode    1000m/1650458624 B: LR (5+3)//2 = 4, Balanced int(10-|0.5-0.6506|*10) = 8   -> 12
    #   ip-172-31-21-92 (the node with the GPU) 1000m/16450314240 B: LR (5+9)//2 = 7, Balanced 5 -> 12
    # repldev-marc and biggernode-3i745 tie; by name descending [repldev-marc, biggernode-3i745];
    # lastNodeIndex 1 -> biggernode-3i745. The one node with a GPU scores lowest but one.
    gpu = last(sim, "default/gpu-job")
    assert [h for h, _ in gpu.ranked[:2]] == ["repldev-marc", "biggernode-3i745"] and gpu.ties == 2
    assert gpu.last_node_index == 1 and gpu.host == "biggernode-3i745"
    assert (scores(gpu, "ip-172-31-21-92")["LeastRequestedPriority"],
            scores(gpu, "ip-172-31-21-92")["BalancedResourceAllocation"]) == (7, 5)
    assert sim.import_report.find("Pod", "spec.containers[].resources.requests[nvidia.com/gpu]").action == \
        "kept, not checked by 1.6"

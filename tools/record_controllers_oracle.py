"""Record what the real 1.6 kube-controller-manager writes for an RC scaled 0 → 3 → 1 and a
Deployment rolled from one image to another (plus deletes and refused specs), as test data.

Go: none — a kschedlearn development tool; CI never runs it. It needs the oracle binaries built
as ``/work/shared/tools/k16-binaries/README.md`` describes (a real v1.6.1 kube-apiserver,
kube-controller-manager and kube-scheduler) and a running etcd + apiserver on plain HTTP, and
``tools/record_http.py`` (the recording proxy) from the project. It starts the scheduler and the
controller manager (the latter through the recording proxy, JSON content type), plays a stand-in
kubelet (a bound pod becomes Running and Ready; a pod whose grace period is over is deleted, as
kschedlearn's API server does), acts as the user, then writes
``tests/controller/data/oracle_controllers.json``: every write the controller manager sent
(method, path, status, the fields of its body that matter), in arrival order, per phase, and the
API server's answers to the refused specs.

Usage: ``python tools/record_controllers_oracle.py --bin /work/k16/bin --apiserver http://127.0.0.1:29080
--proxy-tool /path/to/record_http.py --out tests/controller/data/oracle_controllers.json``
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

NS = "/api/v1/namespaces/default"
EXT = "/apis/extensions/v1beta1/namespaces/default"
POD_SPEC = {"containers": [{"name": "web", "image": "nginx:1.0", "resources": {"requests": {"cpu": "100m"}}}]}


def call(base: str, method: str, path: str, body: Any = None, content_type: str = "application/json") -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def now_rfc3339() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Kubelet(threading.Thread):
    """Bound pods become Running + Ready; pods past their grace period are deleted; nodes beat."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True)
        self.base, self.stop = base, threading.Event()

    def run(self) -> None:
        last_beat = 0.0
        while not self.stop.is_set():
            if time.time() - last_beat > 5:
                for n in ("node-1", "node-2", "node-3"):
                    t = now_rfc3339()
                    call(self.base, "PATCH", f"/api/v1/nodes/{n}/status", {"status": {"conditions": [
                        {"type": "Ready", "status": "True", "reason": "KubeletReady", "lastHeartbeatTime": t,
                         "lastTransitionTime": t}]}}, "application/strategic-merge-patch+json")
                last_beat = time.time()
            _, pods = call(self.base, "GET", "/api/v1/pods")
            for p in (pods or {}).get("items", []):
                meta, spec, status = p["metadata"], p["spec"], p.get("status", {})
                if meta.get("deletionTimestamp"):
                    ts = datetime.datetime.strptime(meta["deletionTimestamp"], "%Y-%m-%dT%H:%M:%SZ").replace(
                        tzinfo=datetime.timezone.utc)
                    if datetime.datetime.now(datetime.timezone.utc) >= ts:
                        call(self.base, "DELETE", f"{NS}/pods/{meta['name']}", {"gracePeriodSeconds": 0})
                    continue
                if spec.get("nodeName") and status.get("phase") != "Running":
                    t = now_rfc3339()
                    p["status"] = {**status, "phase": "Running", "startTime": t, "conditions": [
                        {"type": "Initialized", "status": "True", "lastTransitionTime": t},
                        {"type": "Ready", "status": "True", "lastTransitionTime": t},
                        {"type": "PodScheduled", "status": "True", "lastTransitionTime": t}]}
                    call(self.base, "PUT", f"{NS}/pods/{meta['name']}/status", p)
            time.sleep(0.2)


def wait_until(pred: Any, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if pred():
            return
        time.sleep(0.3)
    raise TimeoutError("condition not reached")


def node(name: str) -> dict[str, Any]:
    alloc = {"cpu": "4", "memory": "8Gi", "pods": "110"}
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
            "status": {"capacity": alloc, "allocatable": alloc, "nodeInfo": {"kubeletVersion": "v1.6.1"},
                       "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]}}


def mark(marks: list[tuple[str, int]], index: Path, phase: str) -> None:
    n = len(index.read_text().splitlines()) if index.exists() else 0
    marks.append((phase, n))


def scenario(base: str, index: Path) -> tuple[list[tuple[str, int]], dict[str, Any]]:
    marks: list[tuple[str, int]] = []
    facts: dict[str, Any] = {}
    rc = {"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "web"},
          "spec": {"replicas": 0, "selector": {"app": "web"},
                   "template": {"metadata": {"labels": {"app": "web"}}, "spec": POD_SPEC}}}
    mark(marks, index, "rc-create-0")
    call(base, "POST", f"{NS}/replicationcontrollers", rc)
    time.sleep(3)

    def rc_status(n: int) -> bool:
        _, o = call(base, "GET", f"{NS}/replicationcontrollers/web")
        s = o.get("status", {})
        return s.get("replicas") == n and s.get("readyReplicas", 0) == n and s.get("availableReplicas", 0) == n

    mark(marks, index, "rc-scale-3")
    call(base, "PATCH", f"{NS}/replicationcontrollers/web", {"spec": {"replicas": 3}},
         "application/strategic-merge-patch+json")
    wait_until(lambda: rc_status(3))
    time.sleep(3)
    mark(marks, index, "rc-scale-1")
    call(base, "PATCH", f"{NS}/replicationcontrollers/web", {"spec": {"replicas": 1}},
         "application/strategic-merge-patch+json")
    wait_until(lambda: rc_status(1))
    time.sleep(3)

    dep = {"apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": "roll"},
           "spec": {"replicas": 3, "template": {"metadata": {"labels": {"app": "roll"}}, "spec": POD_SPEC}}}

    def dep_done(image: str) -> bool:
        _, o = call(base, "GET", f"{EXT}/deployments/roll")
        s, spec = o.get("status", {}), o.get("spec", {})
        return (spec["template"]["spec"]["containers"][0]["image"] == image
                and s.get("observedGeneration", 0) >= o["metadata"].get("generation", 0)
                and s.get("updatedReplicas") == 3 and s.get("replicas") == 3 and s.get("availableReplicas") == 3)

    mark(marks, index, "deployment-create")
    call(base, "POST", f"{EXT}/deployments", dep)
    wait_until(lambda: dep_done("nginx:1.0"))
    time.sleep(3)
    mark(marks, index, "deployment-roll")
    call(base, "PATCH", f"{EXT}/deployments/roll",
         {"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:2.0"}]}}}},
         "application/strategic-merge-patch+json")
    wait_until(lambda: dep_done("nginx:2.0"), 120)
    time.sleep(35)  # the old pods' grace period ends, the kubelet stand-in deletes them
    mark(marks, index, "deployment-delete-background")
    code, answer = call(base, "DELETE", f"{EXT}/deployments/roll", {"kind": "DeleteOptions", "apiVersion": "v1",
                                                                     "propagationPolicy": "Background"})
    facts["delete_deployment_background"] = {"code": code, "kind": (answer or {}).get("kind")}
    time.sleep(5)
    _, rss = call(base, "GET", f"{EXT}/replicasets")
    _, pods = call(base, "GET", f"{NS}/pods")
    facts["after_delete_deployment_background"] = {
        "replicasets": sorted(r["metadata"]["name"].split("-")[0] for r in rss["items"]),
        "pods": sorted((p["metadata"]["name"].split("-")[0], len(p["metadata"].get("ownerReferences", [])))
                       for p in pods["items"] if p["metadata"]["name"].startswith("roll"))}
    mark(marks, index, "rc-delete-default")
    code, answer = call(base, "DELETE", f"{NS}/replicationcontrollers/web")
    facts["delete_rc_default"] = {"code": code, "finalizers": ((answer or {}).get("metadata") or {}).get("finalizers"),
                                  "deletionTimestamp_set": bool(((answer or {}).get("metadata") or {})
                                                                .get("deletionTimestamp"))}
    time.sleep(5)
    code, _ = call(base, "GET", f"{NS}/replicationcontrollers/web")
    _, pods = call(base, "GET", f"{NS}/pods")
    facts["after_delete_rc_default"] = {"rc_get_code": code, "pods": sorted(
        (p["metadata"]["name"].split("-")[0], len(p["metadata"].get("ownerReferences", [])))
        for p in pods["items"] if p["metadata"]["name"].startswith("web"))}
    mark(marks, index, "end")
    return marks, facts


BAD_SPECS: dict[str, tuple[str, dict[str, Any]]] = {
    "rc-negative-replicas": (f"{NS}/replicationcontrollers", {
        "apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "bad"},
        "spec": {"replicas": -1, "selector": {"app": "bad"},
                 "template": {"metadata": {"labels": {"app": "bad"}}, "spec": POD_SPEC}}}),
    "rc-selector-mismatch": (f"{NS}/replicationcontrollers", {
        "apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "bad"},
        "spec": {"replicas": 1, "selector": {"app": "x"},
                 "template": {"metadata": {"labels": {"app": "y"}}, "spec": POD_SPEC}}}),
    "rs-negative-replicas": (f"{EXT}/replicasets", {
        "apiVersion": "extensions/v1beta1", "kind": "ReplicaSet", "metadata": {"name": "bad"},
        "spec": {"replicas": -2, "template": {"metadata": {"labels": {"app": "bad"}}, "spec": POD_SPEC}}}),
    "rs-selector-mismatch": (f"{EXT}/replicasets", {
        "apiVersion": "extensions/v1beta1", "kind": "ReplicaSet", "metadata": {"name": "bad"},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "x"}},
                 "template": {"metadata": {"labels": {"app": "y"}}, "spec": POD_SPEC}}}),
    "deployment-negative-replicas": (f"{EXT}/deployments", {
        "apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": "bad"},
        "spec": {"replicas": -1, "template": {"metadata": {"labels": {"app": "bad"}}, "spec": POD_SPEC}}}),
    "deployment-selector-mismatch": (f"{EXT}/deployments", {
        "apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": "bad"},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "x"}},
                 "template": {"metadata": {"labels": {"app": "y"}}, "spec": POD_SPEC}}}),
    "deployment-unknown-strategy": (f"{EXT}/deployments", {
        "apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": "bad"},
        "spec": {"replicas": 1, "strategy": {"type": "BlueGreen"},
                 "template": {"metadata": {"labels": {"app": "bad"}}, "spec": POD_SPEC}}}),
    "deployment-apps-negative-replicas": ("/apis/apps/v1beta1/namespaces/default/deployments", {
        "apiVersion": "apps/v1beta1", "kind": "Deployment", "metadata": {"name": "bad"},
        "spec": {"replicas": -1, "template": {"metadata": {"labels": {"app": "bad"}}, "spec": POD_SPEC}}}),
    "daemonset-selector-mismatch": (f"{EXT}/daemonsets", {
        "apiVersion": "extensions/v1beta1", "kind": "DaemonSet", "metadata": {"name": "bad"},
        "spec": {"selector": {"matchLabels": {"app": "x"}},
                 "template": {"metadata": {"labels": {"app": "y"}}, "spec": POD_SPEC}}}),
    "daemonset-unknown-update-strategy": (f"{EXT}/daemonsets", {
        "apiVersion": "extensions/v1beta1", "kind": "DaemonSet", "metadata": {"name": "bad"},
        "spec": {"updateStrategy": {"type": "Sometimes"},
                 "template": {"metadata": {"labels": {"app": "bad"}}, "spec": POD_SPEC}}}),
    "statefulset-negative-replicas": ("/apis/apps/v1beta1/namespaces/default/statefulsets", {
        "apiVersion": "apps/v1beta1", "kind": "StatefulSet", "metadata": {"name": "bad"},
        "spec": {"replicas": -1, "serviceName": "bad",
                 "template": {"metadata": {"labels": {"app": "bad"}}, "spec": POD_SPEC}}}),
    "deployment-scale-negative": (f"{EXT}/deployments/roll/scale", None),
}


def refusals(base: str) -> dict[str, Any]:
    out = {}
    for name, (path, body) in BAD_SPECS.items():
        if body is None:
            continue
        code, answer = call(base, "POST", path, body)
        out[name] = {"path": path, "body": body, "code": code, "reason": (answer or {}).get("reason"),
                     "message": (answer or {}).get("message")}
    return out


def writes(index: Path, out_dir: Path, marks: list[tuple[str, int]]) -> dict[str, list[dict[str, Any]]]:
    """The controller manager's non-GET requests per phase: method, path, status, body."""
    lines = [json.loads(x) for x in index.read_text().splitlines() if x.strip()]
    phases: dict[str, list[dict[str, Any]]] = {}
    bounds = [*marks[1:], ("", len(lines) + 10**9)]
    for (phase, start), (_, end) in zip(marks, bounds):
        if phase == "end":
            continue
        rows = []
        for entry in lines[start:end]:
            if entry["method"] == "GET":
                continue
            body = None
            if entry.get("request_body"):
                raw = (out_dir / entry["request_body"]).read_bytes()
                body = json.loads(raw) if raw.strip() else None
            rows.append({"method": entry["method"], "path": entry["target"].split("?")[0],
                         "status": entry["status"], "body": body})
        phases[phase] = rows
    return phases


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bin", type=Path, required=True)
    p.add_argument("--apiserver", default="http://127.0.0.1:29080")
    p.add_argument("--proxy-tool", type=Path, required=True)
    p.add_argument("--proxy-port", type=int, default=29081)
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="k16-controllers-"))
    base = args.apiserver
    procs = []
    try:
        procs.append(subprocess.Popen([sys.executable, str(args.proxy_tool), "--upstream", base, "--port",
                                       str(args.proxy_port), "--out", str(work / "rec")],
                                      stdout=open(work / "proxy.log", "w"), stderr=subprocess.STDOUT))
        for n in ("node-1", "node-2", "node-3"):
            call(base, "POST", "/api/v1/nodes", node(n))
        procs.append(subprocess.Popen([str(args.bin / "kube-scheduler"), f"--master={base}", "--leader-elect=false",
                                       "--kube-api-content-type=application/json", "--address=127.0.0.1",
                                       "--port=20261", "--v=2"], stdout=open(work / "sched.log", "w"),
                                      stderr=subprocess.STDOUT))
        kubelet = Kubelet(base)
        kubelet.start()
        time.sleep(2)
        procs.append(subprocess.Popen([str(args.bin / "kube-controller-manager"),
                                       f"--master=http://127.0.0.1:{args.proxy_port}", "--leader-elect=false",
                                       "--kube-api-content-type=application/json", "--address=127.0.0.1",
                                       "--port=20262", "--v=4"], stdout=open(work / "cm.log", "w"),
                                      stderr=subprocess.STDOUT))
        time.sleep(5)
        index = work / "rec" / "index.jsonl"
        marks, facts = scenario(base, index)
        refused = refusals(base)
        kubelet.stop.set()
        data = {"source": "real v1.6.1+coreos.0 kube-apiserver and kube-controller-manager "
                          "(tools/record_controllers_oracle.py)",
                "phases": writes(index, work / "rec", marks), "facts": facts, "refused": refused}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"wrote {args.out} (work files in {work})")
    finally:
        for proc in reversed(procs):
            proc.terminate()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

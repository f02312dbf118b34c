"""The real ``kubectl`` against ``kschedlearn serve three-nodes --speed 20``.

Go: none — kschedlearn-only. Skipped (with the reason) only where no kubectl binary exists;
``.ci/run`` installs Debian's ``kubernetes-client`` when kubectl is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="no kubectl binary on PATH (.ci/run installs kubernetes-client)")

def _client_minor() -> int:
    if KUBECTL is None:
        return 0
    out = subprocess.run([KUBECTL, "version", "--client", "-o", "json"], capture_output=True, text=True, timeout=30)
    try:
        return int(json.loads(out.stdout)["clientVersion"]["minor"].rstrip("+"))
    except (ValueError, KeyError):
        return 0


#: kubectl before 1.26 validates `apply` against OpenAPI v2 schemas, which kschedlearn does not
#: serve (it serves the v3 stubs that make newer kubectl validate on the server instead)
APPLY_FLAGS = ("--validate=false",) if 0 < _client_minor() < 26 else ()

POD = """apiVersion: v1
kind: Pod
metadata:
  name: api-1
  labels: {app: api}
spec:
  containers:
  - name: api
    image: nginx
    resources:
      requests: {cpu: 200m, memory: 128Mi}
"""


@pytest.fixture(scope="module")
def kubeconfig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    tmp = tmp_path_factory.mktemp("kubectl")
    path = tmp / "kubeconfig"
    exe = [sys.executable, "-m", "kschedlearn.cli"]
    proc = subprocess.Popen([*exe, "serve", "three-nodes", "--kubeconfig", str(path), "--speed", "20",
                             "--serve-for", "240"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert first.startswith("serving 'three-nodes' on https://127.0.0.1:"), first
    try:
        yield path
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def kubectl(kubeconfig: Path, *args: str, check: bool = True, timeout: float = 30) -> str:
    env = {**os.environ, "KUBECACHEDIR": str(kubeconfig.parent / "cache")}
    out = subprocess.run([KUBECTL or "kubectl", "--kubeconfig", str(kubeconfig), *args], capture_output=True,
                         text=True, timeout=timeout, env=env)
    if check:
        assert out.returncode == 0, out.stderr
    return out.stdout + out.stderr


def wait_for(kubeconfig: Path, jsonpath: str, *args: str, seconds: float = 20) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = kubectl(kubeconfig, *args, "-o", f"jsonpath={jsonpath}", check=False)
        if value and "error" not in value.lower() and "notfound" not in value.lower():
            return value
        time.sleep(0.3)
    raise AssertionError(f"kubectl {' '.join(args)} {jsonpath}: nothing within {seconds}s")


class Watch:
    """``kubectl --kubeconfig KUBECONFIG ARGS`` left running (a ``get -w``): its output lines are
    read as they come, so a test waits for the line it needs instead of sleeping; stopped on
    leaving the ``with`` block."""

    def __init__(self, kubeconfig: Path, *args: str) -> None:
        self._proc = subprocess.Popen([KUBECTL or "kubectl", "--kubeconfig", str(kubeconfig), *args],
                                      stdout=subprocess.PIPE, text=True)
        self._lines: list[str] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            with self._changed:
                self._lines.append(line)
                self._changed.notify_all()

    def wait_until(self, check: Callable[[list[list[str]]], bool], what: str, seconds: float = 20) -> None:
        """Until ``check`` holds for the lines so far (each split into its columns)."""
        with self._changed:
            if not self._changed.wait_for(lambda: check([line.split() for line in self._lines]), timeout=seconds):
                raise AssertionError(f"kubectl watch: no {what} within {seconds}s:\n{''.join(self._lines)}")

    def text(self) -> str:
        """Everything it printed (after it has stopped)."""
        return "".join(self._lines)

    def __enter__(self) -> Watch:
        return self

    def __exit__(self, *exc: object) -> None:
        self._proc.terminate()
        self._proc.wait(timeout=10)
        self._reader.join(timeout=10)


def test_get_nodes_and_pods(kubeconfig: Path) -> None:
    nodes = kubectl(kubeconfig, "get", "nodes")
    assert nodes.split("\n")[0].split() == ["NAME", "STATUS", "ROLES", "AGE", "VERSION"]
    assert [line.split()[0] for line in nodes.strip().split("\n")[1:]] == ["node-1", "node-2", "node-3"]
    wait_for(kubeconfig, "{.spec.nodeName}", "get", "pod", "web-1")
    wide = kubectl(kubeconfig, "get", "pods", "-o", "wide")
    row = next(line.split() for line in wide.split("\n") if line.startswith("web-1"))
    assert row[6] in ("node-1", "node-2", "node-3")  # the NODE column


def test_apply_is_scheduled_and_described_and_watched(kubeconfig: Path, tmp_path: Path) -> None:
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(POD)
    with Watch(kubeconfig, "get", "pods", "-w", "--output-watch-events", "-o", "wide") as watch:
        watch.wait_until(lambda rows: any(r[:2] == ["ADDED", "web-1"] for r in rows), "the watch's first list")
        assert "pod/api-1 created" in kubectl(kubeconfig, "apply", *APPLY_FLAGS, "-f", str(manifest))
        node = wait_for(kubeconfig, "{.spec.nodeName}", "get", "pod", "api-1")
        assert node in ("node-1", "node-2", "node-3")
        watch.wait_until(lambda rows: any(r[:2] == ["MODIFIED", "api-1"] and r[7:8] == [node] for r in rows),
                         "api-1 on its node in the watch")
    out = watch.text()
    lines = [line.split() for line in out.split("\n") if "api-1" in line]
    assert lines[0][0] == "ADDED" and lines[0][7] == "<none>"
    assert any(line[0] == "MODIFIED" and line[7] == node for line in lines), out
    described = kubectl(kubeconfig, "describe", "pod", "api-1")
    assert f"Successfully assigned api-1 to {node}" in described  # 1.6's Scheduled message
    events = kubectl(kubeconfig, "get", "events")
    assert "Scheduled" in events and "pod/api-1" in events
    assert "pod/api-1 unchanged" in kubectl(kubeconfig, "apply", *APPLY_FLAGS, "-f", str(manifest))


def test_cordon_steers_the_next_pod_and_delete_works(kubeconfig: Path, tmp_path: Path) -> None:
    for n in ("node-1", "node-2"):
        assert f"node/{n} cordoned" in kubectl(kubeconfig, "cordon", n)
    assert "Ready,SchedulingDisabled" in kubectl(kubeconfig, "get", "node", "node-1")
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(POD.replace("api-1", "api-2"))
    kubectl(kubeconfig, "apply", *APPLY_FLAGS, "-f", str(manifest))
    assert wait_for(kubeconfig, "{.spec.nodeName}", "get", "pod", "api-2") == "node-3"
    for n in ("node-1", "node-2"):
        assert f"node/{n} uncordoned" in kubectl(kubeconfig, "uncordon", n)
    assert 'pod "api-2" deleted' in kubectl(kubeconfig, "delete", "pod", "api-2", timeout=60)
    assert "NotFound" in kubectl(kubeconfig, "get", "pod", "api-2", check=False)


def test_errors_come_back_as_kubernetes_status(kubeconfig: Path) -> None:
    assert 'pods "nope" not found' in kubectl(kubeconfig, "get", "pod", "nope", check=False)
    raw = kubectl(kubeconfig, "get", "--raw", "/version")
    assert json.loads(raw)["gitVersion"] == "v1.6.1"


def test_get_pods_watch_starts_with_the_existing_pods(kubeconfig: Path) -> None:
    """``kubectl get pods -w`` shows every existing pod as ADDED first; and a watch without a
    resourceVersion (``--raw``) gets them from the server as 1.6's watch cache sends them."""
    with Watch(kubeconfig, "get", "pods", "-w", "--output-watch-events") as watch:
        watch.wait_until(lambda rows: {("ADDED", "db-0"), ("ADDED", "web-1")} <= {tuple(r[:2]) for r in rows},
                         "db-0 and web-1 as ADDED")
    out = watch.text()
    rows = [line.split()[:2] for line in out.split("\n")[1:] if line.strip()]
    assert ["ADDED", "db-0"] in rows and ["ADDED", "web-1"] in rows, out
    raw = kubectl(kubeconfig, "get", "--raw", "/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=1")
    events = [json.loads(line) for line in raw.splitlines() if line.strip()]
    names = [e["object"]["metadata"]["name"] for e in events if e["type"] == "ADDED"]
    assert {"db-0", "web-1"} <= set(names) and events[0]["type"] == "ADDED"
    assert all(e["object"]["metadata"]["selfLink"].startswith("/api/v1/namespaces/default/pods/") for e in events)


JOB = """apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
"""


def test_explain_and_a_later_group(kubeconfig: Path, tmp_path: Path) -> None:
    """``explain`` reads the schemas kschedlearn serves; a ``batch/v1`` Job is told where Kubernetes
    v1.6.1 kept Jobs (an ``apps/v1`` Deployment is served: the workloads extension)."""
    explained = kubectl(kubeconfig, "explain", "pods.spec.nodeName")
    assert "KIND:       Pod" in explained and "FIELD: nodeName <string>" in explained
    assert "nodeSelector\t<map[string]string>" in kubectl(kubeconfig, "explain", "pods.spec")
    manifest = tmp_path / "job.yaml"
    manifest.write_text(JOB)
    out = kubectl(kubeconfig, "apply", *APPLY_FLAGS, "-f", str(manifest), check=False)
    assert ("the server could not find the requested resource (in Kubernetes v1.6.1, jobs were served in "
            "batch/v1 and batch/v2alpha1; kschedlearn does not serve them)") in out, out


DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 2
  selector: {matchLabels: {app: api-d}}
  template:
    metadata: {labels: {app: api-d}}
    spec: {containers: [{name: nginx, image: nginx, resources: {requests: {cpu: 50m}}}]}
"""


def test_deployment_create_scale_roll_set_image_delete(kubeconfig: Path, tmp_path: Path) -> None:
    """The controller manager `serve` runs by default: kubectl's Deployment workflow end to end."""
    # kubectl 1.32's typed create sends an apps/v1 Deployment in protobuf
    out = kubectl(kubeconfig, "create", "deployment", "web", "--image=nginx", "--replicas=3", check=False)
    assert "deployment.apps/web created" in out, out
    assert "successfully rolled out" in kubectl(kubeconfig, "rollout", "status", "deployment/web", "--timeout=60s",
                                                timeout=70)
    rows = kubectl(kubeconfig, "get", "deployments").split("\n")
    assert rows[0].split() == ["NAME", "DESIRED", "CURRENT", "UP-TO-DATE", "AVAILABLE", "AGE"]  # kubectl 1.6's
    assert next(r.split() for r in rows if r.startswith("web"))[1:5] == ["3", "3", "3", "3"]
    assert "deployment.extensions/web scaled" in kubectl(kubeconfig, "scale", "deployment", "web", "--replicas=4")
    assert wait_for(kubeconfig, "{.status.availableReplicas}", "get", "deployment", "web") in ("3", "4")
    assert "image updated" in kubectl(kubeconfig, "set", "image", "deployment/web", "nginx=nginx:1.25")
    assert "successfully rolled out" in kubectl(kubeconfig, "rollout", "status", "deployment/web", "--timeout=60s",
                                                timeout=70)
    rs = kubectl(kubeconfig, "get", "rs", "-o", "jsonpath={range .items[*]}{.spec.replicas} {.spec.template.spec."
                 "containers[0].image}{'\\n'}{end}")
    assert sorted(line for line in rs.split("\n") if line) == ["0 nginx", "4 nginx:1.25"]
    (tmp_path / "api.yaml").write_text(DEPLOYMENT)
    assert "deployment.apps/api created" in kubectl(kubeconfig, "apply", *APPLY_FLAGS, "-f", str(tmp_path / "api.yaml"))
    assert 'deployment.extensions "web" deleted' in kubectl(kubeconfig, "delete", "deployment", "web", timeout=60)
    assert "NotFound" in kubectl(kubeconfig, "get", "deployment", "web", check=False)


def test_python_client_apps_v1(kubeconfig: Path) -> None:
    """The official Python client's AppsV1Api (the only apps API the installed client has: its
    ExtensionsV1beta1Api and AppsV1beta1Api were removed) against the apps/v1 extension."""
    kubernetes = pytest.importorskip("kubernetes")
    from kubernetes import client, config

    api_client = config.new_client_from_config(str(kubeconfig))
    apps = client.AppsV1Api(api_client)
    body = client.V1Deployment(
        metadata=client.V1ObjectMeta(name="pyclient"),
        spec=client.V1DeploymentSpec(
            replicas=1, selector=client.V1LabelSelector(match_labels={"app": "pyclient"}),
            template=client.V1PodTemplateSpec(metadata=client.V1ObjectMeta(labels={"app": "pyclient"}),
                                              spec=client.V1PodSpec(containers=[client.V1Container(
                                                  name="c", image="nginx")]))))
    created = apps.create_namespaced_deployment("default", body)
    assert created.api_version == "apps/v1" and created.spec.strategy.rolling_update.max_surge == "25%"
    scale = apps.patch_namespaced_deployment_scale("pyclient", "default", {"spec": {"replicas": 2}})
    assert scale.spec.replicas == 2
    assert apps.read_namespaced_deployment("pyclient", "default").spec.replicas == 2
    names = [d.metadata.name for d in apps.list_namespaced_deployment("default").items]
    assert "pyclient" in names
    apps.delete_namespaced_deployment("pyclient", "default")
    del kubernetes

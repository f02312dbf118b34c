"""The real ``kubectl`` writing to ``sim.serve()``: dry runs change nothing, 1.6's refusals, drain.

Go: none — kschedlearn-only. One served ``three-nodes`` simulation per module, in this process
(so the test can compare the API server's storage and the recorded history byte for byte);
kubectl runs as a subprocess while the test thread answers its requests and, where kubectl waits
for something to happen (drain), moves the virtual clock. Skipped (with the reason) only where
no kubectl binary exists.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from kschedlearn import Simulation
from kschedlearn.apiserver.rest.protobuf import MEDIA_TYPE as PROTOBUF

KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="no kubectl binary on PATH (.ci/run installs kubernetes-client)")

FORBIDDEN = ("spec: Forbidden: pod updates may not change fields other than `containers[*].image` or "
             "`spec.activeDeadlineSeconds` or `spec.tolerations` (only additions to existing tolerations)")
POD = """apiVersion: v1
kind: Pod
metadata:
  name: {name}
  labels: {{app: api}}
spec:
  containers:
  - name: api
    image: {image}
    resources:
      requests: {{cpu: {cpu}, memory: 128Mi}}
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Simulation, Any, Path]]:
    tmp = tmp_path_factory.mktemp("kubectl-writes")
    sim = Simulation.from_scenario("three-nodes", seed=1, snapshots=False)
    sim.scenario = attrs.evolve(sim.scenario, duration=600)  # drain waits for graceful deletions
    sim.run_until("cache.addPod", pod="default/web-1")  # web-1 bound on its node, db-0 on node-2
    serving = sim.serve(kubeconfig=tmp / "kubeconfig")
    try:
        yield sim, serving, tmp
    finally:
        serving.stop()


def kubectl(served: tuple[Simulation, Any, Path], *args: str, clock: float = 0.0,
            timeout: float = 90) -> subprocess.CompletedProcess[str]:
    """Run kubectl while this thread answers it; ``clock``: virtual seconds to run per turn."""
    sim, serving, tmp = served
    env = {**os.environ, "KUBECACHEDIR": str(tmp / "cache")}
    proc = subprocess.Popen([KUBECTL or "kubectl", "--kubeconfig", str(serving.kubeconfig), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + timeout
    while proc.poll() is None:
        assert time.monotonic() < deadline, f"kubectl {' '.join(args)} did not finish"
        if clock:
            sim.run_for(clock)
        serving.pump()
        time.sleep(0.005)
    out, err = proc.communicate()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def manifest(served: tuple[Simulation, Any, Path], name: str, image: str = "nginx", cpu: str = "200m") -> str:
    path = served[2] / f"{name}-{image.replace(':', '-')}-{cpu}.yaml"
    path.write_text(POD.format(name=name, image=image, cpu=cpu))
    return str(path)


def state(sim: Simulation) -> tuple[str, str]:
    """The API server's storage (every object, the resourceVersion counter, the event windows) and
    the recorded history, as text."""
    storage = sim.world.api.storage
    objects = {r: [o.to_dict() for o in storage.items(r)] for r in sorted(storage.objects)}
    windows = {r: [(e.rv, e.type) for e in h.entries] for r, h in sorted(storage.histories.items())}
    dump = json.dumps({"rv": storage.resource_version, "objects": objects, "windows": windows}, sort_keys=True)
    return dump, sim.export_json(with_snapshots=False)


def test_diff_and_server_dry_runs_leave_storage_and_history_byte_identical(served: Any) -> None:
    sim, _, _ = served
    assert kubectl(served, "apply", "-f", manifest(served, "api-1")).returncode == 0
    before = state(sim)
    # an image change (allowed by 1.6): diff shows it, from a dry-run PATCH
    diff = kubectl(served, "diff", "-f", manifest(served, "api-1", image="nginx:1.25"))
    assert diff.returncode == 1, diff.stderr
    assert "-  - image: nginx\n" in diff.stdout and "+  - image: nginx:1.25\n" in diff.stdout
    # a resources change: 1.6 refuses it, and so does the dry run, with 1.6's text
    refused = kubectl(served, "diff", "-f", manifest(served, "api-1", cpu="300m"))
    assert refused.returncode > 1 and f'The Pod "api-1" is invalid: {FORBIDDEN}' in refused.stderr
    for args, said in ((("delete", "pod", "api-1", "--dry-run=server"), 'pod "api-1" deleted (server dry run)'),
                       (("delete", "pod", "web-1", "--dry-run=server"), 'pod "web-1" deleted (server dry run)'),
                       (("apply", "--dry-run=server", "-f", manifest(served, "api-2")), "pod/api-2 created (server dry run)"),
                       (("label", "pod", "web-1", "tier=front", "--dry-run=server"), "pod/web-1 labeled (server dry run)"),
                       (("cordon", "node-1", "--dry-run=server"), "node/node-1 cordoned (server dry run)")):
        out = kubectl(served, *args)
        assert out.returncode == 0 and said in out.stdout, (args, out.stderr)
    assert state(sim) == before


def test_patching_a_bound_pods_node_is_refused_and_the_scheduler_goes_on(served: Any) -> None:
    sim, _, _ = served
    node = sim.world.api.storage.get("pods", ("default", "web-1")).spec.node_name
    other = "node-1" if node != "node-1" else "node-2"
    for extra in ((), ("--type=merge",), ("--type=json",)):
        body = (f'[{{"op": "replace", "path": "/spec/nodeName", "value": "{other}"}}]' if extra
                == ("--type=json",) else f'{{"spec": {{"nodeName": "{other}"}}}}')
        out = kubectl(served, "patch", "pod", "web-1", *extra, "-p", body)
        assert out.returncode == 1 and out.stderr.strip() == f'The Pod "web-1" is invalid: {FORBIDDEN}', out.stderr
    assert sim.world.api.storage.get("pods", ("default", "web-1")).spec.node_name == node
    assert kubectl(served, "apply", "-f", manifest(served, "next-1", cpu="100m")).returncode == 0
    sim.run_for(5)
    assert sim.world.api.storage.get("pods", ("default", "next-1")).spec.node_name in ("node-1", "node-2", "node-3")
    assert sim.crashes == ()


def _requests(sim: Simulation, method: str, suffix: str) -> list[dict[str, Any]]:
    return [e.data["arg"] for e in sim.trace if e.stage == "inject" and e.data.get("action") == "request"
            and e.data["arg"]["method"] == method and e.data["arg"]["path"].endswith(suffix)]


@pytest.mark.parametrize(("node", "how"), [("node-2", "eviction"), ("node-3", "delete")])
def test_drain_cordons_and_evicts_or_deletes(served: Any, node: str, how: str) -> None:
    """kubectl 1.32 evicts through ``pods/eviction`` (policy/v1beta1, a JSON body); with
    ``--disable-eviction`` it deletes, sending its DeleteOptions in protobuf."""
    sim, _, _ = served
    api = sim.world.api
    victims = sorted(p.metadata.name for p in api.storage.items("pods") if p.spec.node_name == node)
    assert victims, f"nothing runs on {node}"
    flags = ("--disable-eviction",) if how == "delete" else ()
    out = kubectl(served, "drain", node, "--force", "--ignore-daemonsets", "--delete-emptydir-data",
                  "--timeout=90s", *flags, clock=0.5)
    assert out.returncode == 0, out.stderr
    assert f"node/{node} cordoned" in out.stdout and f"node/{node} drained" in out.stdout
    said = "evicted" if how == "eviction" else "deleted"
    for name in victims:
        assert f"pod/{name} {said}" in out.stdout, out.stdout
        assert api.storage.get("pods", ("default", name)) is None
    assert api.storage.get("nodes", ("", node)).spec.unschedulable
    if how == "eviction":
        sent = _requests(sim, "POST", "/eviction")
        assert {a["path"].split("/")[-2] for a in sent} == set(victims)
    else:
        sent = [a for a in _requests(sim, "DELETE", "") if a["path"].rsplit("/", 1)[-1] in victims]
        assert sent and all(a["content_type"] == PROTOBUF and "body_base64" in a for a in sent)
    assert sim.crashes == ()

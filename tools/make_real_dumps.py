"""Rebuild ``kschedlearn/scenarios/data/dumps/real/*.json`` from the public captures they come from.

kschedlearn-only. Each dump is a real capture of a cluster found in a public repository (support
bundles, sonobuoy results, an insights archive, tool fixtures); see the README beside the dumps for
sources and licences. This script fetches nothing: give it the git directories of the source
repositories (``--mirror owner+name=GITDIR``; the defaults are the search tool's mirrors under
/work/.mirror). The trimming is the same for every dump and is the only change made:

- ``metadata.managedFields`` is removed from every object (server-side-apply bookkeeping; 1.6 did
  not have it; it is most of the bytes of a modern capture);
- ``status.images`` is removed from nodes (image lists; 1.6's default scheduler does not read them);
- the ``kubectl.kubernetes.io/last-applied-configuration`` annotation is removed (a second copy of
  the object);
- ``status.containerStatuses[].lastState`` is removed (the previous run of a container, with the
  tail of its log);
- nothing else: names, labels, requests, affinity, taints, status and fields 1.6 did not know stay.

The files each capture splits objects into (a support bundle's ``pods/<namespace>.json``, sonobuoy's
``resources/ns/<ns>/core_v1_pods.json``) are kept as they were read — one ``List`` per file — inside
one outer ``List``: the dump is a List of Lists, as concatenating them gives. A file holding a bare
JSON array of objects (sonobuoy's) becomes the typed list its file name says (``Nodes.json`` ->
``NodeList``), whose items may omit their kind as API list answers do; an object written
without ``apiVersion``/``kind`` (the insights archive's) gets the ones its folder names.
"""

from __future__ import annotations

import argparse
import fnmatch
import io
import json
import subprocess
import tarfile
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "kschedlearn" / "scenarios" / "data" / "dumps" / "real"
MIRRORS = Path("/work/.mirror")
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"

#: name -> (repository, commit, [(path in the repository or "tarball!member", object filter)])
SOURCES: dict[str, tuple[str, str, list[str]]] = {
    "k3s-v1.33": ("replicatedhq/troubleshoot", "e155e4e47f12234d175edea93a682a90ee65b4c3", [
        f"real-support-bundles/support-bundle-2025-09-11T15_54_39/cluster-resources/{p}.json"
        for p in ("nodes", "pods/default", "pods/kube-system")]),
    "openshift-4.7": ("openshift/insights-operator", "8494b69b8075fd1e8eac49db77bcda7588078155", [
        "docs/insights-archive-sample/config/node/master-0.imeixner20210707.lab.upshift.rdu2.redhat.com.json#Node",
        "docs/insights-archive-sample/config/node/worker-0.imeixner20210707.lab.upshift.rdu2.redhat.com.json#Node",
        "docs/insights-archive-sample/config/pod/openshift-*/*.json#Pod"]),
    "kind-v1.21": ("vmware-tanzu/sonobuoy", "307560188828ce124c575f60fcd30e8fb7cd45b7", [
        "test/integration/testdata/results-4-e2e-failures.tar.gz!resources/cluster/core_v1_nodes.json",
        "test/integration/testdata/results-4-e2e-failures.tar.gz!resources/ns/*/core_v1_pods.json"]),
    "kind-v1.14": ("vmware-tanzu/sonobuoy", "307560188828ce124c575f60fcd30e8fb7cd45b7", [
        "cmd/sonobuoy/app/testdata/testResultsOutput.tar.gz!resources/cluster/core_v1_nodes.json",
        "cmd/sonobuoy/app/testdata/testResultsOutput.tar.gz!resources/ns/kube-system/core_v1_pods.json"]),
    "aws-kubeadm-v1.8": ("vmware-tanzu/sonobuoy", "307560188828ce124c575f60fcd30e8fb7cd45b7", [
        "pkg/client/results/testdata/results-0.10.tar.gz!./resources/cluster/Nodes.json",
        "pkg/client/results/testdata/results-0.10.tar.gz!./resources/ns/kube-system/Pods.json",
        "pkg/client/results/testdata/results-0.10.tar.gz!./resources/ns/heptio-sonobuoy/Pods.json"]),
    "aws-arm64-v1.21": ("honeycombio/honeycomb-kubernetes-agent", "c8c00fc180ac9c927aa565722f8939dd4a160193", [
        "testdata/nodes.json", "testdata/pods.json"]),
    "minikube-v1.15": ("derailed/k9s", "24cf4628541eca9e2979ae7294e0e91578e8357a", [
        "internal/render/testdata/no.json", "internal/render/testdata/po.json"]),
    "node-fixtures-doks-microk8s-kurl": ("replicatedhq/troubleshoot", "5bf008f7d2460b500085eb948ce416a475131f6c", [
        "pkg/analyze/files/nodes.json"]),
}


def _git(repo: str) -> str:
    return str(MIRRORS / repo.replace("/", "+") / "repo")


def _show(repo: str, commit: str, path: str) -> bytes:
    return subprocess.run(["git", "--git-dir", _git(repo), "show", f"{commit}:{path}"], check=True,
                          capture_output=True).stdout


def _ls(repo: str, commit: str, pattern: str) -> list[str]:
    out = subprocess.run(["git", "--git-dir", _git(repo), "ls-tree", "-r", "--name-only", commit],
                         check=True, capture_output=True, text=True).stdout.split()
    return sorted(p for p in out if fnmatch.fnmatch(p, pattern))


def _read(repo: str, commit: str, spec: str) -> list[Any]:
    spec, _, kind = spec.partition("#")
    docs = _read_files(repo, commit, spec)
    # the insights archive writes objects without apiVersion/kind: its folder (config/node, config/pod) says it
    return [{"apiVersion": "v1", "kind": kind, **d} if kind and "kind" not in d else d for d in docs]


def _read_files(repo: str, commit: str, spec: str) -> list[Any]:
    if "!" in spec:
        tar_path, member = spec.split("!", 1)
        with tarfile.open(fileobj=io.BytesIO(_show(repo, commit, tar_path))) as tar:
            names = sorted(n for n in tar.getnames() if fnmatch.fnmatch(n, member) and "/._" not in n)
            return [json.load(tar.extractfile(n)) for n in names]  # type: ignore[arg-type]
    return [json.loads(_show(repo, commit, p)) for p in (_ls(repo, commit, spec) if "*" in spec else [spec])]


def trim(obj: Any) -> Any:
    """The three removals named in the module docstring, applied to every object of ``obj``."""
    if isinstance(obj, list):
        return [trim(x) for x in obj]
    if not isinstance(obj, dict):
        return obj
    if isinstance(obj.get("items"), list):
        return {**obj, "items": trim(obj["items"])}
    out = dict(obj)
    meta = dict(out.get("metadata") or {})
    meta.pop("managedFields", None)
    if LAST_APPLIED in (meta.get("annotations") or {}):
        meta["annotations"] = {k: v for k, v in meta["annotations"].items() if k != LAST_APPLIED}
    if "metadata" in out:
        out["metadata"] = meta
    status = out.get("status")
    if out.get("kind") == "Node" and isinstance(status, dict):
        out["status"] = {k: v for k, v in status.items() if k != "images"}
    if isinstance(status, dict) and isinstance(status.get("containerStatuses"), list):
        out["status"] = {**status, "containerStatuses": [{k: v for k, v in cs.items() if k != "lastState"}
                                                         for cs in status["containerStatuses"]]}
    return out


def _compact(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def dump_text(doc: dict[str, Any]) -> str:
    """JSON with one object per line (Lists open on their own line): small, and diffs stay readable."""
    def lines(obj: Any) -> list[str]:
        if isinstance(obj, dict) and isinstance(obj.get("items"), list):
            head = _compact({k: v for k, v in obj.items() if k != "items"})[:-1]
            inner = [line for item in obj["items"] for line in lines(item)]
            body = ",\n".join(inner)
            return [f'{head},"items":[\n{body}\n]}}' if inner else f'{head},"items":[]}}']
        return [_compact(obj)]
    return lines(doc)[0] + "\n"


def _list_kind(spec: str) -> str:
    name = spec.rsplit("/", 1)[-1].lower()
    return "NodeList" if "node" in name else "PodList" if "pod" in name else "List"


def build(name: str) -> dict[str, Any]:
    repo, commit, specs = SOURCES[name]
    # sonobuoy's older files are bare JSON arrays of objects whose items omit their kind (as API list
    # answers do): each becomes the typed list its file name says (Nodes.json -> NodeList), the only change
    docs = [{"apiVersion": "v1", "kind": _list_kind(spec), "items": d} if isinstance(d, list) else d
            for spec in specs for d in _read(repo, commit, spec)]
    return {"apiVersion": "v1", "kind": "List", "items": trim(docs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", default=list(SOURCES))
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for name in args.names:
        path = OUT / f"{name}.json"
        path.write_text(dump_text(build(name)))
        print(f"{path.name}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()

"""Write ``kschedlearn/scenarios/data/k8s-1.6.1-json-fields.json``: the JSON field names of the
API kinds a cluster dump holds, as Kubernetes v1.6.1 defined them.

kschedlearn-only. The import report of ``Simulation.from_manifests`` must tell "a field 1.6 did
not have" (``metadata.managedFields``, ``spec.topologySpreadConstraints``) from "a field 1.6 had
but kschedlearn does not model" (``env``, probes, ``status.nodeInfo``). This reads the Go struct
definitions of the v1.6 tree (the HELPERS mirror) and keeps only facts: for every struct reachable
from the dump kinds, its JSON field names and the (normalised) type of each; for every named
non-struct type, what it stands for. No Go code or comment is copied.

Usage: ``python tools/make_k8s16_fields.py [--mirror GITDIR] [--commit SHA]``.
Type expressions in the output: ``Pkg.Type`` (a struct or named type), ``[]X``, ``map[]X`` (the
key type is dropped) or ``leaf`` (a string, number, bool, Time, Quantity, IntOrString ...).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

MIRROR = "/work/.mirror/kubernetes-sigs+cluster-capacity/repo"
COMMIT = "f271bd0a9394ad63384802cf75294f6ecab36ac2"
#: package label -> path of its types.go in the v1.6 tree
PACKAGES = {
    "v1": "vendor/k8s.io/kubernetes/pkg/api/v1/types.go",
    "metav1": "vendor/k8s.io/kubernetes/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go",
    "extensions": "vendor/k8s.io/kubernetes/pkg/apis/extensions/v1beta1/types.go",
    "apps": "vendor/k8s.io/kubernetes/pkg/apis/apps/v1beta1/types.go",
}
#: the kinds cluster_dump.py reads (USED_KINDS), as package.Type
ROOTS = ("v1.Pod", "v1.Node", "v1.Service", "v1.ReplicationController", "v1.PersistentVolume",
         "v1.PersistentVolumeClaim", "extensions.ReplicaSet", "apps.StatefulSet")
#: how each package's Go files name the other packages
QUALIFIERS = {"metav1": "metav1", "v1": "v1"}
_STRUCT = re.compile(r"^type (\w+) struct \{\n(.*?)^\}", re.S | re.M)
_NAMED = re.compile(r"^type (\w+) ([^\s{][^\n]*)$", re.M)
_FIELD = re.compile(r"^\s*(?:(\w+)\s+)?([\w.*\[\]]+)\s+`([^`]*)`", re.M)
_JSON_TAG = re.compile(r'json:"([^"]*)"')


def _normalise(expr: str, pkg: str, known: set[str]) -> str:
    expr = expr.lstrip("*")
    if expr.startswith("[]"):
        inner = _normalise(expr[2:], pkg, known)
        return "leaf" if inner == "leaf" and expr[2:] == "byte" else f"[]{inner}"
    if expr.startswith("map["):
        return f"map[]{_normalise(expr[expr.index(']') + 1:], pkg, known)}"
    if "." in expr:
        qual, name = expr.split(".", 1)
        target = QUALIFIERS.get(qual)
        full = f"{target}.{name}" if target else ""
    else:
        full = f"{pkg}.{expr}"
    return full if full in known else "leaf"


def parse(sources: dict[str, str]) -> dict[str, object]:
    """package.Type -> {json name: type} (structs) or type expression (named types)."""
    raw_structs: dict[str, list[tuple[str | None, str, str]]] = {}
    raw_named: dict[str, tuple[str, str]] = {}
    for pkg, text in sources.items():
        for name, body in _STRUCT.findall(text):
            fields = []
            for fname, ftype, tag in _FIELD.findall(body):
                m = _JSON_TAG.search(tag)
                if m:
                    fields.append((fname or None, ftype, m.group(1)))
            raw_structs[f"{pkg}.{name}"] = [(pkg, t, j) for _, t, j in fields]
        for name, expr in _NAMED.findall(text):
            if not expr.startswith("struct") and not expr.startswith("interface"):
                raw_named[f"{pkg}.{name}"] = (pkg, expr.strip())
    known = set(raw_structs) | set(raw_named)
    table: dict[str, object] = {}
    for full, (pkg, expr) in raw_named.items():
        table[full] = _normalise(expr, pkg, known)
    for full, fields in raw_structs.items():
        out: dict[str, str] = {}
        inline: list[str] = []
        for pkg, ftype, tag in fields:
            name = tag.split(",")[0]
            if name == "-":
                continue
            norm = _normalise(ftype, pkg, known)
            if name == "" and ",inline" in f",{tag}":
                inline.append(norm)
                continue
            out[name] = norm
        if inline:
            out["__inline__"] = inline  # type: ignore[assignment]
        table[full] = out
    return _reachable(table)


def _reachable(table: dict[str, object]) -> dict[str, object]:
    seen: dict[str, object] = {}
    todo = list(ROOTS)
    while todo:
        name = todo.pop()
        if name in seen or name not in table:
            continue
        entry = table[name]
        seen[name] = entry
        exprs = [entry] if isinstance(entry, str) else [v for k, v in entry.items() if k != "__inline__"]
        if isinstance(entry, dict):
            exprs += list(entry.get("__inline__", []))
        for expr in exprs:
            base = str(expr).replace("[]", "").replace("map", "")
            if base != "leaf":
                todo.append(base)
    return dict(sorted(seen.items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirror", default=MIRROR)
    ap.add_argument("--commit", default=COMMIT)
    ap.add_argument("-o", "--output", default=str(Path(__file__).resolve().parents[1] / "kschedlearn" / "scenarios"
                                                   / "data" / "k8s-1.6.1-json-fields.json"))
    args = ap.parse_args()
    sources = {pkg: subprocess.run(["git", "--git-dir", args.mirror, "show", f"{args.commit}:{path}"],
                                   check=True, capture_output=True, text=True).stdout
               for pkg, path in PACKAGES.items()}
    table = parse(sources)
    doc = {"source": f"Kubernetes v1.6.1 Go types ({', '.join(PACKAGES.values())}) at {args.commit} of "
                     "the kubernetes-sigs/cluster-capacity vendor tree; written by tools/make_k8s16_fields.py",
           "roots": list(ROOTS), "types": table}
    Path(args.output).write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n")
    print(f"{args.output}: {len(table)} types")


if __name__ == "__main__":
    main()

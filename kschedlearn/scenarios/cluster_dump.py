"""Replay a real cluster: turn ``kubectl get nodes,pods,... -A -o yaml`` (or ``-o json``) into a scenario.

Go: none — kschedlearn-only (compare cluster-capacity and kube-scheduler-simulator, which load a
cluster's objects to ask "where would this pod go?"). What the 1.6 scheduler reads is kept;
everything else is dropped and *reported once* in a :class:`DumpReport`:

- kinds 1.6's scheduler does not read (Deployment, DaemonSet, ConfigMap, ...) are skipped and
  counted;
- fields a modern cluster carries that 1.6 does not know (``metadata.managedFields``,
  ``spec.topologySpreadConstraints``, ``status.containerStatuses``, ...) are listed by kind and
  field path with how many objects had them — never silently reinterpreted;
- ``apps/v1`` ReplicaSets and StatefulSets are read as 1.6's ``extensions/v1beta1`` and
  ``apps/v1beta1`` (the fields the scheduler reads — selector, labels — are the same);
- notes point at what changes a placement: e.g. nodes labelled only with
  ``topology.kubernetes.io/zone`` look zone-less to 1.6, which reads
  ``failure-domain.beta.kubernetes.io/zone``.

Pods with ``spec.nodeName`` become bound pods; the others are pending and the simulated 1.6
kube-scheduler places them. Errors name the file, the document (or List item) and the field.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import yaml

from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1.yaml_load import KINDS
from kschedlearn.scenarios.scenario import Scenario, ScenarioError, SchedulerSpec
from kschedlearn.scenarios.validate import api_validation_error

#: modern apiVersions read as the 1.6 ones (same fields for what the scheduler reads)
CONVERSIONS: dict[tuple[str, str], str] = {
    ("apps/v1", "ReplicaSet"): "extensions/v1beta1",
    ("apps/v1beta2", "ReplicaSet"): "extensions/v1beta1",
    ("apps/v1", "StatefulSet"): "apps/v1beta1",
    ("apps/v1beta2", "StatefulSet"): "apps/v1beta1",
}
#: kinds of the dump that the simulated cluster stores (events are history, not state)
USED_KINDS = ("Node", "Pod", "Service", "ReplicationController", "ReplicaSet", "StatefulSet",
              "PersistentVolume", "PersistentVolumeClaim")
ZONE_1_6 = "failure-domain.beta.kubernetes.io/zone"
ZONE_NEW = "topology.kubernetes.io/zone"

_SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's C loader when present


@attrs.frozen
class DumpReport:
    """What an import kept, dropped and converted (plain data, for notebooks and the CLI)."""

    source: str
    nodes: int
    bound_pods: int
    pending_pods: int
    other_objects: int
    skipped_kinds: tuple[tuple[str, int], ...]
    unknown_fields: tuple[tuple[str, str, int], ...]  # (kind, field path, objects)
    conversions: tuple[tuple[str, str, int], ...]  # (from apiVersion kind, to apiVersion, objects)
    notes: tuple[str, ...]

    def summary(self) -> str:
        """A few lines a learner reads once."""
        lines = [f"{self.source}: {self.nodes} nodes, {self.bound_pods} bound pods, {self.pending_pods} pending pods,"
                 f" {self.other_objects} other objects"]
        if self.skipped_kinds:
            lines.append("not read by the 1.6 scheduler (skipped): "
                         + ", ".join(f"{k} ×{n}" for k, n in self.skipped_kinds))
        for frm, to, n in self.conversions:
            lines.append(f"read as 1.6's {to}: {frm} ×{n}")
        if self.unknown_fields:
            lines.append("fields 1.6 does not know (ignored):")
            lines.extend(f"  {kind} {path} ×{n}" for kind, path, n in self.unknown_fields)
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)


def _documents(text: str, source: str) -> list[tuple[str, Any]]:
    if text.lstrip().startswith("{"):  # `-o json`: the json module reads it far faster than any YAML loader
        try:
            docs = [json.loads(text)]
        except ValueError as err:
            raise ScenarioError(f"{source}: invalid JSON: {err}") from None
    else:
        try:
            docs = list(yaml.load_all(text, Loader=_SafeLoader))
        except yaml.YAMLError as err:
            raise ScenarioError(f"{source}: invalid YAML: {err}") from None
    out: list[tuple[str, Any]] = []
    for i, doc in enumerate(docs, start=1):
        if doc is None:
            continue
        where = f"{source}: document {i}"
        if isinstance(doc, dict) and str(doc.get("kind", "")).endswith("List") and "items" in doc:
            items = doc.get("items") or []
            if not isinstance(items, list):
                raise ScenarioError(f"{where}: items: expected a list, got {type(items).__name__}")
            out.extend((f"{where}: items[{j}]", item) for j, item in enumerate(items))
        else:
            out.append((where, doc))
    return out


def _empty(value: Any) -> bool:
    return value is None or value is False or value == 0 or value == "" or value == {} or value == []


def _unknown_paths(given: Any, kept: Any, path: str, out: set[str]) -> None:
    """Key paths with a non-empty value in ``given`` that the 1.6 encoding of the object lacks."""
    if isinstance(given, dict):
        kept_map = kept if isinstance(kept, dict) else {}
        for key, value in given.items():
            sub = f"{path}.{key}" if path else key
            if key not in kept_map:
                if not _empty(value):
                    out.add(sub)
            else:
                _unknown_paths(value, kept_map[key], sub, out)
    elif isinstance(given, list) and isinstance(kept, list):
        for g, k in zip(given, kept):
            _unknown_paths(g, k, f"{path}[]", out)


def _decode(cls: Any, doc: dict[str, Any], where: str) -> tuple[Any, set[str]]:
    """The object and the paths of its fields 1.6 does not know."""
    obj = cls.from_dict(doc, path=where)
    paths: set[str] = set()
    _unknown_paths(doc, obj.to_dict(), "", paths)
    return obj, paths


def _is_spec_path(path: str) -> bool:
    return path == "spec" or path.startswith(("spec.", "spec["))


@attrs.define(eq=False)
class _SharedSpecs:
    """Pods whose ``spec`` is the same document share one decoded PodSpec.

    A dump holds thousands of replicas whose specs differ at most by ``nodeName``: decoding
    (and re-encoding, for the report) each spec again was most of a 150,000-pod load. The
    first pod with a spec is decoded whole; a later pod with the same spec text (its ``repr``)
    decodes only its other fields and takes the very same PodSpec value (frozen, so
    sharing is safe; the scheduler's cache keeps fewer objects too). Decoding errors are
    unchanged: a spec that failed never reaches the memo, and the fields around it are decoded
    in the same order.
    """

    #: repr of a spec -> (its PodSpec, the unknown-field paths under ``spec``)
    known: dict[str, tuple[Any, frozenset[str]]] = attrs.field(factory=dict)

    def decode(self, cls: Any, doc: dict[str, Any], where: str) -> tuple[Any, set[str]]:
        spec = doc.get("spec")
        # repr is exact for the values JSON and YAML decode to (str, int, float, bool, None,
        # lists, dicts, dates): equal text, equal spec (keys in another order merely miss)
        key = repr(spec) if isinstance(spec, dict) else None
        hit = self.known.get(key) if key is not None else None
        if hit is None:
            obj, paths = _decode(cls, doc, where)
            if key is not None:
                self.known[key] = (obj.spec, frozenset(p for p in paths if _is_spec_path(p)))
            return obj, paths
        rest = {k: v for k, v in doc.items() if k != "spec"}
        obj, paths = _decode(cls, rest, where)
        paths.update(hit[1])
        return attrs.evolve(obj, spec=hit[0]), paths


def _zone_blind(nodes: list[Any]) -> list[str]:
    """Nodes with a zone only under the new label: 1.6 sees no zone on them."""
    return [n.metadata.name for n in nodes if ZONE_NEW in n.metadata.labels and ZONE_1_6 not in n.metadata.labels]


def load_cluster_dump(text_or_path: str | os.PathLike[str], *, name: str = "") -> tuple[Scenario, DumpReport]:
    """Parse a dump (a path, or the YAML text itself) into a scenario plus its report."""
    text, source = _read(text_or_path)
    located: list[tuple[str, Any]] = []  # (where in the dump, the object)
    skipped: Counter[str] = Counter()
    unknown: Counter[tuple[str, str]] = Counter()
    converted: Counter[tuple[str, str]] = Counter()
    specs = _SharedSpecs()
    for where, doc in _documents(text, source):
        if not isinstance(doc, dict):
            raise ScenarioError(f"{where}: expected a Kubernetes object (a mapping), got {type(doc).__name__}")
        kind, api_version = doc.get("kind"), doc.get("apiVersion")
        if not isinstance(kind, str) or not kind:
            raise ScenarioError(f"{where}: kind: required (a Kubernetes object names its kind)")
        if kind not in USED_KINDS:
            skipped[kind] += 1
            continue
        cls = KINDS[kind]
        to = CONVERSIONS.get((str(api_version), kind))
        if to is not None:
            converted[(f"{api_version} {kind}", to)] += 1
            doc = {**doc, "apiVersion": to}
        try:
            obj, paths = specs.decode(cls, doc, where) if kind == "Pod" else _decode(cls, doc, where)
        except ManifestError as err:
            raise ScenarioError(str(err)) from None
        for p in paths:
            unknown[(kind, p)] += 1
        located.append((where, obj))
    objects = [obj for _, obj in located]
    nodes = [o for o in objects if type(o).kind == "Node"]
    pods = [o for o in objects if type(o).kind == "Pod"]
    if not nodes:
        raise ScenarioError(f"{source}: no Node objects: a dump needs `kubectl get nodes,pods,... -o yaml`")
    for where, obj in located:
        # 1.6's API server would refuse it (a 422) when the replay creates it: say so now, by item
        problem = api_validation_error(obj)
        if problem:
            raise ScenarioError(f"{where}: {problem} (1.6's API server refuses it; fix or drop the item)")
    notes = []
    blind = _zone_blind(nodes)
    if blind:
        notes.append(f"{len(blind)} of {len(nodes)} nodes are labelled {ZONE_NEW} but not {ZONE_1_6}"
                     f" (e.g. {blind[0]}): 1.6's zone spreading and zone predicates see no zone on them")
    # nodes first, then bound pods, then the rest: the scheduler starts from a full cache
    order = {"Node": 0, "Pod": 2}
    objects.sort(key=lambda o: (order.get(type(o).kind, 1), 0 if type(o).kind != "Pod" or o.spec.node_name else 1))
    pending = [p for p in pods if not p.spec.node_name]
    scenario = Scenario(
        name=name or Path(source).stem, description=f"replay of {source}", duration=60.0,
        follow=f"{pending[0].metadata.namespace or 'default'}/{pending[0].metadata.name}" if pending else "",
        schedulers=(SchedulerSpec("scheduler-0", ("--leader-elect=false",)),),
        objects=tuple(objects), source=source, snapshot_every=1 if len(objects) <= 300 else 50,
        objects_checked=True,  # every item went through api_validation_error above
    )
    report = DumpReport(
        source=source, nodes=len(nodes), bound_pods=len(pods) - len(pending), pending_pods=len(pending),
        other_objects=len(objects) - len(nodes) - len(pods),
        skipped_kinds=tuple(sorted(skipped.items())),
        unknown_fields=tuple(sorted((k, p, n) for (k, p), n in unknown.items())),
        conversions=tuple(sorted((f, t, n) for (f, t), n in converted.items())),
        notes=tuple(notes),
    )
    return scenario, report


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except OSError:  # e.g. a name too long to be a path
        return False


def _read(text_or_path: str | os.PathLike[str]) -> tuple[str, str]:
    """(text, source name): a PathLike or a one-line string naming a file is read; anything else is the text."""
    if not isinstance(text_or_path, (str, os.PathLike)):
        raise ScenarioError(f"<dump>: expected the dump's YAML text or a file path, got {text_or_path!r} "
                            f"({type(text_or_path).__name__})")
    if not isinstance(text_or_path, os.PathLike):
        text = str(text_or_path)
        if "\n" not in text and os.path.isdir(text):
            raise ScenarioError(f"{text}: is a folder, not a dump file")
        if "\n" in text or text.lstrip().startswith(("{", "[")) or not (text.endswith((".yaml", ".yml", ".json"))
                                                                        or _is_file(text)):
            return text, "<dump>"
    path = Path(text_or_path)
    try:
        return path.read_text(encoding="utf-8"), path.name
    except OSError as err:
        raise ScenarioError(f"{path}: cannot read the dump: {err.strerror}") from None
    except UnicodeDecodeError as err:
        raise ScenarioError(f"{path}: not UTF-8 text (byte {err.start})") from None


__all__ = ["DumpReport", "load_cluster_dump", "CONVERSIONS", "USED_KINDS"]

"""Replay a real cluster: turn ``kubectl get nodes,pods,... -A -o yaml`` (or ``-o json``) into a scenario.

Go: none — kschedlearn-only (compare cluster-capacity and kube-scheduler-simulator, which load a
cluster's objects to ask "where would this pod go?"). A dump is read item by item and never
refused whole for what one item carries:

- ``List`` documents are read at any depth (a support bundle's lists concatenated into one
  ``List`` is a List of Lists);
- kinds the 1.6 scheduler does not read (Deployment, DaemonSet, ConfigMap, ...) are skipped and
  counted; ``apps/v1`` ReplicaSets and StatefulSets are read as 1.6's groups; with
  ``controllers=True`` Deployments and DaemonSets are kept too (as ``extensions/v1beta1``) and
  1.6's kube-controller-manager runs beside the scheduler;
- what a modern pod carries and 1.6's API server would refuse is changed as a careful person
  replaying onto 1.6 would (:mod:`kschedlearn.scenarios.dump_adapt`), and said so;
- an item 1.6 could still not take (a bad quantity, an invalid name) is skipped, named by its
  document, item, field and value, and the rest loads; of two items naming the same object the
  later one is skipped, naming both;
- pods bound to a node the dump lacks are kept where 1.6's cache would keep them, and listed;
- the :class:`~kschedlearn.scenarios.dump_report.DumpReport` says, by kind, field and count, what
  changes scheduling, what 1.6 did not have and what kschedlearn does not model.

Pods with ``spec.nodeName`` become bound pods; the others are pending and the simulated 1.6
kube-scheduler places them. Errors that concern the whole dump (unreadable, not YAML, no nodes)
name the file.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import yaml

from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1._gojson import _GO_JSON
from kschedlearn.api.v1.codec import _dec_str
from kschedlearn.api.v1.yaml_load import KINDS
from kschedlearn.scenarios.dump_adapt import adapt_pod
from kschedlearn.scenarios.dump_fields import NEW, UNMODELLED, classify, classify_field, scheduling_note
from kschedlearn.scenarios.dump_report import (GO, NOT_IN_1_6, NOT_MODELLED, SCHEDULING, DumpReport, ReportBuilder,
                                               SkippedItem, ghost_finding)
from kschedlearn.scenarios.scenario import ControllerManagerSpec, Scenario, ScenarioError, SchedulerSpec
from kschedlearn.scenarios.validate import api_validation_error
from kschedlearn.sim.gc_policy import no_collections

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
#: kinds kept only when the replay runs 1.6's controllers (``load_cluster_dump(..., controllers=True)``),
#: read as their 1.6 form; their controllers then keep them at their counts
CONTROLLER_KINDS = ("Deployment", "DaemonSet")
CONVERSIONS.update({
    ("apps/v1", "Deployment"): "extensions/v1beta1", ("apps/v1beta2", "Deployment"): "extensions/v1beta1",
    ("apps/v1beta1", "Deployment"): "extensions/v1beta1",
    ("apps/v1", "DaemonSet"): "extensions/v1beta1", ("apps/v1beta2", "DaemonSet"): "extensions/v1beta1",
})
#: the replay's kube-controller-manager: every controller but the garbage collector, which would
#: delete the pods whose owners the dump does not carry in a kind 1.6 knows (Jobs, custom resources)
DUMP_CONTROLLER_MANAGER = ControllerManagerSpec(flags=("--leader-elect=false", "--controllers=*,-garbagecollector"))
_CLUSTER_SCOPED = ("Node", "PersistentVolume")
ZONE_1_6 = "failure-domain.beta.kubernetes.io/zone"
ZONE_NEW = "topology.kubernetes.io/zone"
REGION_1_6 = "failure-domain.beta.kubernetes.io/region"
REGION_NEW = "topology.kubernetes.io/region"
#: resource names 1.6's NodeInfo reads from a node's allocatable (plus the opaque-int prefix)
_NODE_RESOURCES_1_6 = ("cpu", "memory", "pods", "alpha.kubernetes.io/nvidia-gpu")
_OPAQUE = "pod.alpha.kubernetes.io/opaque-int-resource-"
_NODE_RESOURCE_WHY = ("1.6's scheduler cache reads only cpu, memory, pods, alpha.kubernetes.io/nvidia-gpu and "
                      "opaque-int resources from a node (NodeInfo.SetNode, "
                      f"{GO}plugin/pkg/scheduler/schedulercache/node_info.go#L338-L371)")
_ZONE_WHY = (f"1.6 reads zones and regions from {ZONE_1_6} and {REGION_1_6} only: without them these nodes have "
             "no zone for SelectorSpreadPriority and NoVolumeZoneConflict")
MAX_LIST_DEPTH = 16

_SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's C loader when present


def _documents(text: str, source: str) -> list[Any]:
    if text.lstrip().startswith("{"):  # `-o json`: the json module reads it far faster than any YAML loader
        try:
            return [json.loads(text)]
        except ValueError as err:
            raise ScenarioError(f"{source}: invalid JSON: {err}") from None
    try:
        return list(yaml.load_all(text, Loader=_SafeLoader))
    except yaml.YAMLError as err:
        raise ScenarioError(f"{source}: invalid YAML: {err}") from None


def _items(where: str, doc: Any, depth: int) -> Iterator[tuple[str, Any]]:
    """(where, object) for every object of a document, Lists read at any depth (a List in a List).

    The items of a typed list (``PodList``, ``NodeList``) may omit their ``kind``/``apiVersion``, as
    the API server's own list answers do: they are the list's.
    """
    if isinstance(doc, dict) and str(doc.get("kind", "")).endswith("List") and "items" in doc:
        items = doc.get("items") or []
        if not isinstance(items, list):
            yield where, _Bad(f"items: expected a list, got {type(items).__name__} {_short(items)}")
        elif depth >= MAX_LIST_DEPTH:
            yield where, _Bad(f"a List nested {depth} levels deep (the limit is {MAX_LIST_DEPTH})")
        else:
            sep = "." if where.endswith("]") else ": "
            of = str(doc["kind"])[:-len("List")]
            for j, item in enumerate(items):
                if of and isinstance(item, dict) and "kind" not in item:
                    item = {"apiVersion": doc.get("apiVersion", "v1"), "kind": of, **item}
                yield from _items(f"{where}{sep}items[{j}]", item, depth + 1)
    else:
        yield where, doc


@attrs.frozen
class _Bad:
    """A document or List whose shape is wrong: skipped with this reason."""

    reason: str


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _identity(kind: str, obj: Any) -> tuple[str, str] | None:
    """(kind, name or namespace/name) as the API server stores it; None for a name the server makes up
    (``generateName``), which never collides."""
    meta = obj.metadata
    if not meta.name:
        return None
    return kind, meta.name if kind in _CLUSTER_SCOPED else f"{meta.namespace or 'default'}/{meta.name}"


class _SharedSpecs:
    """Pods whose ``spec`` is the same document share one decoded PodSpec.

    A dump holds thousands of replicas whose specs differ at most by ``nodeName``: decoding each
    again was much of a 150,000-pod load. The first pod with a spec is decoded whole; a later pod
    with the same spec (the same ``repr``: exact for what JSON and YAML decode to) decodes only
    its other fields and takes the very same PodSpec value (frozen, so sharing is safe). Errors
    are unchanged: a spec that failed never reaches the memo, and the fields around it are
    decoded in the same order.
    """

    def __init__(self) -> None:
        self.known: dict[str, Any] = {}
        #: the key of a pod's fields but its spec, its own ``metadata.name`` / ``uid`` left out
        #: (:func:`_rest_key`) -> a pod decoded from them (its spec not the pod's)
        self.rests: dict[str, Any] = {}
        #: the same key -> ``classify_field`` of that spec (the import report's findings under it)
        self.findings: dict[str, list[tuple[str, str]]] = {}

    @staticmethod
    def key_of(doc: dict[str, Any]) -> str | None:
        spec = doc.get("spec")
        return repr(spec) if isinstance(spec, dict) else None

    def classify(self, kind: str, doc: dict[str, Any], cls: Any, key: str | None) -> list[tuple[str, str]]:
        """``classify(kind, doc, cls)``, the spec's part looked up by its key (see ``classify_field``)."""
        if key is None:
            return classify(kind, doc, cls)
        found: dict[tuple[str, str], None] = {}
        for field, value in doc.items():
            if field == "spec":
                part = self.findings.get(key)
                if part is None:
                    part = self.findings[key] = classify_field(kind, field, value, cls)
            else:
                part = classify_field(kind, field, value, cls)
            found.update(dict.fromkeys(part))
        return list(found)

    def decode(self, cls: Any, doc: dict[str, Any], where: str, key: str | None) -> Any:
        shared = self.known.get(key) if key is not None else None
        if shared is None:
            obj = cls.from_dict(doc, path=where)
            if key is not None:
                self.known[key] = obj.spec
            return obj
        rest = {k: v for k, v in doc.items() if k != "spec"}
        named = _rest_key(rest)
        if named is not None:
            template = self.rests.get(named[0])
            if template is not None:  # (the same fields but the name and uid, which decode alone)
                meta = attrs.evolve(template.metadata, **{field: _dec_str(value, "") for field, value in named[1]})
                return attrs.evolve(template, metadata=meta, spec=shared)
        obj = cls.from_dict(rest, path=where)
        if named is not None:
            if len(self.rests) >= _RESTS_MAX:
                self.rests.clear()
            self.rests[named[0]] = obj
        return attrs.evolve(obj, spec=shared)


#: the bound of ``_SharedSpecs.rests`` (cleared when full)
_RESTS_MAX = 1 << 14


def _rest_key(rest: dict[str, Any]) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """A key for a pod's fields but its spec in which its own name and uid are left out, with
    those (ObjectMeta field, value): pods whose keys are equal decode to the same pod but those
    two strings (each decoded alone, ``_dec_str``: no other field reads them). None when the
    name or uid is not a string (the whole decode reports it), or under Go's case-folding JSON
    rules (``_GO_JSON``: another key could stand for them)."""
    meta = rest.get("metadata")
    if type(meta) is not dict or _GO_JSON.get():
        return None
    own = []
    for key in ("name", "uid"):  # (ObjectMeta's fields of the same names)
        if key in meta:
            value = meta[key]
            if type(value) is not str:
                return None
            own.append((key, value))
    if not own:
        return None
    return repr({**rest, "metadata": {**meta, **{key: ... for key, _ in own}}}), tuple(own)


@attrs.define(eq=False)
class _Reader:
    """Reads a dump's items one by one, keeping what loads and reporting the rest."""

    source: str
    #: keep Deployments and DaemonSets and run kube-controller-manager (``load_cluster_dump``)
    controllers: bool = False
    report: ReportBuilder = attrs.field(factory=ReportBuilder)
    located: list[tuple[str, Any]] = attrs.field(factory=list)
    seen: dict[tuple[str, str] | None, str] = attrs.field(factory=dict)
    skipped_kinds: Counter[str] = attrs.field(factory=Counter)
    converted: Counter[tuple[str, str]] = attrs.field(factory=Counter)
    skipped: list[SkippedItem] = attrs.field(factory=list)
    specs: _SharedSpecs = attrs.field(factory=lambda: _SharedSpecs())

    def item(self, where: str, doc: Any) -> None:
        if isinstance(doc, _Bad):
            self.skipped.append(SkippedItem(where, doc.reason))
            return
        if not isinstance(doc, dict):
            self.skipped.append(SkippedItem(where, f"expected a Kubernetes object (a mapping), got "
                                                   f"{type(doc).__name__} {_short(doc)}"))
            return
        kind, api_version = doc.get("kind"), doc.get("apiVersion")
        if not isinstance(kind, str) or not kind:
            self.skipped.append(SkippedItem(where, f"kind: required (a Kubernetes object names its kind), got "
                                                   f"{_short(kind)}"))
            return
        if kind not in USED_KINDS and not (self.controllers and kind in CONTROLLER_KINDS):
            self.skipped_kinds[kind] += 1
            return
        to = CONVERSIONS.get((str(api_version), kind))
        if to is not None:
            doc = {**doc, "apiVersion": to}
        self._object(where, kind, doc, f"{api_version} {kind}" if to else "", to or "")

    def _object(self, where: str, kind: str, doc: dict[str, Any], conversion: str, to: str) -> None:
        changes = []
        spec_key = None
        if kind == "Pod":
            doc, changes = adapt_pod(doc)
            spec_key = self.specs.key_of(doc)
        try:
            obj = (self.specs.decode(KINDS[kind], doc, where, spec_key) if kind == "Pod"
                   else KINDS[kind].from_dict(doc, path=where))
        except ManifestError as err:
            self.skipped.append(SkippedItem(where, ": ".join(p for p in (err.obj, err.path, err.msg) if p)))
            return
        problem = api_validation_error(obj)
        if problem:
            self.skipped.append(SkippedItem(where, f"{problem} (1.6's API server refuses it)"))
            return
        ident = _identity(kind, obj)
        if ident in self.seen:
            self.skipped.append(SkippedItem(where, f'{kind} "{ident[1]}" is also {self.seen[ident]}: the later item '
                                                   "is skipped (1.6's API server answers AlreadyExists to a second create)"))
            return
        if ident is not None:
            self.seen[ident] = where
        if conversion:
            self.converted[(conversion, to)] += 1
        key = ident[1] if ident is not None else f"{obj.metadata.namespace or 'default'}/{obj.metadata.generate_name}*"
        for change in changes:
            self.report.add(change.part, kind, change.field, key, change.action, change.why)
        self._fields(kind, doc, key, spec_key)
        self.located.append((where, obj))

    def _fields(self, kind: str, doc: dict[str, Any], key: str, spec_key: str | None = None) -> None:
        for category, path in self.specs.classify(kind, doc, KINDS[kind], spec_key):
            if category == UNMODELLED:
                self.report.add(NOT_MODELLED, kind, path, key)
            elif category == NEW:
                note = scheduling_note(kind, path)
                self.report.add(SCHEDULING if note else NOT_IN_1_6, kind, path, key, "ignored", note)
        if kind == "Node":
            self._node(doc, key)

    def _node(self, doc: dict[str, Any], key: str) -> None:
        status = doc.get("status") if isinstance(doc.get("status"), dict) else {}
        for section in ("capacity", "allocatable"):
            for name in status.get(section) or {}:
                if name not in _NODE_RESOURCES_1_6 and not str(name).startswith(_OPAQUE):
                    self.report.add(NOT_IN_1_6, "Node", f"status.{section}[{name}]", key,
                                    "kept; the 1.6 scheduler does not read it", _NODE_RESOURCE_WHY)
        labels = (doc.get("metadata") or {}).get("labels") or {}
        for new, old in ((ZONE_NEW, ZONE_1_6), (REGION_NEW, REGION_1_6)):
            if new in labels and old not in labels:
                self.report.add(SCHEDULING, "Node", f"metadata.labels[{new}] without {old}", key,
                                "not read by 1.6", _ZONE_WHY)

    def finish(self, name: str) -> tuple[Scenario, DumpReport]:
        objects = [obj for _, obj in self.located]
        nodes = {o.metadata.name for o in objects if type(o).kind == "Node"}
        pods = [o for o in objects if type(o).kind == "Pod"]
        if not nodes:
            n = len(self.skipped)
            skipped = f"; {n} item{'s' if n != 1 else ''} skipped, the first: {self.skipped[0].line()}" if n else ""
            raise ScenarioError(f"{self.source}: no Node objects: a dump needs `kubectl get nodes,pods,... -o yaml`"
                                + skipped)
        ghosts = tuple((f"{p.metadata.namespace or 'default'}/{p.metadata.name}", p.spec.node_name)
                       for p in pods if p.spec.node_name and p.spec.node_name not in nodes)
        # nodes first, then bound pods, then the rest: the scheduler starts from a full cache
        order = {"Node": 0, "Pod": 2}
        objects.sort(key=lambda o: (order.get(type(o).kind, 1), 0 if type(o).kind != "Pod" or o.spec.node_name else 1))
        pending = [p for p in pods if not p.spec.node_name]
        scenario = Scenario(
            name=name or Path(self.source).stem, description=f"replay of {self.source}", duration=60.0,
            follow=f"{pending[0].metadata.namespace or 'default'}/{pending[0].metadata.name}" if pending else "",
            schedulers=(SchedulerSpec("scheduler-0", ("--leader-elect=false",)),),
            objects=tuple(objects), source=self.source, snapshot_every=1 if len(objects) <= 300 else 50,
            controller_manager=DUMP_CONTROLLER_MANAGER if self.controllers else None,
            objects_checked=True,  # every kept item went through api_validation_error
        )
        scheduling = self.report.findings(SCHEDULING) + ((ghost_finding(ghosts),) if ghosts else ())
        report = DumpReport(
            source=self.source, nodes=len(nodes), bound_pods=len(pods) - len(pending), pending_pods=len(pending),
            other_objects=len(objects) - len(nodes) - len(pods),
            changes_scheduling=scheduling, not_in_1_6=self.report.findings(NOT_IN_1_6),
            not_modelled=self.report.findings(NOT_MODELLED),
            skipped_kinds=tuple(sorted(self.skipped_kinds.items())), skipped_items=tuple(self.skipped),
            conversions=tuple(sorted((f, t, n) for (f, t), n in self.converted.items())), ghost_pods=ghosts,
        )
        return scenario, report


def load_cluster_dump(text_or_path: str | os.PathLike[str], *, name: str = "",
                      controllers: bool = False) -> tuple[Scenario, DumpReport]:
    """Parse a dump (a path, or the YAML/JSON text itself) into a scenario plus its report.

    ``controllers``: also keep the Deployments and DaemonSets (as their 1.6 kinds) and run 1.6's
    kube-controller-manager (:data:`DUMP_CONTROLLER_MANAGER`), which keeps every ReplicaSet,
    Deployment, DaemonSet and StatefulSet at its count (the dump's UIDs are kept, so the pods'
    ownerReferences still name their controllers)."""
    text, source = _read(text_or_path)
    reader = _Reader(source, controllers)
    # everything decoded here is kept: a cyclic collection could only walk it (sim/gc_policy.py)
    with no_collections():
        for i, doc in enumerate(_documents(text, source), start=1):
            if doc is None:
                continue
            for where, item in _items(f"{source}: document {i}", doc, 0):
                reader.item(where, item)
        return reader.finish(name)


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


__all__ = ["CONTROLLER_KINDS", "DUMP_CONTROLLER_MANAGER", "DumpReport", "load_cluster_dump", "CONVERSIONS", "USED_KINDS"]

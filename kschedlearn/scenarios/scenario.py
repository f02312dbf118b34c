"""Scenario files: a cluster (manifests), scheduler replicas with their flags, and a timeline.

Go: none — kschedlearn-only. A scenario is YAML, one mapping per file::

    name: three-nodes
    description: One pod's whole journey through the scheduler's queues.
    duration: 40            # virtual seconds to simulate at most
    follow: default/web-1   # the pod the views highlight
    snapshot_every: 1       # optional: snapshot every N events (big scenarios run faster)
    feature_gates: AffinityInAnnotations=true   # optional: --feature-gates for every replica
    assume: true            # optional, kschedlearn-only: false = scheduleOne skips AssumePod
    schedulers:             # replicas of kube-scheduler, each a process of its own
      - name: scheduler-0
        flags: ["--leader-elect=false"]
    objects:                # Kubernetes manifests created before anything starts
      - {kind: Node, metadata: {name: node-1}, status: {allocatable: {cpu: "2", ...}}}
    files:                  # optional: name → content, written to a directory whose path
      policy.json: |        # replaces "{files}" in the schedulers' flags ("{extender}" in a file:
                            # the URL of kschedlearn's example extender, scenarios/example_extender.py)
        {"kind": "Policy", "apiVersion": "v1", "predicates": [...], "priorities": [...]}
    timeline:               # actions at virtual times (seconds; an entry without at: runs at 0)
      - at: 2
        create: {kind: Pod, metadata: {name: web-1}, spec: {...}}
      - at: 5
        fault: {stall_watches: {resource: pods, duration: 40}}

Actions: ``create`` (a manifest), ``delete`` (``pod NS/NAME`` or ``node NAME``), ``cordon`` /
``uncordon`` (a node name), ``fault`` (``fail_next``, ``delay_next``, ``close_watches``,
``stall_watches``, ``expire_watch_window``), ``kill`` (a scheduler replica's name).
Errors name the file, the document and the field, e.g.
``three-nodes.yaml: timeline[2].create: Pod default/web-1: spec.containers[0]...``.
"""

from __future__ import annotations

import hashlib
import math
import importlib.resources
import tempfile
from pathlib import Path
from typing import Any

import attrs
from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1.yaml_load import YAMLProblem, decode_manifest, yaml_documents
from kschedlearn.scenarios.validate import check_fault, check_references

FILES_PLACEHOLDER = "{files}"
ACTIONS = ("create", "delete", "cordon", "uncordon", "fault", "kill")
FAULTS = ("fail_next", "delay_next", "close_watches", "stall_watches", "expire_watch_window")


class ScenarioError(ValueError):
    """A scenario file that cannot be used; the message names file, document and field."""


@attrs.frozen
class SchedulerSpec:
    """One kube-scheduler replica: its name (hostname / process) and command-line flags."""

    name: str
    flags: tuple[str, ...] = ()


@attrs.frozen
class Action:
    """One timeline entry: at virtual time ``at``, do ``kind`` with ``arg``."""

    at: float
    kind: str
    arg: Any


@attrs.frozen
class Scenario:
    """A parsed scenario (see the module docstring for the file format)."""

    name: str
    description: str = ""
    duration: float = 60.0
    follow: str = ""
    schedulers: tuple[SchedulerSpec, ...] = (SchedulerSpec("scheduler-0", ("--leader-elect=false",)),)
    objects: tuple[Any, ...] = ()
    timeline: tuple[Action, ...] = ()
    source: str = ""
    files: tuple[tuple[str, str], ...] = ()
    snapshot_every: int = 1
    feature_gates: str = ""
    #: kschedlearn-only switch (no such option in Kubernetes): False makes every replica skip
    #: AssumePod (see :mod:`kschedlearn.simulation.no_assume`)
    assume: bool = True

    def files_dir(self) -> Path:
        """Write the scenario's ``files:`` to disk; returns their directory.

        The directory is named after a hash of the contents (under the system temp dir), so the
        same scenario always gets the same path: flags, and with them the trace, stay
        byte-identical from run to run. ``{extender}`` in a file is replaced by the URL of the
        process's example extender (:mod:`kschedlearn.scenarios.example_extender`), started on
        first use; its port is the OS's choice, so such a scenario's path is the same within one
        Python process only.
        """
        from kschedlearn.scenarios.example_extender import substitute

        files = tuple((name, substitute(content)) for name, content in self.files)
        digest = hashlib.sha256(repr(files).encode("utf-8")).hexdigest()[:16]
        folder = Path(tempfile.gettempdir()) / f"kschedlearn-files-{digest}"
        folder.mkdir(parents=True, exist_ok=True)
        for name, content in files:
            target = folder / name
            if not target.is_file() or target.read_text(encoding="utf-8") != content:
                target.write_text(content, encoding="utf-8")
        return folder

    def flags_for(self, spec: SchedulerSpec) -> tuple[str, ...]:
        """``spec.flags`` with ``{files}`` replaced by :meth:`files_dir` (written on first use),
        after ``--feature-gates=<feature_gates>`` when the scenario sets gates (so a replica's own
        ``--feature-gates`` flag, parsed later, can still change them)."""
        flags = spec.flags
        if self.feature_gates:
            flags = (f"--feature-gates={self.feature_gates}", *flags)
        if not any(FILES_PLACEHOLDER in f for f in flags):
            return flags
        folder = str(self.files_dir())
        return tuple(f.replace(FILES_PLACEHOLDER, folder) for f in flags)


MAX_DURATION = 86_400.0
"""Longest virtual run (one day): an idle cluster still ticks every second (assumed-pod cleanup,
leader-election renewals), so a year of virtual time would take days of real time."""


def bundled_names() -> list[str]:
    """Names of the scenarios shipped with kschedlearn."""
    folder = importlib.resources.files("kschedlearn.scenarios") / "data"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


def load_scenario(name_or_path: str | Path) -> Scenario:
    """Load a bundled scenario by name, or a scenario file by path."""
    if not isinstance(name_or_path, (str, Path)) or str(name_or_path) == "":
        raise ScenarioError(f"scenario: expected a bundled scenario's name or a file path, got {name_or_path!r} "
                            f"(bundled ones: {', '.join(bundled_names())})")
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") or path.exists():
        if not path.exists():
            raise ScenarioError(f"{path}: no such scenario file")
        if not path.is_file():
            raise ScenarioError(f"{path}: is a folder, not a scenario file")
        return parse_scenario(_read_text(path), source=path.name)
    bundled = importlib.resources.files("kschedlearn.scenarios") / "data" / f"{name_or_path}.yaml"
    if not bundled.is_file():
        raise ScenarioError(
            f"unknown scenario {str(name_or_path)!r}; bundled ones: {', '.join(bundled_names())}")
    return parse_scenario(bundled.read_text(encoding="utf-8"), source=f"{name_or_path}.yaml")


def _read_text(path: Path) -> str:
    """A scenario file's text: UTF-8, at most the YAML size limit (checked before reading it all)."""
    from kschedlearn.api.v1.yaml_load import MAX_YAML_CHARS

    size = path.stat().st_size
    if size > MAX_YAML_CHARS:
        raise ScenarioError(f"{path}: the file is {size:,} bytes; the limit is {MAX_YAML_CHARS:,}")
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as err:
        raise ScenarioError(f"{path}: not UTF-8 text (byte {err.start}: {err.object[err.start:err.start + 1]!r})") from None
    except OSError as err:
        raise ScenarioError(f"{path}: cannot read the file: {err.strerror}") from None


def parse_scenario(text: str, *, source: str = "<scenario>") -> Scenario:
    """Parse scenario YAML text (the whole file is one YAML document)."""
    try:
        docs = yaml_documents(text)
    except YAMLProblem as err:
        raise ScenarioError(f"{source}: {err}") from None
    if len(docs) > 1:
        raise ScenarioError(f"{source}: expected one YAML document, got {len(docs)}")
    doc = docs[0] if docs else None
    if not isinstance(doc, dict):
        raise ScenarioError(f"{source}: a scenario must be a mapping, got {type(doc).__name__}")
    known = {"name", "description", "duration", "follow", "schedulers", "objects", "timeline", "files",
             "snapshot_every", "feature_gates", "assume"}
    if "seed" in doc:
        # the seed belongs to the run, not the file: the same scenario is replayed under many
        raise ScenarioError(f"{source}: seed: a scenario file does not choose its seed; pass seed= to "
                            "Simulation.from_scenario(...) or --seed to the kschedlearn command")
    for key in doc:
        if key not in known:
            raise ScenarioError(f"{source}: {key}: unknown field (expected one of {', '.join(sorted(known))})")
    scenario = Scenario(
        name=_str(doc, "name", source, default=Path(source).stem),
        description=_str(doc, "description", source, default=""),
        duration=_number(doc.get("duration", 60.0), f"{source}: duration"),
        follow=_str(doc, "follow", source, default=""),
        schedulers=_schedulers(doc.get("schedulers"), source),
        objects=tuple(_manifest(m, f"{source}: objects[{i}]") for i, m in enumerate(_list(doc.get("objects"), f"{source}: objects"))),
        timeline=tuple(_action(a, f"{source}: timeline[{i}]") for i, a in enumerate(_list(doc.get("timeline"), f"{source}: timeline"))),
        source=source,
        files=_files(doc.get("files"), source),
        snapshot_every=_positive_int(doc.get("snapshot_every", 1), f"{source}: snapshot_every"),
        feature_gates=_str(doc, "feature_gates", source, default=""),
        assume=_bool(doc.get("assume", True), f"{source}: assume"),
    )
    if scenario.duration <= 0:
        raise ScenarioError(f"{source}: duration: expected a number of seconds > 0, got {doc.get('duration')!r}")
    for i, action in enumerate(scenario.timeline):
        if action.at > scenario.duration:
            raise ScenarioError(f"{source}: timeline[{i}].at: {action.at:g} is after the scenario's end "
                                f"(duration: {scenario.duration:g}); it would never happen")
    if scenario.duration > MAX_DURATION:
        raise ScenarioError(f"{source}: duration: {doc.get('duration')!r} seconds is more than kschedlearn "
                            f"simulates ({MAX_DURATION:g} s, one virtual day)")
    problem = check_references(scenario, source)
    if problem:
        raise ScenarioError(problem)
    return scenario


def _positive_int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ScenarioError(f"{where}: expected a whole number >= 1, got {value!r}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"{where}: expected true or false, got {value!r}")
    return value


def _files(value: Any, source: str) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        raise ScenarioError(f"{source}: files: expected a mapping of file name to content, got {type(value).__name__}")
    out = []
    for name, content in value.items():
        if (not isinstance(name, str) or not name or "/" in name or "\\" in name or name in (".", "..")
                or not name.isprintable()):
            raise ScenarioError(f"{source}: files: {name!r}: expected a plain file name (no directories)")
        if not isinstance(content, str):
            raise ScenarioError(f"{source}: files.{name}: expected the file's text, got {type(content).__name__}")
        out.append((name, content))
    return tuple(sorted(out))


def _str(doc: dict[str, Any], key: str, source: str, default: str) -> str:
    value = doc.get(key, default)
    if not isinstance(value, str):
        raise ScenarioError(f"{source}: {key}: expected a string, got {value!r}")
    return value


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ScenarioError(f"{where}: expected a number of seconds, got {value!r}")
    if value < 0:
        raise ScenarioError(f"{where}: must not be negative, got {value!r}")
    return float(value)


def _list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ScenarioError(f"{where}: expected a list, got {type(value).__name__}")
    return value


def _schedulers(value: Any, source: str) -> tuple[SchedulerSpec, ...]:
    if value is None:
        return Scenario.__attrs_attrs__.schedulers.default  # type: ignore[attr-defined]
    out = []
    for i, item in enumerate(_list(value, f"{source}: schedulers")):
        where = f"{source}: schedulers[{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise ScenarioError(f"{where}.name: expected a string")
        for key in item:
            if key not in ("name", "flags"):
                raise ScenarioError(f"{where}.{key}: unknown field (expected name, flags)")
        flags = item.get("flags", [])
        if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
            raise ScenarioError(f"{where}.flags: expected a list of strings")
        out.append(SchedulerSpec(item["name"], tuple(flags)))
    return tuple(out)


def _manifest(value: Any, where: str) -> Any:
    from kschedlearn.scenarios.strict import unknown_field

    problem = unknown_field(value, where)  # a scenario file is strict at every depth
    if problem:
        raise ScenarioError(problem)
    try:
        return decode_manifest(value)
    except ManifestError as err:
        raise ScenarioError(f"{where}: {err}") from err
    except (TypeError, ValueError) as err:
        raise ScenarioError(f"{where}: {err}") from err


def _action(value: Any, where: str) -> Action:
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: expected a mapping with 'at' and one action")
    at = _number(value.get("at", 0), f"{where}.at")
    kinds = [k for k in value if k != "at"]
    if len(kinds) != 1 or kinds[0] not in ACTIONS:
        raise ScenarioError(f"{where}: expected exactly one of {', '.join(ACTIONS)}, got {', '.join(kinds) or 'none'}")
    kind = kinds[0]
    arg = value[kind]
    if kind == "create":
        arg = _manifest(arg, f"{where}.create")
    elif kind == "delete":
        if not isinstance(arg, str) or arg.split(" ")[0] not in ("pod", "node") or len(arg.split(" ")) != 2:
            raise ScenarioError(f"{where}.delete: expected 'pod NAMESPACE/NAME' or 'node NAME', got {arg!r}")
    elif kind in ("cordon", "uncordon", "kill"):
        if not isinstance(arg, str):
            raise ScenarioError(f"{where}.{kind}: expected a name, got {arg!r}")
    elif kind == "fault":
        if not isinstance(arg, dict) or len(arg) != 1 or next(iter(arg)) not in FAULTS:
            raise ScenarioError(f"{where}.fault: expected one of {', '.join(FAULTS)}")
        params = next(iter(arg.values())) or {}
        if not isinstance(params, dict):
            raise ScenarioError(f"{where}.fault.{next(iter(arg))}: expected a mapping of parameters")
        problem = check_fault(next(iter(arg)), params, f"{where}.fault")
        if problem:
            raise ScenarioError(problem)
    return Action(at, kind, arg)

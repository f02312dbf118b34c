"""The adversarial corpus, second pass: inputs ``test_bad_input_corpus.py`` does not try.

Same rules as the first corpus: each case asserts the exact error class and the fragments naming
the object, the field and the value; no raw Python exception from project internals, nothing
accepted silently, nothing that hangs. Notebook-API cases also check that the session is intact
afterwards (cursor, recorded history and injections unchanged; ``step()`` still works).

Cases that found a defect when they were written are marked ``(defect)`` in their ids' table
comments; the others pin behaviour that was already right.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.api.errors import ManifestError
from kschedlearn.api.v1.yaml_load import MAX_YAML_CHARS, load_manifests
from kschedlearn.cli import main
from kschedlearn.scenarios.scenario import Action, ScenarioError, parse_scenario
from kschedlearn.simulation.arguments import SimulationError
from kschedlearn.simulation.checks import UnknownNameError

from tests.test_bad_input_corpus import RAW, _raises  # noqa: E402  (the corpus's own checks)


class IndexLike:
    """An integer that is not an ``int`` (numpy's ``int64`` behaves so)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


# -- the notebook API: a live session ----------------------------------------------------------

@pytest.fixture(scope="module")
def sim():
    s = Simulation.from_scenario("three-nodes", snapshots=False)
    for _ in range(6):
        s.step()
    return s


def _with_follow(value: Any, call: Callable[[Simulation], Any]) -> Callable[[Simulation], Any]:
    def run(s: Simulation) -> Any:
        before = s.follow
        s.follow = value
        try:
            return call(s)
        finally:
            s.follow = before
    return run


BIG = 1e300
NOTEBOOK = [
    # (defect) a non-callable predicate was a TypeError at the first event
    ("run-until-int", lambda s: s.run_until(3), SimulationError, ("run_until", "predicate", "3", "int")),
    # (defect) the learner's exception escaped inside a simulated goroutine and killed its process
    ("run-until-raises", lambda s: s.run_until(lambda ev: 1 / 0), SimulationError,
     ("run_until", "predicate raised ZeroDivisionError", "division by zero", "at event")),
    ("run-until-raises-later", lambda s: s.run_until(lambda ev: ev.seq > 20 and {}["missing"]), SimulationError,
     ("run_until", "KeyError", "'missing'")),
    # (defect) names that are not strings: AttributeError 'int' object has no attribute 'lower'
    ("run-until-stage-int", lambda s: s.run_until(stage=3), SimulationError, ("run_until", "stage", "3")),
    ("run-until-pod-int", lambda s: s.run_until(pod=3), SimulationError, ("run_until", "pod", "3")),
    ("run-until-node-list", lambda s: s.run_until(node=["node-1"]), SimulationError, ("run_until", "node", "['node-1']")),
    ("breakpoint-int", lambda s: s.add_breakpoint(3), SimulationError, ("add_breakpoint", "stage", "3")),
    ("breakpoint-pod-dict", lambda s: s.add_breakpoint(pod={"a": 1}), SimulationError, ("add_breakpoint", "pod", "{'a': 1}")),
    ("goto-huge", lambda s: s.goto(10**30), SimulationError, ("goto", str(10**30), "ends with event")),
    ("goto-index-like-negative", lambda s: s.goto(IndexLike(-2)), SimulationError, ("goto", "start at 0", "-2")),
    ("back-none", lambda s: s.back(None), SimulationError, ("back", "steps", "None")),
    # (defect) far beyond Go's longest time.Duration: virtual time stuck at 1e300 (t + 30 == t)
    ("run-for-huge", lambda s: s.run_for(BIG), SimulationError, ("run_for", "seconds", "1e+300", "time.Duration")),
    ("jump-huge", lambda s: s.inject.jump_clock(BIG), SimulationError, ("jump_clock", "seconds", "1e+300")),
    ("stall-huge", lambda s: s.inject.stall_watch(BIG), SimulationError, ("stall_watch", "seconds", "1e+300")),
    ("jump-bool", lambda s: s.inject.jump_clock(True), SimulationError, ("jump_clock", "seconds", "True")),
    # (defect) conflict="yes" was silently truthy
    ("fail-bind-conflict-str", lambda s: s.inject.fail_next_bind(1, conflict="yes"), SimulationError,
     ("fail_next_bind", "conflict", "'yes'")),
    ("fail-bind-index-like-zero", lambda s: s.inject.fail_next_bind(IndexLike(0)), SimulationError,
     ("fail_next_bind", "n", "0")),
    # (defect) decision("") silently answered for the followed pod
    ("decision-empty", lambda s: s.decision(""), SimulationError, ("decision", "pod ''", "empty")),
    ("decision-bytes", lambda s: s.decision(b"default/web-1"), SimulationError, ("decision", "pod", "b'default/web-1'")),
    ("kill-int", lambda s: s.inject.kill_scheduler(3), KeyError, ("kill_scheduler", "3", "scheduler-0")),
    ("cordon-empty", lambda s: s.inject.cordon(""), SimulationError, ("cordon", "node", "''")),
    ("delete-pod-upper", lambda s: s.inject.delete_pod("default/Web-1"), SimulationError, ("delete_pod", "'default/Web-1'")),
    ("add-node-memory-int", lambda s: s.inject.add_node("node-9", memory=8), SimulationError,
     ("add_node", "memory", "expected a string", "int")),
    ("add-node-pods-bad", lambda s: s.inject.add_node("node-9", pods="many"), SimulationError,
     ("add_node", "pods", '"many"')),
    ("add-pod-labels-list", lambda s: s.inject.add_pod({"metadata": {"name": "x", "labels": [1]}}), ManifestError,
     ("Pod x", "metadata.labels", "list")),
    # (defect) apply_external of a non-Action recorded the injection, then AttributeError: the
    # next replay (any later fork) failed too
    ("apply-int", lambda s: s.apply_external(3), SimulationError, ("apply_external", "Action", "3", "int")),
    ("apply-none", lambda s: s.apply_external(None), SimulationError, ("apply_external", "None")),
    ("apply-kind", lambda s: s.apply_external(Action(at=0, kind="explode", arg=None)), SimulationError,
     ("apply_external", "action.kind", "'explode'")),
    ("apply-delete-int", lambda s: s.apply_external(Action(at=0, kind="delete", arg=3)), SimulationError,
     ("apply_external", "action.arg", "delete", "3")),
    ("apply-delete-words", lambda s: s.apply_external(Action(at=0, kind="delete", arg="pod a b")), SimulationError,
     ("apply_external", "action.arg", "'pod a b'")),
    ("apply-create-dict", lambda s: s.apply_external(Action(at=0, kind="create", arg={"kind": "Pod"})), SimulationError,
     ("apply_external", "action.arg", "create", "{'kind': 'Pod'}")),
    ("apply-clock-negative", lambda s: s.apply_external(Action(at=0, kind="clock", arg=-5)), SimulationError,
     ("apply_external", "action.arg", "clock", "-5")),
    ("apply-fault-str", lambda s: s.apply_external(Action(at=0, kind="fault", arg="melt")), SimulationError,
     ("apply_external", "action.arg", "fault", "'melt'")),
    ("apply-kill-int", lambda s: s.apply_external(Action(at=0, kind="kill", arg=7)), SimulationError,
     ("apply_external", "action.arg", "kill", "7")),
    # (defect) IsADirectoryError / FileNotFoundError / TypeError tracebacks
    ("export-folder", lambda s: s.export_json(Path(__file__).parent), SimulationError, ("export_json", "path", "is a folder")),
    ("export-missing-folder", lambda s: s.export_json("/missing/dir/x.json"), SimulationError,
     ("export_json", "'/missing/dir/x.json'", "'/missing/dir'", "does not exist")),
    ("export-int", lambda s: s.export_json(3), SimulationError, ("export_json", "path", "3", "int")),
    ("export-empty", lambda s: s.export_json(""), SimulationError, ("export_json", "path", "''")),
    # (defect) an unknown followed pod matched nothing: step('pod') ran the scenario to its end
    ("step-pod-unknown-follow", _with_follow("default/ghost", lambda s: s.step("pod")), UnknownNameError,
     ("step('pod'): sim.follow", "unknown pod", "'default/ghost'")),
    ("step-pod-follow-int", _with_follow(3, lambda s: s.step("pod")), SimulationError, ("step('pod')", "follow", "3")),
    ("step-granularity-none-list", lambda s: s.step(["event"]), SimulationError, ("granularity", "['event']")),
    # checked before anything is bound or written
    ("serve-token-int", lambda s: s.serve(token=3), ValueError, ("serve", "token", "3")),
    ("serve-token-space", lambda s: s.serve(token="a b"), ValueError, ("serve", "token", "'a b'")),
    ("serve-token-newline", lambda s: s.serve(token="abc\nX-Evil: 1"), ValueError, ("serve", "token", "X-Evil")),
    ("serve-kubeconfig-int", lambda s: s.serve(kubeconfig=3), ValueError, ("serve", "kubeconfig", "3")),
    ("serve-port-float", lambda s: s.serve(port=80.0), ValueError, ("serve", "port", "80.0")),
]


def _state(s: Simulation) -> tuple[Any, ...]:
    return (s.cursor, [(e.seq, e.stage, e.message) for e in s.trace[: s.cursor + 1]], list(s._injections),
            s.follow, len(s.breakpoints))


@pytest.mark.parametrize("call, error, fragments", [c[1:] for c in NOTEBOOK], ids=[c[0] for c in NOTEBOOK])
def test_notebook_api(sim, call, error, fragments):
    before = _state(sim)
    crashes = len(sim.crashes)
    _raises(lambda: call(sim), error, fragments)
    assert _state(sim) == before
    assert sim.serving is None
    ev = sim.step()  # the session still works
    assert ev is None or ev.seq > before[0]
    assert len(sim.crashes) == crashes  # no simulated process died of the bad call


def test_a_raising_predicate_kills_no_simulated_process():
    """The first version of this case left ``workload exited: ZeroDivisionError`` in the trace."""
    s = Simulation.from_scenario("three-nodes", snapshots=False)
    for _ in range(6):
        s.step()
    cursor = s.cursor
    with pytest.raises(SimulationError, match="predicate raised ZeroDivisionError"):
        s.run_until(lambda ev: ev.seq > 12 and 1 / 0)
    assert not [e for e in s.trace if e.stage == "process.crash"]
    assert s.cursor == cursor
    assert s.run_until("selectHost").stage == "selectHost"  # the scheduler still schedules


def test_integer_like_arguments_are_accepted(sim):
    """numpy-style integers (``__index__``) are whole numbers for goto/back."""
    assert sim.goto(IndexLike(2)).seq == 2
    assert sim.back(IndexLike(1)) is not None
    assert sim.goto(IndexLike(5)).seq == 5


SHOW = [
    # (defect) an unknown renderer was accepted; the error came when Jupyter first drew the view
    ("show-renderer", lambda s: s.show("cache", renderer="ascii"), SimulationError, ("show", "renderer", "'ascii'")),
    ("show-view-typo", lambda s: s.show("cach"), SimulationError, ("show", "view", "'cach'", "did you mean 'cache'")),
    ("show-view-int", lambda s: s.show(3), SimulationError, ("show", "view", "3")),
    ("show-decision-pod", lambda s: s.show("decision", pod="default/ghost"), SimulationError,
     ("decision", "'default/ghost'", "did you mean")),
]


@pytest.fixture(scope="module")
def drawn():
    s = Simulation.from_scenario("three-nodes")
    for _ in range(6):
        s.step()
    return s


@pytest.mark.parametrize("call, error, fragments", [c[1:] for c in SHOW], ids=[c[0] for c in SHOW])
def test_show(drawn, call, error, fragments):
    before = _state(drawn)
    _raises(lambda: call(drawn), error, fragments)
    assert _state(drawn) == before
    assert drawn.show("cache").title == "cache"  # the session still draws


# -- the notebook API: constructors and loaders ------------------------------------------------------

def test_integer_like_keywords_become_ints():
    """A numpy-style seed used to reach ``random.Random`` as is (a TypeError at the first step)."""
    s = Simulation.from_scenario("three-nodes", seed=IndexLike(3), snapshot_every=IndexLike(2), snapshots=False)
    assert (type(s.seed), s.seed, s.snapshot_every) == (int, 3, 2)
    assert s.step() is not None


def _three(**kwargs: Any) -> Callable[[], Any]:
    return lambda: Simulation.from_scenario("three-nodes", **kwargs)


def _plain(**kwargs: Any) -> Callable[[], Any]:
    from kschedlearn.scenarios.scenario import load_scenario

    return lambda: Simulation(scenario=load_scenario("three-nodes"), **kwargs)


CONSTRUCT = [
    # (defect) every one of these was accepted; snapshot_every=0 or assume="no" misbehaved later
    ("seed-str", _three(seed="x"), SimulationError, ("Simulation", "seed", "'x'")),
    ("seed-float", _three(seed=1.5), SimulationError, ("Simulation", "seed", "1.5")),
    ("seed-bool", _three(seed=True), SimulationError, ("Simulation", "seed", "True")),
    ("seed-none", _three(seed=None), SimulationError, ("Simulation", "seed", "None")),
    ("seed-huge", _three(seed=2**80), SimulationError, ("Simulation", "seed", str(2**80))),
    ("snapshot-every-zero", _three(snapshot_every=0), SimulationError, ("Simulation", "snapshot_every", "0")),
    ("snapshot-every-negative", _three(snapshot_every=-1), SimulationError, ("Simulation", "snapshot_every", "-1")),
    ("snapshot-every-str", _three(snapshot_every="x"), SimulationError, ("Simulation", "snapshot_every", "'x'")),
    ("snapshot-every-float", _three(snapshot_every=1.5), SimulationError, ("Simulation", "snapshot_every", "1.5")),
    ("log-verbosity-str", _three(log_verbosity="x"), SimulationError, ("Simulation", "log_verbosity", "'x'")),
    ("log-verbosity-negative", _three(log_verbosity=-1), SimulationError, ("Simulation", "log_verbosity", "-1")),
    ("log-verbosity-huge", _three(log_verbosity=1000), SimulationError, ("Simulation", "log_verbosity", "1000")),
    ("assume-str", _three(assume="no"), SimulationError, ("Simulation", "assume", "'no'")),
    ("follow-int", _three(follow=3), SimulationError, ("Simulation", "follow", "3")),
    ("granularity", _three(granularity="stages"), SimulationError, ("Simulation", "granularity", "'stages'", "did you mean")),
    ("snapshots-str", _plain(snapshots="no"), SimulationError, ("Simulation", "snapshots", "'no'")),
    ("feature-gates-int", _three(feature_gates=3), SimulationError, ("Simulation", "feature_gates", "3")),
    # (defect) TypeError / IsADirectoryError / UnicodeDecodeError from pathlib and codecs
    ("from-scenario-int", lambda: Simulation.from_scenario(3), ScenarioError, ("scenario", "3", "bundled ones")),
    ("from-scenario-none", lambda: Simulation.from_scenario(None), ScenarioError, ("scenario", "None")),
    ("from-scenario-empty", lambda: Simulation.from_scenario(""), ScenarioError, ("scenario", "''")),
    ("load-trace-int", lambda: Simulation.load_trace(3), ValueError, ("trace", "3", "int")),
    ("load-trace-list", lambda: Simulation.load_trace("[1]"), ValueError, ("trace", "JSON object", "list")),
    ("load-trace-missing", lambda: Simulation.load_trace("/missing/trace.json"), ValueError,
     ("trace", "'/missing/trace.json'", "not a file")),
    ("from-manifests-int", lambda: Simulation.from_manifests(3), ScenarioError, ("<dump>", "3", "int")),
]


@pytest.mark.parametrize("call, error, fragments", [c[1:] for c in CONSTRUCT], ids=[c[0] for c in CONSTRUCT])
def test_constructor(call, error, fragments):
    _raises(call, error, fragments)


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "folder.yaml").mkdir()
    (tmp_path / "latin1.yaml").write_bytes("name: caf\xe9\n".encode("latin-1"))
    with open(tmp_path / "huge.yaml", "wb") as f:
        f.truncate(MAX_YAML_CHARS + 1)  # sparse: size is checked before anything is read
    return tmp_path


FILE_CASES = [
    ("scenario-folder", lambda d: Simulation.from_scenario(d / "folder.yaml"), ScenarioError, ("folder.yaml", "is a folder")),
    ("scenario-not-utf8", lambda d: Simulation.from_scenario(d / "latin1.yaml"), ScenarioError,
     ("latin1.yaml", "not UTF-8", "byte 9")),
    ("scenario-too-big", lambda d: Simulation.from_scenario(d / "huge.yaml"), ScenarioError,
     ("huge.yaml", f"{MAX_YAML_CHARS + 1:,} bytes", "the limit is")),
    ("trace-folder", lambda d: Simulation.load_trace(d / "folder.yaml"), ValueError, ("trace", "a folder")),
    ("manifests-folder", lambda d: Simulation.from_manifests(str(d)), ScenarioError, ("is a folder, not a dump file",)),
    ("manifests-not-utf8", lambda d: Simulation.from_manifests(d / "latin1.yaml"), ScenarioError,
     ("latin1.yaml", "not UTF-8")),
]


@pytest.mark.parametrize("call, error, fragments", [c[1:] for c in FILE_CASES], ids=[c[0] for c in FILE_CASES])
def test_files(files, call, error, fragments):
    _raises(lambda: call(files), error, fragments)


# -- YAML: alias bombs and recursive aliases ------------------------------------------------------------

LAUGHS = "".join(f"{c}: &{c} [{', '.join([f'*{p}'] * 9) if p else ', '.join(['lol'] * 9)}]\n"
                 for p, c in zip(["", *"abcdefgh"], "abcdefghi"))
YAML = [
    # (defect) 9 levels of 9 aliases: 204 s in the depth check before anything was refused
    ("billion-laughs", "kind: Pod\nmetadata: {name: p}\n" + LAUGHS, ("aliases", "expand", "the limit is")),
    ("billion-laughs-in-labels", "kind: Pod\nmetadata: {name: p, labels: {x: *i}}\n".replace("*i", "lol") + LAUGHS,
     ("aliases", "expand")),
    ("recursive-alias", "kind: Pod\nmetadata: {name: p}\nloop: &a [1, *a]\n", ("nested", "levels deep", "the limit is 64")),
    ("recursive-alias-map", "kind: Pod\nmetadata: &m {name: p, self: *m}\n", ("nested", "the limit is 64")),
]


@pytest.mark.parametrize("text, fragments", [c[1:] for c in YAML], ids=[c[0] for c in YAML])
def test_yaml(text, fragments):
    _raises(lambda: load_manifests(text), ManifestError, fragments)


def test_billion_laughs_in_a_scenario_is_refused():
    _raises(lambda: parse_scenario("name: x\n" + LAUGHS, source="bomb.yaml"), ScenarioError, ("bomb.yaml", "aliases"))


def test_shared_aliases_stay_accepted():
    """A node used twice through an alias is measured once, and accepted."""
    text = ("kind: Pod\nmetadata: {name: p, labels: &l {app: web}}\nspec: {nodeSelector: *l, containers: "
            "[{name: c, resources: {requests: &r {cpu: 100m}, limits: *r}}]}\n")
    (pod,) = load_manifests(text)
    assert pod.spec.node_selector == {"app": "web"}


# -- scenario files ---------------------------------------------------------------------------------------

NODE = "objects:\n  - {kind: Node, metadata: {name: node-1}}\n"
SCENARIOS = [
    # (defect) an action after the end never ran, silently
    ("at-after-end", "name: x\nduration: 10\n" + NODE + "timeline:\n  - {at: 20, cordon: node-1}\n",
     ("timeline[0].at", "20", "duration: 10")),
    ("at-bool", "name: x\n" + NODE + "timeline:\n  - {at: true, cordon: node-1}\n", ("timeline[0].at", "True")),
    ("at-list", "name: x\n" + NODE + "timeline:\n  - {at: [1], cordon: node-1}\n", ("timeline[0].at", "[1]")),
    ("at-null", "name: x\n" + NODE + "timeline:\n  - {at: null, cordon: node-1}\n", ("timeline[0].at", "None")),
    ("at-duration-text", "name: x\n" + NODE + "timeline:\n  - {at: 5s, cordon: node-1}\n", ("timeline[0].at", "'5s'")),
    # (defect) a year of virtual time took days of real time
    ("duration-year", "name: x\nduration: 31536000\n", ("duration", "31536000", "one virtual day")),
    ("duration-bool", "name: x\nduration: true\n", ("duration", "True")),
    ("duration-nan", "name: x\nduration: .nan\n", ("duration", "nan")),
    # (defect) a NUL in a files: name passed, then failed when the file was written
    ("files-nul", 'name: x\nfiles: {"a\\0b.json": "{}"}\n', ("files", "'a\\x00b.json'", "plain file name")),
    ("files-newline", 'name: x\nfiles: {"a\\nb.json": "{}"}\n', ("files", "plain file name")),
    ("files-etc-passwd", "name: x\nfiles: {/etc/passwd: x}\n", ("files", "'/etc/passwd'", "plain file name")),
    ("files-traversal-deep", "name: x\nfiles: {../../etc/passwd: x}\n", ("files", "'../../etc/passwd'")),
    ("files-backslash", "name: x\nfiles: {'..\\x': x}\n", ("files", "plain file name")),
    ("files-dotdot", "name: x\nfiles: {'..': x}\n", ("files", "'..'")),
    ("files-int-name", "name: x\nfiles: {3: x}\n", ("files", "3")),
    # (defect) an unknown key in a scheduler entry was ignored
    ("scheduler-unknown-field", "name: x\nschedulers: [{name: a, flag: [--v=4]}]\n", ("schedulers[0].flag", "unknown field")),
    ("scheduler-flags-str", "name: x\nschedulers: [{name: a, flags: --v=4}]\n", ("schedulers[0].flags", "list of strings")),
    ("scheduler-not-map", "name: x\nschedulers: [a]\n", ("schedulers[0].name", "expected a string")),
    ("two-faults", "name: x\ntimeline:\n  - {at: 1, fault: {close_watches: {}, stall_watches: {duration: 1}}}\n",
     ("timeline[0].fault", "expected one of")),
    ("fault-null", "name: x\ntimeline:\n  - {at: 1, fault: null}\n", ("timeline[0].fault",)),
    ("fail-next-bool-n", "name: x\ntimeline:\n  - {at: 1, fault: {fail_next: {verb: bind, n: true}}}\n",
     ("fail_next.n", "True")),
    ("delay-huge", "name: x\ntimeline:\n  - {at: 1, fault: {delay_next: {verb: bind, seconds: 1e300}}}\n",
     ("delay_next.seconds", "1e300")),
    # (defect) a resource the API server does not serve matched nothing: the fault never fired
    ("fail-next-resource-typo", "name: x\ntimeline:\n  - {at: 1, fault: {fail_next: {verb: bind, resource: podz}}}\n",
     ("fail_next.resource", "unknown resource 'podz'", "did you mean 'pods'")),
    ("delay-resource-kind", "name: x\ntimeline:\n  - {at: 1, fault: {delay_next: {verb: get, seconds: 1, resource: Node}}}\n",
     ("delay_next.resource", "'Node'", "nodes")),
    # (defect) 1.0e300 (a float to YAML) was accepted: virtual time could never reach the end of the delay
    ("delay-float-huge", "name: x\ntimeline:\n  - {at: 1, fault: {delay_next: {verb: bind, seconds: 1.0e+300}}}\n",
     ("delay_next.seconds", "time.Duration", "1e+300")),
    ("stall-float-huge", "name: x\ntimeline:\n  - {at: 1, fault: {stall_watches: {duration: 1.0e+300}}}\n",
     ("stall_watches.duration", "at most")),
    ("create-null", "name: x\ntimeline:\n  - {at: 1, create: null}\n", ("timeline[0].create", "NoneType")),
    ("objects-mapping", "name: x\nobjects: {a: b}\n", ("objects", "expected a list")),
    ("follow-bare-name", "name: x\nobjects:\n  - {kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: i}]}}\nfollow: p\n",
     ("follow", "'p'", "'default/p'")),
]


@pytest.mark.parametrize("text, fragments", [c[1:] for c in SCENARIOS], ids=[c[0] for c in SCENARIOS])
def test_scenario(text, fragments):
    _raises(lambda: parse_scenario(text, source="bad.yaml"), ScenarioError, ("bad.yaml",) + fragments)


# -- the command line ----------------------------------------------------------------------------------------

KS = ["kube-scheduler", "--scenario", "three-nodes"]
CLI = [
    # (defect) --duration 300000h is a valid Go duration: the run never ended
    (KS + ["--duration", "300000h"], 2, ("--duration", "'300000h'", "24h")),
    (KS + ["--duration", "25h"], 2, ("--duration", "'25h'")),
    (KS + ["--duration", "1e400s"], 2, ("--duration", "1e400s")),
    (KS + ["--duration", "nan"], 2, ("--duration", "nan")),
    (KS + ["--seed", "1.5"], 2, ("--seed", "'1.5'")),
    (KS + ["--seed", "9" * 30], 2, ("--seed",)),
    (KS + ["--v", "-1"], 2, ("--v", "'-1'")),
    (KS + ["--engine", "turbo"], 1, ("--engine", "'turbo'")),
    (["kube-scheduler", "--scenario", "folder.yaml"], 1, ("folder.yaml", "is a folder")),
    (["kube-scheduler", "--scenario", "latin1.yaml"], 1, ("latin1.yaml", "not UTF-8")),
    (["kube-scheduler", "--scenario", ""], 1, ("scenario", "''")),
    (["trace", "folder.yaml"], 1, ("folder.yaml", "is a folder")),
    (["trace", "latin1.yaml"], 1, ("latin1.yaml", "not UTF-8")),
    (["trace", ""], 1, ("scenario", "''")),
    (["trace", "three-nodes", "--until", ""], 1, ("--until", "''", "unknown stage")),
    (["render", "folder.yaml", "--view", "cache", "--step", "3", "-o", "-"], 1, ("folder.yaml", "is a folder")),
    (["render", "three-nodes", "--view", "cache", "--step", "3", "-o", "folder.yaml"], 2, ("-o folder.yaml", "is a directory")),
    # (defect) a .png name got SVG text
    (["render", "three-nodes", "--view", "cache", "--step", "3", "-o", "view.png"], 2, ("-o view.png", "SVG (.svg) or Graphviz DOT (.dot)", "'.png'")),
    # (defect) a ScenarioError traceback
    (["serve", "--from", "/missing/dump.yaml"], 1, ("--from /missing/dump.yaml", "cannot read the dump")),
    (["serve", "--from", "folder.yaml"], 1, ("--from folder.yaml", "is a folder")),
    (["serve", "three-nodes", "--kubeconfig", "folder.yaml", "--serve-for", "0.01"], 1, ("kubeconfig", "'folder.yaml'")),
]


@pytest.fixture()
def in_files(files, monkeypatch):
    monkeypatch.chdir(files)
    return files


@pytest.mark.parametrize("argv, status, fragments", CLI, ids=[f"c-{' '.join(c[0][1:])[:40]}" for c in CLI])
def test_cli(in_files, argv, status, fragments, capsys):
    assert main(argv) == status
    err = capsys.readouterr().err
    assert err.startswith("kschedlearn: error: ") and err.count("\n") == 1, err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    assert not any(raw in err for raw in RAW), err


ARGPARSE = [
    # (defect) an int64-overflowing seed ended in a SimulationError traceback
    (["trace", "three-nodes", "--seed", "9" * 30], "does not fit a 64-bit integer"),
    (["render", "three-nodes", "--view", "cache", "--step", "3", "-o", "-", "--seed", "-" + "9" * 30], "64-bit"),
    (["serve", "three-nodes", "--seed", "9" * 30], "64-bit"),
    (["serve", "three-nodes", "--seed", "x"], "expected a whole number, got 'x'"),
    (["trace", "three-nodes", "--seed", "1e3"], "expected a whole number, got '1e3'"),
]


@pytest.mark.parametrize("argv, fragment", ARGPARSE, ids=[f"a{i}" for i in range(len(ARGPARSE))])
def test_cli_usage_errors_exit_2(argv, fragment, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "usage: kschedlearn" in err and "--seed" in err and fragment in err and "Traceback" not in err


def test_a_policy_file_that_is_a_folder_kills_the_process_as_1_6_does(in_files, capsys):
    """Go: app/configurator.go Create — ``ioutil.ReadFile`` of a directory fails and the error ends
    in ``glog.Fatalf``; exit status 255 with Go's text, not a Python error."""
    assert main(KS + ["--policy-config-file", "folder.yaml", "--duration", "5s"]) == 255
    err = capsys.readouterr().err
    assert "unable to read policy config: read folder.yaml: is a directory" in err
    assert "Traceback" not in err


def test_the_corpus_is_large():
    total = (len(NOTEBOOK) + len(SHOW) + 3 + len(CONSTRUCT) + len(FILE_CASES) + len(YAML) + 2 + len(SCENARIOS) + len(CLI)
             + len(ARGPARSE) + 1)
    assert total >= 60, total

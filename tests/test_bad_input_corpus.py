"""The adversarial corpus: malformed input at every entry point gets a clear error.

Each case asserts the exact error class and that the message names the object, the field and
the value (the listed fragments); none may be a raw Python exception from project internals
(no "Traceback", no int-conversion or recursion messages), none may be accepted silently.
Notebook-API cases also check that the session is intact afterwards: the cursor and the
recorded history are unchanged and ``step()`` still works. CLI cases check the exit status
(2 for a usage error found before anything runs, 1 for bad data) and a one-line message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kschedlearn import Simulation
from kschedlearn.api.errors import ManifestError
from kschedlearn.api.resource import QuantityError, parse_quantity
from kschedlearn.api.v1.yaml_load import load_manifests
from kschedlearn.cli import main
from kschedlearn.exercises import check, get_task, hint, plug_in, plug_in_scenario
from kschedlearn.scenarios.scenario import ScenarioError, parse_scenario
from kschedlearn.scheduler.api.latest import PolicyError, load_policy
from kschedlearn.scheduler.api.validation.validation import validate_policy
from kschedlearn.simulation.arguments import SimulationError

RAW = ("Traceback", "int_max_str_digits", "maximum recursion depth", "too many values to unpack",
       "object has no attribute", "unsupported operand", "not subscriptable", "is not callable",
       "codec can't decode", "Errno")


def _raises(call: Callable[[], Any], error: type[BaseException], fragments: tuple[str, ...]) -> str:
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert not any(raw in message for raw in RAW), message
    return message


# -- quantities (Go's ParseQuantity errors, quoting the input) -----------------------------

REGEX = "quantities must match the regular expression"
SUFFIX = "unable to parse quantity's suffix"
QUANTITIES = [
    ("", REGEX), ("12Q", REGEX), ("1.2.3", REGEX), ("1..", REGEX), ("1e1.0", REGEX), ("1Ki1", SUFFIX),
    ("1i", SUFFIX), ("1ki", SUFFIX), ("abc", REGEX), ("1 Gi", REGEX), ("1Gi ", REGEX), (" 1", REGEX),
    ("1e", SUFFIX), ("1E+", SUFFIX), ("1Mi1", SUFFIX), ("0x10", REGEX), ("1,000", REGEX), ("1_000", REGEX),
    ("++1", SUFFIX), ("+-1", SUFFIX), ("1e++3", REGEX), ("1.5.5Gi", REGEX), ("5mi", SUFFIX), ("\t1", REGEX),
    ("1Pi2", SUFFIX), ("1e3e3", REGEX), ("NaN", REGEX), ("inf", REGEX), ("1/2", REGEX), ("1KK", SUFFIX),
    ("1Mii", SUFFIX), ("1ee3", SUFFIX), ("1k3", SUFFIX),
    ("1" * 10_000, "10000 characters long; kschedlearn accepts at most 200"),
    ("9" * 201 + "Mi", "203 characters long"),
]


@pytest.mark.parametrize("text, reason", QUANTITIES, ids=[f"q{i}" for i in range(len(QUANTITIES))])
def test_quantity(text, reason):
    message = _raises(lambda: parse_quantity(text), QuantityError, ("invalid quantity", reason))
    assert text[:40] in message or repr(text)[1:-1] in message  # the value is quoted


@pytest.mark.parametrize("value", [12, 1.5, None, b"1", ["1"]], ids=["int", "float", "none", "bytes", "list"])
def test_quantity_not_a_string(value):
    _raises(lambda: parse_quantity(value), QuantityError, ("expected a string", type(value).__name__))


# -- manifests --------------------------------------------------------------------------------

POD = "kind: Pod\nmetadata: {name: p}\n"
MANIFESTS = [
    (POD + "spec: {containers: [{name: c, resources: {requests: {cpu: 1x}}}]}",
     ("Pod p", "spec.containers[0].resources.requests.cpu", '"1x"')),
    (POD + "spec: {containers: [{name: c, resources: {limits: {memory: 1Qi}}}]}",
     ("Pod p", "spec.containers[0].resources.limits.memory", '"1Qi"')),
    ("kind: Nope\nmetadata: {name: p}", ("Nope p", "kind", 'unknown kind "Nope"')),
    ("metadata: {name: p}", ("kind", "missing")),
    ("kind: Pod\nmetadata: {name: 3}", ("Pod", "metadata.name", "expected string, got 3")),
    ("kind: Pod\nmetadata: {name: p, labels: {a: [1]}}", ("Pod p", "metadata.labels.a", "got a list")),
    (POD + "spec: {containers: 5}", ("Pod p", "spec.containers", "expected a list, got 5")),
    ("- 1\n- 2", ("document 1", "expected a manifest map, got list")),
    (POD + "spec: {nodeName: 5}", ("Pod p", "spec.nodeName", "got 5")),
    ("kind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: lots}}",
     ("Node n", "status.allocatable.cpu", '"lots"')),
    ("kind: Node\nmetadata: {name: n}\nstatus: {capacity: {memory: 1.2.3Gi}}", ("Node n", "status.capacity.memory", "1.2.3Gi")),
    ("---\nkind: Pod\nmetadata: {name: a}\n---\nkind: Pod\nmetadata: {name: q}\nspec: {containers: [{name: c, "
     "resources: {requests: {cpu: x}}}]}", ("document 2", "Pod q", "requests.cpu")),
    ("kind: Pod\nmetadata: [1]", ("Pod", "metadata")),
    ("kind: Pod\nmetadata: {name: p}\nspec: [1]", ("Pod p", "spec")),
    ("kind: [Pod]\n", ("kind", "missing")),
    ("a: [b\n", ("invalid YAML", "line")),
    ("a: " + "[" * 100_000 + "]" * 100_000, ("invalid YAML", "nesting")),
    ("a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 80)) + "  " * 80 + "v: 1\n", ("nested", "levels deep; the limit is 64")),
    ("a: " + "{x: " * 70 + "1" + "}" * 70, ("nested", "the limit is 64")),
]


@pytest.mark.parametrize("text, fragments", MANIFESTS, ids=[f"m{i}" for i in range(len(MANIFESTS))])
def test_manifest(text, fragments):
    _raises(lambda: load_manifests(text), ManifestError, fragments)


# -- policy files ------------------------------------------------------------------------------

POLICIES = [
    ("{", ("couldn't get version/kind; json parse error: unexpected end of JSON input",)),  # Go's text
    ("[]", ("couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct",)),
    ('{"kind": "Pod"}', ("Policy", "kind", '"Pod"')),
    ('{"kind": "Policy", "apiVersion": "v2"}', ("Policy", "apiVersion", '"v2"')),
    ('{"predicates": {}}', ("Policy", "predicates", "expected a list")),
    ('{"predicates": [3]}', ("Policy", "predicates[0]")),
    ('{"predicates": [{"name": 3}]}', ("Policy", "predicates[0].name", "3")),
    ('{"priorities": [{"name": "X", "weight": "1"}]}', ("Policy", "priorities[0].weight", '"1"')),
    ('{"priorities": [{"name": "X", "weight": 1.5}]}', ("Policy", "priorities[0].weight", "1.5")),
    ('{"priorities": [{"name": "X", "weight": true}]}', ("Policy", "priorities[0].weight", "true")),
    ('{"priorities": [{"name": "X", "weight": 1, "argument": 3}]}', ("Policy", "priorities[0].argument")),
    ('{"extenders": [{"httpTimeout": "5s"}]}', ("Policy", "extenders[0].httpTimeout", '"5s"')),
    ('{"extenders": [{"tlsConfig": {"CAData": "%%%"}}]}', ("Policy", "extenders[0].tlsConfig.CAData", '"%%%"')),
    ('{"predicates": [{"name": "L", "argument": {"labelsPresence": {"labels": "a", "presence": true}}}]}',
     ("Policy", "predicates[0].argument.labelsPresence.labels")),
    ('{"predicates": [{"name": "L", "argument": {"labelsPresence": {"labels": ["a"], "presence": "yes"}}}]}',
     ("Policy", "predicates[0].argument.labelsPresence.presence", '"yes"')),
]


@pytest.mark.parametrize("text, fragments", POLICIES, ids=[f"p{i}" for i in range(len(POLICIES))])
def test_policy(text, fragments):
    _raises(lambda: load_policy(text), PolicyError, fragments)


@pytest.mark.parametrize("weight", [0, -1, -100], ids=["zero", "minus-one", "minus-100"])
def test_policy_weight_must_be_positive(weight):
    """Go: validation.ValidatePolicy - "Priority X should have a positive weight applied to it"."""
    policy = load_policy('{"priorities": [{"name": "LeastRequestedPriority", "weight": %d}]}' % weight)
    _raises(lambda: validate_policy(policy), Exception, ("LeastRequestedPriority", "positive weight"))


# -- scenario files -------------------------------------------------------------------------------

NODE = "  - {kind: Node, metadata: {name: node-1}}\n"
SCENARIOS = [
    ("name: x\ntimeline:\n  - {at: 1, kill: nobody}\n", ("bad.yaml: timeline[0].kill", "'nobody'", "scheduler-0")),
    ("name: x\nschedulers: [{name: sched-a}]\ntimeline:\n  - {at: 1, kill: sched-b}\n",
     ("timeline[0].kill", "'sched-b'", "did you mean 'sched-a'")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {delay_next: {verb: bind}}}\n", ("timeline[0].fault.delay_next", "missing 'seconds'")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {delay_next: {verb: bind, seconds: soon}}}\n",
     ("timeline[0].fault.delay_next.seconds", "'soon'")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {delay_next: {seconds: 3}}}\n", ("delay_next", "missing 'verb'")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {delay_next: {verb: bind, seconds: -3}}}\n", ("delay_next.seconds", "-3")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {delay_next: {verb: bind, seconds: .nan}}}\n", ("delay_next.seconds", "nan")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {fail_next: {verb: bind, n: -3}}}\n", ("fail_next.n", ">= 1", "-3")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {fail_next: {verb: bind, n: 1.5}}}\n", ("fail_next.n", "1.5")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {fail_next: {verb: bnd}}}\n", ("fail_next.verb", "'bnd'", "did you mean 'bind'")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {fail_next: {verb: bind, error: oops}}}\n", ("fail_next.error", "'oops'")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {fail_next: {verb: bind, count: 2}}}\n", ("fail_next.count", "unknown parameter")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {stall_watches: {}}}\n", ("stall_watches", "missing 'duration'")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {stall_watches: {duration: 5, resource: 7}}}\n", ("stall_watches.resource", "7")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {expire_watch_window: {n: -1}}}\n", ("expire_watch_window.n", "-1")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {close_watches: {resource: 'a b'}}}\n", ("close_watches.resource", "'a b'")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {melt: {}}}\n", ("timeline[0].fault", "expected one of")),
    ("name: x\ntimeline:\n  - {at: 1, fault: {fail_next: 3}}\n", ("fault.fail_next", "mapping of parameters")),
    ("name: x\nobjects:\n  - {kind: Pod, metadata: {name: p}, spec: {nodeName: ghost, containers: [{name: c}]}}\n",
     ("objects[0]", "Pod default/p", "spec.nodeName", "'ghost'")),
    ("name: x\nobjects:\n" + NODE + "  - {kind: Pod, metadata: {name: p}, spec: {nodeName: node-2, containers: [{name: c}]}}\n",
     ("spec.nodeName", "'node-2'", "did you mean 'node-1'")),
    ("name: x\nschedulers: []\n", ("schedulers", "at least one", "[]")),
    ("name: x\nobjects:\n" + NODE + NODE, ("objects[1]", "Node 'node-1'", "already created")),
    ("name: x\nobjects:\n  - {kind: Pod, metadata: {name: p}, spec: {containers: [{name: c}]}}\n  - {kind: Pod, metadata: {name: p}, spec: {containers: [{name: c}]}}\n",
     ("objects[1]", "Pod 'default/p'", "already created")),
    # 1.6's API validation, reported up front with the API server's 422 text
    ("name: x\nobjects:\n  - {kind: Pod, metadata: {name: 'a b'}, spec: {containers: [{name: c}]}}\n",
     ("bad.yaml: objects[0]: Pod \"a b\" is invalid: metadata.name: Invalid value: \"a b\": a DNS-1123 subdomain",)),
    ("name: x\nobjects:\n  - {kind: Node, metadata: {name: ''}}\n",
     ('bad.yaml: objects[0]: Node "" is invalid: metadata.name: Required value: name or generateName is required',)),
    ("name: x\nobjects:\n  - {kind: Node, metadata: {name: Node-1}}\n",
     ('bad.yaml: objects[0]: Node "Node-1" is invalid: metadata.name: Invalid value: "Node-1": a DNS-1123',)),
    ("name: x\nobjects:\n  - {kind: Pod, metadata: {name: p}}\n",
     ('bad.yaml: objects[0]: Pod "p" is invalid: spec.containers: Required value',)),
    ("name: x\ntimeline:\n  - {at: 3, create: {kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, "
     "resources: {requests: {cpu: '-1'}}}]}}}\n",
     ('bad.yaml: timeline[0].create: Pod "p" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: '
      '"-1": must be greater than or equal to 0',)),
    ("name: x\ntimeline:\n  - {at: 1, cordon: node-9}\n", ("timeline[0].cordon", "'node-9'")),
    ("name: x\nobjects:\n" + NODE + "timeline:\n  - {at: 1, uncordon: node-l}\n", ("timeline[0].uncordon", "did you mean 'node-1'")),
    ("name: x\ntimeline:\n  - {at: 1, delete: pod default/ghost}\n", ("timeline[0].delete", "'default/ghost'")),
    ("name: x\ntimeline:\n  - {at: 1, delete: node ghost}\n", ("timeline[0].delete", "node 'ghost'")),
    ("name: x\ntimeline:\n  - {at: 1, delete: pod a b}\n", ("timeline[0].delete", "'pod a b'")),
    ("name: x\ntimeline:\n  - {at: 1, delete: 3}\n", ("timeline[0].delete", "3")),
    ("name: x\ntimeline:\n  - {at: 1, kill: 3}\n", ("timeline[0].kill", "3")),
    ("name: x\ntimeline:\n  - {at: soon, kill: a}\n", ("timeline[0].at", "'soon'")),
    ("name: x\ntimeline:\n  - {at: -1, kill: scheduler-0}\n", ("timeline[0].at", "-1")),
    ("name: x\ntimeline:\n  - {at: .inf, kill: scheduler-0}\n", ("timeline[0].at", "inf")),
    ("name: x\ntimeline:\n  - {at: 1, explode: now}\n", ("timeline[0]", "expected exactly one of", "explode")),
    ("name: x\ntimeline:\n  - 3\n", ("timeline[0]", "expected a mapping")),
    ("name: x\ntimeline: 3\n", ("timeline", "expected a list")),
    ("name: x\nfollow: default/ghost\n", ("follow", "'default/ghost'")),
    ("name: x\nfollow: 3\n", ("follow", "expected a string", "3")),
    ("name: x\nduration: -5\n", ("duration", "-5")),
    ("name: x\nduration: 0\n", ("duration", "> 0", "0")),
    ("name: x\nduration: forever\n", ("duration", "'forever'")),
    ("name: x\ncolour: red\n", ("colour", "unknown field")),
    ("name: x\nsnapshot_every: 0\n", ("snapshot_every", ">= 1", "0")),
    ("name: x\nfiles: {../escape.json: '{}'}\n", ("files", "'../escape.json'", "plain file name")),
    ("name: x\nfiles: {p.json: 3}\n", ("files.p.json", "the file's text")),
    ("name: [x\n", ("bad.yaml", "invalid YAML")),
    ("name: x\n---\nname: y\n", ("bad.yaml", "one YAML document", "2")),
    ("- 1\n", ("bad.yaml", "a scenario must be a mapping", "list")),
    ("name: x\nobjects: " + "[" * 100_000 + "]" * 100_000 + "\n", ("bad.yaml", "invalid YAML", "nesting")),
    ("name: x\nobjects:\n  - {kind: Node, metadata: {name: n}, status: {allocatable: {cpu: 12Q}}}\n",
     ("objects[0]", "Node n", "status.allocatable.cpu", '"12Q"')),
    ("name: x\ntimeline:\n  - at: 1\n    create: {kind: Pod, metadata: {name: p}, spec: {containers: "
     "[{name: c, resources: {requests: {memory: lots}}}]}}\n",
     ("timeline[0].create", "Pod p", "spec.containers[0].resources.requests.memory", '"lots"')),
]


@pytest.mark.parametrize("text, fragments", SCENARIOS, ids=[f"s{i}" for i in range(len(SCENARIOS))])
def test_scenario(text, fragments):
    _raises(lambda: parse_scenario(text, source="bad.yaml"), ScenarioError, ("bad.yaml",) + fragments)


# -- command line -----------------------------------------------------------------------------------

R = ["render", "three-nodes", "--view", "pipeline", "--step", "3"]
KS = ["kube-scheduler", "--scenario", "three-nodes"]
CLI = [
    (KS + ["--port=99999"], 2, ("--port", "99999")),
    (KS + ["--port=-1"], 2, ("--port", "-1")),
    (KS + ["--duration", "-5s"], 2, ("--duration", "'-5s'")),
    (KS + ["--duration", "0s"], 2, ("--duration", "'0s'")),
    (KS + ["--duration", "soon"], 2, ("--duration", "soon")),
    (KS + ["--duration", "9" * 40 + "h"], 2, ("--duration",)),
    (KS + ["--duration"], 2, ("--duration", "needs a value")),
    (KS + ["--serve-for", "-1s"], 2, ("--serve-for", "'-1s'")),
    (KS + ["--v=x"], 2, ("--v", "'x'")),
    (KS + ["--v=99999"], 2, ("--v", "'99999'")),
    (KS + ["--seed", "abc"], 2, ("--seed", "'abc'")),
    (["kube-scheduler", "--duration", "5s"], 2, ("--scenario NAME is required",)),
    (["kube-scheduler", "--scenario", "nope"], 1, ("unknown scenario 'nope'",)),
    (R + ["-o", "/missing/dir/x.svg"], 2, ("-o /missing/dir/x.svg", "'/missing/dir'", "does not exist")),
    (R + ["-o", "/"], 2, ("-o", "'/'")),
    (R + ["-o", ""], 2, ("-o", "''")),
    (["render", "three-nodes", "--view", "pipelin", "--step", "3", "-o", "-"], 2, ("--view", "'pipelin'", "did you mean 'pipeline'")),
    (["render", "three-nodes", "--view", "cache", "--step", "-2", "-o", "-"], 2, ("--step", "-2")),
    (["render", "three-nodes", "--view", "cache", "--step", "99999", "-o", "-"], 1, ("--step 99999", "three-nodes has only")),
    (["render", "nope", "--view", "cache", "--step", "1", "-o", "-"], 1, ("unknown scenario 'nope'",)),
    (["trace", "no-such.yaml"], 1, ("no-such.yaml", "no such scenario file")),
    (["trace", "three-nodes", "--until", "neverStage"], 1, ("'neverStage'", "unknown stage")),
    (["trace", "three-nodes", "--until", "asume"], 1, ("'asume'", "unknown stage", "did you mean 'assume'")),
]


@pytest.mark.parametrize("argv, status, fragments", CLI, ids=[f"c{i}" for i in range(len(CLI))])
def test_cli(argv, status, fragments, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == status
    err = capsys.readouterr().err
    assert err.startswith("kschedlearn: error: ") and err.count("\n") == 1, err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    assert not any(raw in err for raw in RAW)


ARGPARSE = [
    ["trace"], ["trace", "three-nodes", "--seed", "x"], ["trace", "three-nodes", "--granularity", "bogus"],
    ["render", "three-nodes"], ["render", "three-nodes", "--view", "cache", "--step", "x", "-o", "-"],
    ["render", "three-nodes", "--view", "cache", "--step", "1", "-o", "-", "--renderer", "ascii"],
    ["bogus-command"], [], ["scenarios", "--extra"],
]


@pytest.mark.parametrize("argv", ARGPARSE, ids=[f"a{i}" for i in range(len(ARGPARSE))])
def test_cli_usage_errors_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "usage: kschedlearn" in err and "Traceback" not in err


KS_FLAGS = [["--bogus-flag"], ["--port=abc"], ["--leader-elect=maybe"], ["--kube-api-qps=fast"]]


@pytest.mark.parametrize("flags", KS_FLAGS, ids=[f"k{i}" for i in range(len(KS_FLAGS))])
def test_kube_scheduler_flag_errors_are_pflags(flags, capsys):
    """The binary's own flag parser (pflag's messages and usage), exit status 2."""
    assert main(KS + flags) == 2
    err = capsys.readouterr().err
    assert flags[0].split("=")[0].lstrip("-") in err and "Usage of kube-scheduler" in err
    assert "Traceback" not in err


# -- notebook API ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sim():
    s = Simulation.from_scenario("three-nodes", snapshots=False)
    for _ in range(6):
        s.step()
    return s


NAN, INF = float("nan"), float("inf")
NOTEBOOK = [
    ("goto-float", lambda s: s.goto(2.5), SimulationError, ("goto", "seq", "2.5")),
    ("goto-str", lambda s: s.goto("3"), SimulationError, ("goto", "seq", "'3'")),
    ("goto-bool", lambda s: s.goto(True), SimulationError, ("goto", "seq", "True")),
    ("goto-none", lambda s: s.goto(None), SimulationError, ("goto", "seq", "None")),
    ("goto-negative", lambda s: s.goto(-1), SimulationError, ("goto", "start at 0", "-1")),
    ("goto-far", lambda s: s.goto(10**7), SimulationError, ("goto", "10000000", "ends with event")),
    ("back-negative", lambda s: s.back(-3), SimulationError, ("back", "steps", "-3")),
    ("back-float", lambda s: s.back(1.5), SimulationError, ("back", "steps", "1.5")),
    ("back-granularity", lambda s: s.back(1, granularity="stages"), SimulationError, ("back", "granularity", "'stages'")),
    ("step-granularity", lambda s: s.step("evnt"), SimulationError, ("granularity", "'evnt'")),
    ("step-granularity-int", lambda s: s.step(3), SimulationError, ("granularity", "3")),
    ("jump-negative", lambda s: s.inject.jump_clock(-100), SimulationError, ("jump_clock", "seconds", "-100")),
    ("jump-nan", lambda s: s.inject.jump_clock(NAN), SimulationError, ("jump_clock", "seconds", "nan")),
    ("jump-inf", lambda s: s.inject.jump_clock(INF), SimulationError, ("jump_clock", "seconds", "inf")),
    ("jump-zero", lambda s: s.inject.jump_clock(0), SimulationError, ("jump_clock", "seconds", "0")),
    ("jump-str", lambda s: s.inject.jump_clock("31"), SimulationError, ("jump_clock", "seconds", "'31'")),
    ("decision-unknown", lambda s: s.decision("default/web-l"), SimulationError,
     ("decision", "'default/web-l'", "did you mean 'default/web-1'")),
    ("decision-int", lambda s: s.decision(3), SimulationError, ("decision", "pod", "3")),
    ("decision-spaces", lambda s: s.decision("a b"), SimulationError, ("decision", "'a b'")),
    ("delete-pod-spaces", lambda s: s.inject.delete_pod("a b c"), SimulationError, ("delete_pod", "'a b c'")),
    ("delete-pod-unknown", lambda s: s.inject.delete_pod("default/ghost"), SimulationError, ("delete_pod", "'default/ghost'")),
    ("delete-pod-slashes", lambda s: s.inject.delete_pod("a/b/c"), SimulationError, ("delete_pod", "'a/b/c'")),
    ("delete-pod-none", lambda s: s.inject.delete_pod(None), SimulationError, ("delete_pod", "None")),
    ("remove-node-unknown", lambda s: s.inject.remove_node("node-9"), SimulationError, ("remove_node", "'node-9'", "did you mean")),
    ("cordon-unknown", lambda s: s.inject.cordon("nod-1"), SimulationError, ("cordon", "'nod-1'", "did you mean 'node-1'")),
    ("uncordon-int", lambda s: s.inject.uncordon(1), SimulationError, ("uncordon", "1")),
    ("kill-unknown", lambda s: s.inject.kill_scheduler("scheduler-9"), KeyError, ("kill_scheduler", "'scheduler-9'", "scheduler-0")),
    ("fail-bind-zero", lambda s: s.inject.fail_next_bind(0), SimulationError, ("fail_next_bind", "n", "0")),
    ("fail-bind-float", lambda s: s.inject.fail_next_bind(2.5), SimulationError, ("fail_next_bind", "n", "2.5")),
    ("stall-negative", lambda s: s.inject.stall_watch(-5), SimulationError, ("stall_watch", "seconds", "-5")),
    ("stall-resource", lambda s: s.inject.stall_watch(5, "podz"), SimulationError, ("stall_watch", "resource", "'podz'", "did you mean 'pods'")),
    ("drop-watch-resource", lambda s: s.inject.drop_watch("nodez"), SimulationError, ("drop_watch", "resource", "'nodez'")),
    ("expire-resource", lambda s: s.inject.expire_watch_window(3), SimulationError, ("expire_watch_window", "resource", "3")),
    ("add-node-exists", lambda s: s.inject.add_node("node-1"), SimulationError, ("add_node", "'node-1'", "already exists")),
    ("add-node-cpu", lambda s: s.inject.add_node("node-9", cpu="lots"), SimulationError, ("add_node", "cpu", '"lots"')),
    ("add-node-type", lambda s: s.inject.add_node(3), TypeError, ("add_node", "int")),
    ("add-pod-type", lambda s: s.inject.add_pod("web"), TypeError, ("add_pod", "str")),
    ("add-pod-bad-name", lambda s: s.inject.add_pod({"metadata": {"name": "a b"}}), SimulationError,
     ("add_pod", "Pod 'a b'", "metadata.name", "DNS-1123")),
    ("add-pod-empty-name", lambda s: s.inject.add_pod({"metadata": {"name": ""}}), SimulationError,
     ("add_pod", "Pod ''", "metadata.name")),
    ("add-node-bad-name", lambda s: s.inject.add_node({"metadata": {"name": "Node_1"}}), SimulationError,
     ("add_node", "Node 'Node_1'", "metadata.name")),
    ("add-pod-bad-manifest", lambda s: s.inject.add_pod({"metadata": {"name": "x"}, "spec": {"containers": 5}}),
     ManifestError, ("spec.containers", "5")),
]


@pytest.mark.parametrize("call, error, fragments", [c[1:] for c in NOTEBOOK], ids=[c[0] for c in NOTEBOOK])
def test_notebook_api(sim, call, error, fragments):
    cursor, history = sim.cursor, [(e.seq, e.stage, e.message) for e in sim.trace[: sim.cursor + 1]]
    injected = list(sim._injections)
    _raises(lambda: call(sim), error, fragments)
    assert sim.cursor == cursor
    assert [(e.seq, e.stage, e.message) for e in sim.trace[: cursor + 1]] == history
    assert sim._injections == injected
    ev = sim.step()  # the session still works
    assert ev is None or ev.seq > cursor


# -- exercises API -------------------------------------------------------------------------------------

def _solution(task_id: str) -> Any:
    return get_task(task_id).load_solution()


EXERCISES = [
    ("unknown-task", lambda: check("9.9", print), KeyError, ("'9.9'", "3.1")),
    ("not-callable", lambda: check("8.1", 3), TypeError, ("check('8.1', fn)", "int")),
    ("budget-zero", lambda: check("8.1", _solution("8.1"), time_limit=0), ValueError, ("time_limit", "0")),
    ("budget-nan", lambda: check("8.1", _solution("8.1"), time_limit=NAN), ValueError, ("time_limit", "nan")),
    ("budget-str", lambda: check("8.1", _solution("8.1"), time_limit="2"), ValueError, ("time_limit", "'2'")),
    ("hint-level", lambda: hint("8.1", 7), ValueError, ("hint('8.1', level)", "7")),
    ("hint-unknown", lambda: hint("0.0"), KeyError, ("'0.0'",)),
    ("plug-in-not-callable", lambda: plug_in("7.3", None), TypeError, ("plug_in('7.3', fn)", "NoneType")),
    ("plug-in-seconds", lambda: plug_in("7.3", _solution("7.3"), seconds=-1), ValueError, ("seconds", "-1")),
    ("scenario-seconds", lambda: plug_in_scenario("7.3", _solution("7.3"), seconds=INF), ValueError, ("seconds", "inf")),
    ("scenario-not-callable", lambda: plug_in_scenario("7.3", "fn"), TypeError, ("plug_in_scenario('7.3', fn)", "str")),
    ("scenario-unknown-task", lambda: plug_in_scenario("99.9", print), KeyError, ("'99.9'",)),
]


@pytest.mark.parametrize("call, error, fragments", [c[1:] for c in EXERCISES], ids=[c[0] for c in EXERCISES])
def test_exercises_api(call, error, fragments):
    _raises(call, error, fragments)


def test_the_corpus_is_large():
    total = (len(QUANTITIES) + 5 + len(MANIFESTS) + len(POLICIES) + 3 + len(SCENARIOS) + len(CLI)
             + len(ARGPARSE) + len(KS_FLAGS) + len(NOTEBOOK) + len(EXERCISES))
    assert total >= 150, total

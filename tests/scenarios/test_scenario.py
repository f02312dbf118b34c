"""Scenario files: loading, the files: mapping, and errors that name file, field and manifest path."""

from __future__ import annotations

from pathlib import Path

import pytest

from kschedlearn import Simulation
from kschedlearn.scenarios.scenario import ScenarioError, bundled_names, load_scenario, parse_scenario

EXPECTED = {"three-nodes", "unschedulable-then-fits", "bind-failure", "assume-expiry", "ha-failover",
            "policy-file", "spread-and-affinity", "burst-100-pods", "several-schedulers", "node-conditions",
            "why-assume", "deleted-while-binding", "extender", "unfenced-leader"}


def test_bundled_scenarios_load_with_descriptions():
    assert EXPECTED <= set(bundled_names())
    for name in bundled_names():
        scenario = load_scenario(name)
        assert scenario.name == name
        assert len(scenario.description.split()) >= 30, name  # a paragraph a learner can read
        assert scenario.follow, name


@pytest.mark.parametrize("text, message", [
    ("name: x\nobjects:\n  - {kind: Node, metadata: {name: n}, status: {allocatable: {cpu: 12Q}}}\n",
     'bad.yaml: objects[0]: Node n: status.allocatable.cpu'),
    ("name: x\ntimeline:\n  - at: 1\n    create: {kind: Pod, metadata: {name: p}, spec: {containers: "
     "[{name: c, resources: {requests: {memory: lots}}}]}}\n",
     "bad.yaml: timeline[0].create: Pod p: spec.containers[0].resources.requests.memory"),
    ("name: x\ntimeline:\n  - {at: 1, explode: now}\n", "bad.yaml: timeline[0]: expected exactly one of"),
    ("name: x\ntimeline:\n  - {at: soon, kill: a}\n", "bad.yaml: timeline[0].at: expected a number"),
    ("name: x\ntimeline:\n  - {at: 1, fault: {melt: {}}}\n", "bad.yaml: timeline[0].fault: expected one of"),
    ("name: x\nschedulers:\n  - {name: s, flags: --v=2}\n", "bad.yaml: schedulers[0].flags: expected a list of strings"),
    ("name: x\ncolour: red\n", "bad.yaml: colour: unknown field"),
    ("name: x\nseed: 7\n", "bad.yaml: seed: a scenario file does not choose its seed; pass seed="),
    ("name: x\nfiles: {../escape.json: '{}'}\n", "bad.yaml: files: '../escape.json': expected a plain file name"),
    ("name: x\nfiles: {p.json: 3}\n", "bad.yaml: files.p.json: expected the file's text"),
    ("name: x\nsnapshot_every: 0\n", "bad.yaml: snapshot_every: expected a whole number >= 1"),
    ("name: [x\n", "bad.yaml: invalid YAML"),
], ids=["object-quantity", "timeline-manifest", "unknown-action", "bad-time", "unknown-fault",
        "flags-not-list", "unknown-field", "seed-in-file", "file-with-path", "file-not-text", "snapshot-every", "yaml"])
def test_errors_name_file_and_field(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert message in str(info.value)
    with pytest.raises(ScenarioError):
        Simulation.from_scenario(path)


def test_unknown_names_and_missing_files():
    with pytest.raises(ScenarioError, match="unknown scenario 'nope'; bundled ones: .*three-nodes"):
        load_scenario("nope")
    with pytest.raises(ScenarioError, match="no-such.yaml: no such scenario file"):
        load_scenario(Path("no-such.yaml"))


def test_files_are_written_and_substituted_deterministically():
    text = ("name: f\nfiles: {policy.json: '{\"kind\": \"Policy\"}'}\n"
            "schedulers:\n  - {name: s, flags: ['--policy-config-file={files}/policy.json', '--v=2']}\n")
    a = parse_scenario(text, source="f.yaml")
    b = parse_scenario(text, source="f.yaml")
    flags = a.flags_for(a.schedulers[0])
    assert flags == b.flags_for(b.schedulers[0])
    path = Path(flags[0].split("=", 1)[1])
    assert path.read_text(encoding="utf-8") == '{"kind": "Policy"}'
    assert flags[1] == "--v=2"
    other = parse_scenario(text.replace("Policy", "Other"), source="f.yaml")
    assert other.flags_for(other.schedulers[0]) != flags  # different content, different folder

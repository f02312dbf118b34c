"""Bad flags, bad values and bad policy files: a clear 1.6 message and a dead process, never a traceback.

Go: plugin/cmd/kube-scheduler/scheduler.go (pflag exits 2 on a parse error; ``app.Run``'s error
ends in ``glog.Fatalf("scheduler app failed to run: %v")``), app/configurator.go (policy file),
factory/plugins.go (unknown predicate/priority: fatal), leaderelection.go (RunOrDie panics on
bad timings). Spec §1.1, §1.3, §1.4, §2.4, §2.8:
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/scheduler.go#L30-L43

Two faces are checked: a replica inside a simulated world (its process exits, the reason is
recorded in ``runtime.crashes`` / ``process.exit_reason`` and the trace), and the command line
``kschedlearn kube-scheduler`` (exit status and stderr).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kschedlearn import Simulation
from kschedlearn.cli import main as cli_main
from kschedlearn.scenarios.scenario import parse_scenario

REPLICA = "scheduler-0"


def _policy(predicates: list[dict[str, object]], priorities: list[dict[str, object]]) -> str:
    return json.dumps({"kind": "Policy", "apiVersion": "v1", "predicates": predicates, "priorities": priorities})


# policy files, written into the scenario's files: directory ({files} in the flags)
FILES = {
    "unknown-predicate.json": _policy([{"name": "PodFitsResources"}, {"name": "NoSuchPredicate"}],
                                      [{"name": "LeastRequestedPriority", "weight": 1}]),
    "unknown-priority.json": _policy([{"name": "PodFitsResources"}], [{"name": "NoSuchPriority", "weight": 1}]),
    "zero-weight.json": _policy([{"name": "PodFitsResources"}], [{"name": "LeastRequestedPriority", "weight": 0}]),
    "broken.json": '{"kind": "Policy", "apiVersion": "v1", "predicates": [',
    "good.json": _policy([{"name": "PodFitsResources"}], [{"name": "LeastRequestedPriority", "weight": 1}]),
}

# (id, flags, message the process exits with, how: "flag" = pflag refuses it (exit 2);
#  "fatal" = app.Run fails, glog.Fatalf; "panic" = RunOrDie panics)
CASES = [
    ("leader-elect-maybe", ["--leader-elect=maybe"],
     'invalid argument "maybe" for --leader-elect=maybe: strconv.ParseBool: parsing "maybe": invalid syntax', "flag"),
    ("port-http", ["--port=http"],
     'invalid argument "http" for --port=http: strconv.ParseInt: parsing "http": invalid syntax', "flag"),
    ("qps-fast", ["--kube-api-qps=fast"],
     'invalid argument "fast" for --kube-api-qps=fast: strconv.ParseFloat: parsing "fast": invalid syntax', "flag"),
    ("lease-without-unit", ["--leader-elect-lease-duration=15"],
     'invalid argument "15" for --leader-elect-lease-duration=15: time: missing unit in duration 15', "flag"),
    ("unknown-flag", ["--no-such-flag"], "unknown flag: --no-such-flag", "flag"),
    ("unknown-feature-gate", ["--feature-gates=NoSuchGate=true"],
     'invalid argument "NoSuchGate=true" for --feature-gates=NoSuchGate=true: unrecognized key: NoSuchGate', "flag"),
    ("hard-pod-affinity-101", ["--hard-pod-affinity-symmetric-weight=101"],
     "scheduler app failed to run: error creating scheduler: invalid hardPodAffinitySymmetricWeight: 101, "
     "must be in the range 0-100", "fatal"),
    ("hard-pod-affinity-negative", ["--hard-pod-affinity-symmetric-weight=-1"],
     "scheduler app failed to run: error creating scheduler: invalid hardPodAffinitySymmetricWeight: -1, "
     "must be in the range 0-100", "fatal"),
    ("unknown-provider", ["--algorithm-provider=NoSuchProvider"],
     'scheduler app failed to run: error creating scheduler: plugin "NoSuchProvider" has not been registered', "fatal"),
    ("policy-unknown-predicate", ["--policy-config-file={files}/unknown-predicate.json"],
     "Invalid configuration: Predicate type not found for NoSuchPredicate", "fatal"),
    ("policy-unknown-priority", ["--policy-config-file={files}/unknown-priority.json"],
     "Invalid configuration: Priority type not found for NoSuchPriority", "fatal"),
    ("policy-zero-weight", ["--policy-config-file={files}/zero-weight.json"],
     "scheduler app failed to run: error creating scheduler: "
     "Priority LeastRequestedPriority should have a positive weight applied to it", "fatal"),
    ("policy-broken-json", ["--policy-config-file={files}/broken.json"],
     "scheduler app failed to run: error creating scheduler: invalid configuration: ", "fatal"),
    ("policy-is-a-directory", ["--policy-config-file={files}"],
     "scheduler app failed to run: error creating scheduler: unable to read policy config: read ", "fatal"),
    ("renew-deadline-over-lease", ["--leader-elect-renew-deadline=20s"],
     "leaseDuration must be greater than renewDeadline", "panic"),
    ("renew-deadline-under-retry", ["--leader-elect-renew-deadline=2s"],
     "renewDeadline must be greater than retryPeriod*JitterFactor", "panic"),
]


def _scenario_text(flags: list[str]) -> str:
    files = "\n".join(f"  {name}: '{content}'" for name, content in FILES.items())
    return f"""
name: flags
duration: 3
schedulers:
  - name: {REPLICA}
    flags: {json.dumps(flags)}
files:
{files}
objects:
  - kind: Node
    apiVersion: v1
    metadata: {{name: node-1}}
    status:
      allocatable: {{cpu: "2", memory: 4Gi, pods: "110"}}
      conditions: [{{type: Ready, status: "True"}}]
timeline:
  - at: 1
    create:
      kind: Pod
      apiVersion: v1
      metadata: {{name: web-1, namespace: default}}
      spec:
        containers: [{{name: web, image: nginx}}]
"""


def _run_world(flags: list[str]) -> Simulation:
    sim = Simulation(scenario=parse_scenario(_scenario_text(flags), source="flags.yaml"), seed=1)
    while sim.step("event") is not None:
        pass
    return sim


@pytest.mark.parametrize(("flags", "message", "how"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_flag_or_value_kills_the_replica_with_a_clear_message(flags: list[str], message: str, how: str) -> None:
    sim = _run_world(flags)
    proc = sim.world.replicas[REPLICA].process
    assert not proc.alive
    assert message in proc.exit_reason
    assert "\n" not in proc.exit_reason and "Traceback" not in proc.exit_reason
    (crash,) = sim.world.runtime.crashes
    assert crash.process == REPLICA and crash.goroutine == f"{REPLICA} main" and crash.time == 0.0
    # the trace says so, in one line
    (ev,) = [e for e in sim.trace if e.stage == "process.crash"]
    assert ev.process == REPLICA and message in ev.message and "\n" not in ev.message
    stages = [e.stage for e in sim.trace if e.process == REPLICA]
    if how == "flag":  # pflag refuses before app.Run
        assert stages[:2] == ["main", "NewSchedulerServer"] and "Run" not in stages
    if how == "fatal":  # glog.Fatalf logs at FATAL, then the process ends
        fatal = [e for e in sim.trace if e.stage == "log" and e.data.get("level") == "FATAL"]
        assert len(fatal) == 1 and message in fatal[0].message
    # it never scheduled, and the rest of the world went on
    assert "Scheduler.Run" not in stages
    assert not sim.world.api.get("pods", "default", "web-1").spec.node_name
    assert sim.world.runtime.now == 3.0


def test_hard_pod_affinity_weight_is_checked_in_create_from_keys() -> None:
    """1.6 checks the 0..100 range only in CreateFromKeys, after the pod watches of the factory exist."""
    sim = _run_world(["--hard-pod-affinity-symmetric-weight=101"])
    stages = [e.stage for e in sim.trace if e.process == REPLICA]
    assert stages.index("CreateFromProvider") < stages.index("CreateFromKeys") < stages.index("process.crash")
    assert "ConfigFactory.Run" not in stages and "startHTTP" not in stages
    # the weight itself was accepted by the flag parser
    assert sim.world.replicas[REPLICA].handles.s.hard_pod_affinity_symmetric_weight == 101


@pytest.mark.parametrize("weight", [0, 100], ids=["weight-0", "weight-100"])
def test_hard_pod_affinity_weight_bounds_are_inclusive(weight: int) -> None:
    sim = _run_world([f"--hard-pod-affinity-symmetric-weight={weight}", "--leader-elect=false"])
    assert sim.world.replicas[REPLICA].process.alive
    assert sim.world.api.get("pods", "default", "web-1").spec.node_name == "node-1"


def test_missing_policy_file_falls_back_to_the_provider_as_in_1_6() -> None:
    """1.6 quirk: os.Stat failing on --policy-config-file is not an error; the provider is used.
    The trace names the file and says so; the mirrored code keeps 1.6's silence."""
    sim = _run_world(["--leader-elect=false", "--policy-config-file=/nonexistent/policy.json"])
    assert sim.world.replicas[REPLICA].process.alive and not sim.world.runtime.crashes
    (ev,) = [e for e in sim.trace if e.stage == "CreateFromProvider"]
    assert "/nonexistent/policy.json" in ev.message and "falls back" in ev.message
    assert "'DefaultProvider'" in ev.message and ev.data["policy_file"] == "/nonexistent/policy.json"
    assert not [e for e in sim.trace if e.stage == "log" and e.data.get("level") in ("ERROR", "FATAL")]
    assert sim.world.api.get("pods", "default", "web-1").spec.node_name == "node-1"


def test_good_policy_file_goes_through_create_from_config() -> None:
    sim = _run_world(["--leader-elect=false", "--policy-config-file={files}/good.json"])
    stages = [e.stage for e in sim.trace if e.process == REPLICA]
    assert "CreateFromConfig" in stages and "CreateFromProvider" not in stages
    assert sim.world.api.get("pods", "default", "web-1").spec.node_name == "node-1"


def test_flag_that_is_not_a_flag_is_ignored_as_in_1_6() -> None:
    """main ignores positional arguments: ``--leader-elect false`` leaves election on."""
    sim = _run_world(["--leader-elect", "false"])
    assert sim.world.replicas[REPLICA].process.alive
    assert sim.world.replicas[REPLICA].handles.s.leader_election.leader_elect is True
    assert any(e.stage == "leaderelection.acquire" for e in sim.trace)


def test_other_replicas_survive_a_bad_one() -> None:
    text = _scenario_text([]).replace(
        f"  - name: {REPLICA}\n    flags: []",
        f"  - name: {REPLICA}\n    flags: [\"--port=http\"]\n  - name: scheduler-1\n    flags: []")
    sim = Simulation(scenario=parse_scenario(text, source="two.yaml"), seed=2)
    while sim.step("event") is not None:
        pass
    assert not sim.world.replicas[REPLICA].process.alive
    assert sim.world.replicas["scheduler-1"].process.alive
    assert sim.world.api.get("pods", "default", "web-1").spec.node_name == "node-1"


# -- the command line ------------------------------------------------------------------------

def _cli_flags(flags: list[str], tmp_path: Path) -> list[str]:
    for name, content in FILES.items():
        (tmp_path / name).write_text(content, encoding="utf-8")
    return [f.replace("{files}", str(tmp_path)) for f in flags]


@pytest.mark.parametrize(("flags", "message", "how"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_cli_exits_non_zero_with_the_message_on_stderr(flags: list[str], message: str, how: str,
                                                       tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = cli_main(["kube-scheduler", "--scenario", "three-nodes", "--duration", "3s", *_cli_flags(flags, tmp_path)])
    out, err = capsys.readouterr()
    assert rc != 0
    assert message in err and "Traceback" not in err and "Traceback" not in out
    if how == "flag":  # pflag: the error, then the usage; exit status 2
        assert rc == 2
        assert err.splitlines()[0] == message
        assert "Usage of kube-scheduler:" in err
    else:
        assert "kube-scheduler exited:" in err
    if how == "fatal":  # glog.Fatalf's F-line on stderr
        assert any(line.startswith("F0403 00:00:00") and message in line for line in err.splitlines())


def test_cli_missing_policy_file_runs_on_the_provider(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = cli_main(["kube-scheduler", "--scenario", "three-nodes", "--duration", "3s", "--leader-elect=false",
                   f"--policy-config-file={tmp_path}/missing.json"])
    _, err = capsys.readouterr()
    assert rc == 0
    assert "Successfully assigned web-1" in err


def test_cli_as_a_process_exit_status_and_stderr() -> None:
    for flags, status, message in [
        (["--leader-elect=maybe"], 2,
         'invalid argument "maybe" for --leader-elect=maybe: strconv.ParseBool: parsing "maybe": invalid syntax'),
        (["--hard-pod-affinity-symmetric-weight=101"], 255,
         "invalid hardPodAffinitySymmetricWeight: 101, must be in the range 0-100"),
    ]:
        proc = subprocess.run(
            [sys.executable, "-m", "kschedlearn.cli", "kube-scheduler", "--scenario", "three-nodes",
             "--duration", "2s", *flags],
            capture_output=True, text=True, timeout=120, check=False,
        )
        assert proc.returncode == status, proc.stderr
        assert message in proc.stderr and "Traceback" not in proc.stderr

"""main's own flags: glog's (``--v``, ``-v``, ``--vmodule``, ...), ``--log-flush-frequency``, ``--version``.

Go: plugin/cmd/kube-scheduler/scheduler.go (``flag.InitFlags`` adds Go's flag set, glog's flags,
to pflag's command line; ``verflag.PrintAndExitIfRequested``), glog.go (the flags' ``Set``
methods and their error texts), pflag (one-letter Go flags get a shorthand):
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/scheduler.go#L30-L43
"""

from __future__ import annotations

import pytest

from kschedlearn.cli import main as cli_main
from kschedlearn.cmd.kube_scheduler import main_flags
from kschedlearn.cmd.kube_scheduler.app.options.pflag import FlagError
from tests.cmd.kube_scheduler.test_flags_errors import REPLICA, _run_world


def _levels(flags: list[str]) -> set[int]:
    sim = _run_world(flags)
    assert sim.world.replicas[REPLICA].process.alive, sim.world.replicas[REPLICA].process.exit_reason
    return {e.data["v"] for e in sim.trace if e.stage == "log" and e.process == REPLICA}


@pytest.mark.parametrize("flags", [["--v=2"], ["--v", "2"], ["-v=2"], ["-v", "2"], ["-v2"]],
                         ids=["--v=2", "--v 2", "-v=2", "-v 2", "-v2"])
def test_verbosity_flag_spellings(flags: list[str]) -> None:
    s, mf = main_flags.parse_command_line(flags)
    assert mf.logging.verbosity == 2 and mf.glog_set


def test_a_replica_with_v2_records_only_lines_up_to_2() -> None:
    assert max(_levels([])) == 4  # no glog flag: the simulation's teaching default
    assert max(_levels(["--v=2"])) == 2
    assert _levels(["--v=0"]) == {0}


def test_vmodule_raises_one_file() -> None:
    sim = _run_world(["--v=0", "--vmodule=factory=4"])
    lines = [e for e in sim.trace if e.stage == "log" and e.process == REPLICA]
    assert any(e.data["v"] == 4 and "About to try and schedule pod" in e.message for e in lines)
    # V(3) of scheduler.go ("Attempting to schedule pod") stays off: only factory.go was raised
    full = _run_world(["--v=4"])
    assert any("Attempting to schedule pod" in e.message for e in full.trace if e.stage == "log")
    assert not any("Attempting to schedule pod" in e.message for e in lines)


def test_other_glog_flags_are_accepted_and_kept() -> None:
    _, mf = main_flags.parse_command_line(
        ["--logtostderr=false", "--alsologtostderr", "--stderrthreshold=warning", "--log_dir=/tmp/x",
         "--log-backtrace-at=scheduler.go:120", "--log-flush-frequency=10s"])
    lg = mf.logging
    assert (lg.to_stderr, lg.also_to_stderr, lg.stderr_threshold, lg.log_dir, lg.trace_location) == (
        False, True, 1, "/tmp/x", ("scheduler.go", 120))
    assert mf.log_flush_frequency.seconds == 10.0
    assert main_flags.parse_command_line([])[1].logging.to_stderr  # the logs package's init


@pytest.mark.parametrize(("flags", "message"), [
    pytest.param(["--v=x"], 'invalid argument "x" for --v=x: strconv.ParseInt: parsing "x": invalid syntax', id="v-word"),
    pytest.param(["-v=x"], 'invalid argument "x" for v=x: strconv.ParseInt: parsing "x": invalid syntax', id="shorthand-word"),
    pytest.param(["--v=0x10"], 'invalid argument "0x10" for --v=0x10: strconv.ParseInt: parsing "0x10": invalid syntax',
                 id="v-hex-is-not-atoi"),
    pytest.param(["--v=99999999999999999999"], 'strconv.ParseInt: parsing "99999999999999999999": value out of range',
                 id="v-out-of-range"),
    pytest.param(["-v"], "flag needs an argument: 'v' in -v", id="shorthand-without-value"),
    pytest.param(["-x"], "unknown shorthand flag: 'x' in -x", id="unknown-shorthand"),
    pytest.param(["--vmodule=foo"], "syntax error: expect comma-separated list of filename=N", id="vmodule-syntax"),
    pytest.param(["--vmodule=foo=-1"], "negative value for vmodule level", id="vmodule-negative"),
    pytest.param(["--stderrthreshold=LOUD"], 'strconv.ParseInt: parsing "LOUD": invalid syntax', id="severity"),
    pytest.param(["--log-backtrace-at=nowhere"], "syntax error: expect file.go:234", id="backtrace-syntax"),
    pytest.param(["--log-backtrace-at=x.go:0"], "negative or zero value for level", id="backtrace-zero"),
    pytest.param(["--version=maybe"],
                 'invalid argument "maybe" for --version=maybe: strconv.ParseBool: parsing "maybe": invalid syntax',
                 id="version-maybe"),
    pytest.param(["--log-flush-frequency=5"], "time: missing unit in duration 5", id="flush-without-unit"),
])
def test_bad_main_flag_values(flags: list[str], message: str) -> None:
    with pytest.raises(FlagError) as info:
        main_flags.parse_command_line(flags)
    assert message in info.value.message


@pytest.mark.filterwarnings("ignore::kschedlearn.simulation.checks.SimulatedProcessCrashed")
def test_bad_glog_flag_kills_the_replica_like_any_flag_error() -> None:
    sim = _run_world(["--v=loud"])
    proc = sim.world.replicas[REPLICA].process
    assert not proc.alive and 'invalid argument "loud" for --v=loud' in proc.exit_reason


def test_usage_lists_main_flags_as_pflag_prints_them() -> None:
    text = main_flags.usage()
    assert "  -v, --v Level" in text and "log level for V logs" in text
    assert "      --version version[=true]" in text
    assert "--logtostderr" in text and "log to standard error instead of files (default true)" in text
    assert "--log-flush-frequency duration" in text and "(default 5s)" in text
    assert "--stderrthreshold severity" in text and "(default 2)" in text
    assert "--log-dir string" in text and "--log-backtrace-at traceLocation" in text
    assert "--leader-elect" in text  # the scheduler's own flags are still there


def test_version_in_a_replica_prints_and_exits_0() -> None:
    sim = _run_world(["--version"])
    proc = sim.world.replicas[REPLICA].process
    assert not proc.alive and proc.exit_reason == "exit status 0"
    assert sim.world.runtime.crashes == []  # an exit, not a crash
    (ev,) = [e for e in sim.trace if e.stage == "process.exit" and e.process == REPLICA]
    assert ev.message == "Kubernetes v1.6.1" and ev.data["exit_code"] == 0
    assert "Run" not in [e.stage for e in sim.trace if e.process == REPLICA]


@pytest.mark.parametrize(("flag", "line"), [("--version", main_flags.VERSION_LINE),
                                            ("--version=raw", main_flags.VERSION_RAW)])
def test_cli_version(flag: str, line: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["kube-scheduler", "--scenario", "three-nodes", flag]) == 0
    assert capsys.readouterr().out == line + "\n"


def test_cli_accepts_glog_flags(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli_main(["kube-scheduler", "--scenario", "three-nodes", "--duration", "2s", "--logtostderr",
                     "--vmodule=factory=2", "--leader-elect=false"])
    assert code == 0, capsys.readouterr().err
    assert "Creating scheduler from algorithm provider" in capsys.readouterr().err

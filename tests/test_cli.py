"""The ``kschedlearn`` command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kschedlearn.cli import main
from kschedlearn.scenarios.scenario import bundled_names


def test_scenarios_lists_every_bundled_scenario_with_its_description(capsys):
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    for name in bundled_names():
        assert f"\n{name}\n" in f"\n{out}"
    assert "A hundred pods at once." in out


def _events(out: str) -> list[str]:
    """The trace's events: a line starting with ``#`` and its indented continuation lines, joined
    back into one line (the why after " — ", the link after "  <")."""
    events: list[str] = []
    for line in out.splitlines():
        if line.startswith("#"):
            events.append(line)
        elif line.startswith("      — ") or line.startswith("      <"):
            events[-1] += ("  " if line.lstrip().startswith("<") else " ") + line.strip()
        else:
            events[-1] += ("" if events[-1].endswith("/") else " ") + line.strip()
    return events


def test_trace_narrates_until_a_stage(capsys):
    assert main(["trace", "three-nodes", "--seed", "1", "--until", "assume"]) == 0
    lines = _events(capsys.readouterr().out)
    assert lines[-1].startswith("#121   t=   2.000s  assume  assumed default/web-1 on node-3 — ")
    assert lines[0].startswith("#5     t=   0.000s  main  kube-scheduler --leader-elect=false")


@pytest.mark.parametrize("links", [[], ["--links"]], ids=["plain", "links"])
def test_trace_fits_120_columns_wrapping_at_word_boundaries(links, capsys):
    """A newcomer's terminal: no line over 120 characters; the why and the link on their own
    indented lines; a message wraps between words, never inside one (joining the continuation
    lines gives every message and why back whole)."""
    from kschedlearn import Simulation

    assert main(["trace", "three-nodes", "--seed", "1", *links]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 120
    assert any(line.startswith("      — ") for line in lines)
    assert any(line.startswith(" " * 20) for line in lines)  # a long message did wrap
    if links:
        assert sum(line.startswith("      <https://github.com/kubernetes/kubernetes/blob/v1.6.1/")
                   for line in lines) >= 30
    sim = Simulation.from_scenario("three-nodes", seed=1, snapshots=False)
    for event in _events(out):
        ev = sim.goto(int(event.split()[0][1:]))
        assert ev.message in event and ev.why in event, (event, ev.message, ev.why)


def test_trace_numbers_every_line_with_the_event_number_render_step_takes(capsys):
    from kschedlearn import Simulation

    assert main(["trace", "three-nodes", "--seed", "1", "--granularity", "event", "--until", "finishBinding"]) == 0
    lines = _events(capsys.readouterr().out)
    sim = Simulation.from_scenario("three-nodes", seed=1, snapshots=False)
    for line in lines:
        number, rest = line.split(maxsplit=1)
        assert number.startswith("#")
        ev = sim.goto(int(number[1:]))
        assert rest.startswith(f"t={ev.time:8.3f}s  {ev.stage}  {ev.message}")
    assert len({line.split()[0] for line in lines}) == len(lines)


def test_trace_links_end_each_line_with_the_go_source_of_the_running_function(capsys):
    assert main(["trace", "three-nodes", "--seed", "1", "--links", "--until", "assume"]) == 0
    lines = _events(capsys.readouterr().out)
    # the Go function whose statement makes the observed call: scheduleOne calls AssumePod,
    # Schedule calls selectHost
    assert lines[-1].endswith("  <https://github.com/kubernetes/kubernetes/blob/v1.6.1/"
                              "plugin/pkg/scheduler/scheduler.go#L148-L225>")
    select = next(line for line in lines if "  selectHost  " in line)
    assert select.endswith("core/generic_scheduler.go#L86-L131>")
    assert main(["trace", "three-nodes", "--seed", "1", "--until", "assume"]) == 0
    assert "https://" not in capsys.readouterr().out


def test_trace_queue_operations_show_the_keys_after_the_operation(capsys):
    from kschedlearn import Simulation

    assert main(["trace", "three-nodes", "--seed", "1", "--granularity", "event", "--until", "fifo.pop"]) == 0
    lines = _events(capsys.readouterr().out)
    add = next(line for line in lines if "  fifo.add  " in line)
    pop = lines[-1]
    sim = Simulation.from_scenario("three-nodes", seed=1, snapshots=False)
    for line in (add, pop):
        ev = sim.goto(int(line.split()[0][1:]))
        keys = ", ".join(ev.data["queue_keys"]) or "(empty)"
        assert f"[podQueue keys after: {keys}]" in line
    assert "[podQueue keys after: default/web-1]" in add


@pytest.mark.parametrize("granularity", ["stage", "event"])
def test_trace_prints_the_crash_of_a_bad_policy(granularity, capsys):
    assert main(["trace", "bad-policy", "--granularity", granularity]) == 0
    out, err = capsys.readouterr()
    crash = [line for line in _events(out) if "  process.crash  " in line]
    assert len(crash) == 1
    assert ("scheduler-0 exited: FatalError: Invalid configuration: Predicate type not found for "
            "PodFitsResourcez") in crash[0]
    assert "Warning" not in err


def test_trace_until_a_misspelt_stage_suggests_the_right_one(capsys):
    assert main(["trace", "three-nodes", "--until", "asume"]) == 1
    assert "--until: unknown stage 'asume'; did you mean 'assume'?" in capsys.readouterr().err


def test_trace_json_lines_pod_granularity(capsys):
    assert main(["trace", "three-nodes", "--json", "--granularity", "pod", "--until", "cache.addPod"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert all("default/web-1" in (e["data"].get("pod"), e["data"].get("key")) for e in events)
    assert events[-1]["stage"] == "cache.addPod" and events[-1]["data"]["was_assumed"] is True
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(seqs)


def test_trace_until_a_stage_that_never_happens_is_an_error(capsys):
    assert main(["trace", "three-nodes", "--until", "expirePod"]) == 1
    assert "stage 'expirePod' never happened" in capsys.readouterr().err


def test_render_writes_svg_and_dot(tmp_path, capsys):
    svg = tmp_path / "out.svg"
    assert main(["render", "three-nodes", "--view", "cache", "--step", "98", "-o", str(svg), "--renderer", "text"]) == 0
    assert svg.read_text().startswith("<svg")
    dot = tmp_path / "out.dot"
    assert main(["render", "three-nodes", "--seed", "1", "--view", "pipeline", "--step", "98", "-o", str(dot)]) == 0
    assert dot.read_text().startswith("digraph pipeline {")


@pytest.mark.parametrize("argv, message, status", [
    (["render", "nope", "--view", "cache", "--step", "1", "-o", "x.svg"], "unknown scenario 'nope'; bundled ones: ", 1),
    (["render", "three-nodes", "--view", "nope", "--step", "1", "-o", "x.svg"], "--view: unknown view 'nope'", 2),
    (["render", "three-nodes", "--view", "cache", "--step", "99999", "-o", "x.svg"], "--step 99999: three-nodes has only", 1),
    (["trace", "missing-file.yaml"], "missing-file.yaml: no such scenario file", 1),
], ids=["unknown-scenario", "unknown-view", "step-too-far", "missing-file"])
def test_bad_input_is_a_one_line_error_exit_1(argv, message, status, capsys, tmp_path, monkeypatch):
    """Bad data exits 1; a bad flag value (a usage error, found before running) exits 2."""
    monkeypatch.chdir(tmp_path)
    assert main(argv) == status
    err = capsys.readouterr().err
    assert err.startswith("kschedlearn: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_bad_scenario_file_names_the_file_and_field(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nobjects:\n  - {kind: Node, metadata: {name: n}, status: {allocatable: {cpu: 12Q}}}\n")
    assert main(["trace", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "bad.yaml: objects[0]: " in err and "status.allocatable.cpu" in err and "12Q" in err


def test_kube_scheduler_prints_glog_lines_in_simulated_time(capsys):
    assert main(["kube-scheduler", "--leader-elect=false", "--scenario", "three-nodes", "--duration", "5s", "--v=2"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == ("I0403 00:00:00.000000 scheduler-0 factory.go] "
                      "Creating scheduler from algorithm provider 'DefaultProvider'")
    assert ("I0403 00:00:02.000000 scheduler-0 event.go] Event(web-1): type: 'Normal' reason: 'Scheduled' "
            "Successfully assigned web-1 to node-3") in err


def test_kube_scheduler_honours_its_flags(capsys):
    # a different scheduler name: the scenario's pods are not for it, nothing is scheduled
    assert main(["kube-scheduler", "--leader-elect=false", "--scheduler-name=other", "--scenario=three-nodes",
                 "--duration=5s", "--v=2"]) == 0
    err = capsys.readouterr().err
    assert "Scheduled" not in err


def test_kube_scheduler_flag_error_exits_2_with_usage(capsys):
    assert main(["kube-scheduler", "--kube-api-qps=fast", "--scenario", "three-nodes"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[0] == ('invalid argument "fast" for --kube-api-qps=fast: '
                                   'strconv.ParseFloat: parsing "fast": invalid syntax')
    assert "Usage of kube-scheduler:" in err


def test_kube_scheduler_help_exits_0(capsys):
    assert main(["kube-scheduler", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage of kube-scheduler:") and "--policy-config-file" in out


def test_kube_scheduler_needs_a_scenario(capsys):
    assert main(["kube-scheduler", "--leader-elect=false"]) == 2  # a usage error
    assert "--scenario NAME is required" in capsys.readouterr().err


def test_console_script_runs_as_a_process():
    proc = subprocess.run([sys.executable, "-m", "kschedlearn.cli", "trace", "no-such-scenario"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.startswith("kschedlearn: error: unknown scenario 'no-such-scenario'")
    assert "Traceback" not in proc.stderr


def test_kube_scheduler_with_port_serves_real_http_on_loopback():
    """--port: after the run, /healthz, /metrics and /configz answer on 127.0.0.1 (issue #5)."""
    import re
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "kschedlearn.cli", "kube-scheduler", "--leader-elect=false",
         f"--port={port}", "--scenario", "three-nodes", "--duration", "5s", "--serve-for", "20s"],
        stderr=subprocess.PIPE, text=True)
    try:
        line = ""
        deadline = time.time() + 60
        while "serving http://" not in line and time.time() < deadline:
            line = proc.stderr.readline()
            assert line or proc.poll() is None, "the command ended before serving"
        assert re.search(rf"serving http://127\.0\.0\.1:{port}/healthz", line)
        base = f"http://127.0.0.1:{port}"
        assert urllib.request.urlopen(base + "/healthz", timeout=10).read() == b"ok"
        metrics = urllib.request.urlopen(base + "/metrics", timeout=10).read().decode()
        assert "scheduler_e2e_scheduling_latency_microseconds_count" in metrics
        assert '"schedulerName": "default-scheduler"' in urllib.request.urlopen(base + "/configz", timeout=10).read().decode()
    finally:
        proc.terminate()
        proc.wait(timeout=30)

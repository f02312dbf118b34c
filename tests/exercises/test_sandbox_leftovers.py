"""Nothing a check starts outlives it (issue #26): processes the learner's code spawns are
stopped and reported, a check whose parent is killed leaves nothing running, output is capped
however it is written, and the mirror's module state is restored after a live plug-in.

Processes are counted from /proc: the descendants of this test process (or of the subprocess
playing the notebook kernel) before and after. A zombie (state Z) has exited; it is not running.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kschedlearn import Simulation
from kschedlearn.exercises import check, get_task, plug_in, plug_in_scenario
from kschedlearn.exercises.sandbox import OUTPUT_LIMIT, fork_available

pytestmark = [pytest.mark.skipif(not fork_available() or not Path("/proc/self/stat").exists(),
                                 reason="the sandbox needs os.fork; counting processes needs /proc")]
ROOT = Path(__file__).resolve().parents[2]
SOLUTION = get_task("8.1").load_solution()


def _table() -> dict[int, tuple[int, str]]:
    """{pid: (parent pid, state)} of every process."""
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                data = Path(f"/proc/{name}/stat").read_bytes()
            except OSError:
                continue
            fields = data[data.rindex(b")") + 2:].split()
            out[int(name)] = (int(fields[1]), fields[0].decode())
    return out


def _running_under(root: int) -> set[int]:
    """Descendants of ``root`` that are running (not zombies)."""
    table = _table()
    found, todo = set(), [root]
    while todo:
        parent = todo.pop()
        for pid, (ppid, _) in table.items():
            if ppid == parent and pid not in found:
                found.add(pid)
                todo.append(pid)
    return {p for p in found if table.get(p, (0, "Z"))[1] not in ("Z", "X")}


def _alive(pids: set[int]) -> set[int]:
    table = _table()
    return {p for p in pids if p in table and table[p][1] not in ("Z", "X")}


def _sleeper() -> None:
    time.sleep(600)


def test_fifty_forks_are_stopped_and_reported():
    forked = []

    def get_backoff(entry, max_duration):
        while len(forked) < 50:  # on its first call (the check's cases run in one child)
            forked.append(1)
            if os.fork() == 0:
                _sleeper()
                os._exit(0)
        return SOLUTION(entry, max_duration)

    before = _running_under(os.getpid())
    report = check("8.1", get_backoff)
    assert _running_under(os.getpid()) == before
    assert report.passed, str(report)
    assert "Your function left 50 processes running; they were stopped." in report.notes, report.notes


def test_a_spawned_subprocess_is_stopped_and_reported():
    spawned = []

    def get_backoff(entry, max_duration):
        if not spawned:
            spawned.append(subprocess.Popen(["sleep", "600"]))
        return SOLUTION(entry, max_duration)

    before = _running_under(os.getpid())
    report = check("8.1", get_backoff)
    assert _running_under(os.getpid()) == before
    assert "Your function left 1 process running; it was stopped." in report.notes, report.notes


def test_a_subprocess_in_its_own_session_is_stopped_too():
    """``setsid`` leaves the process group; the supervisor still finds it (its child subreaper)."""
    def get_backoff(entry, max_duration):
        subprocess.Popen(["sleep", "600"], start_new_session=True)
        return SOLUTION(entry, max_duration)

    before = _running_under(os.getpid())
    report = check("8.1", get_backoff)
    assert _running_under(os.getpid()) == before
    assert any("processes running; they were stopped" in n for n in report.notes), report.notes


def test_plug_in_and_plug_in_scenario_leave_nothing_and_say_so():
    def get_backoff(entry, max_duration):
        if os.fork() == 0:
            _sleeper()
            os._exit(0)
        return SOLUTION(entry, max_duration)

    before = _running_under(os.getpid())
    report = plug_in("8.1", get_backoff)
    assert _running_under(os.getpid()) == before
    assert any("processes running; they were stopped" in n for n in report.notes), str(report)
    result = plug_in_scenario("8.1", get_backoff, "unschedulable-then-fits")
    assert _running_under(os.getpid()) == before
    assert any("processes running; they were stopped" in n for n in result.notes), str(result)


def test_a_timed_out_check_stops_what_the_loop_started():
    def get_backoff(entry, max_duration):
        for _ in range(3):
            if os.fork() == 0:
                _sleeper()
                os._exit(0)
        while True:
            pass

    before = _running_under(os.getpid())
    report = check("8.1", get_backoff, time_limit=1.0)
    assert _running_under(os.getpid()) == before
    assert "Your function left 3 processes running; they were stopped." in report.notes


_KERNEL = textwrap.dedent('''
    import os, sys, time
    from kschedlearn.exercises import check

    def get_backoff(entry, max_duration):
        for _ in range(5):
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
        open(sys.argv[1], "w").close()  # the check is running now
        while True:
            try:
                while True:
                    pass
            except BaseException:
                continue

    check("8.1", get_backoff, time_limit=300)
''')


@pytest.mark.slow
def test_a_looping_check_whose_parent_is_killed_leaves_nothing_within_two_seconds(tmp_path):
    marker = tmp_path / "running"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    kernel = subprocess.Popen([sys.executable, "-c", _KERNEL, str(marker)], env=env, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert kernel.poll() is None and time.monotonic() < deadline, "the check never started"
            time.sleep(0.05)
        check_processes = _running_under(kernel.pid)
        assert len(check_processes) >= 2 + 5  # supervisor, worker, the learner's five forks
        kernel.send_signal(signal.SIGKILL)
        kernel.wait()
        killed_at = time.monotonic()
        while _alive(check_processes) and time.monotonic() - killed_at < 2.0:
            time.sleep(0.02)
        assert _alive(check_processes) == set(), f"still running {time.monotonic() - killed_at:.1f} s after: " \
            f"{sorted(_alive(check_processes))}"
    finally:
        if kernel.poll() is None:
            kernel.kill()
            kernel.wait()


def test_ten_megabytes_printed_are_capped_and_the_report_says_so(capfd):
    printed = []

    def get_backoff(entry, max_duration):
        if not printed:
            printed.append(print("x" * 10_000_000))
        return SOLUTION(entry, max_duration)

    report = check("8.1", get_backoff)
    out = capfd.readouterr().out
    assert len(out) < OUTPUT_LIMIT + 1_000
    assert report.passed
    assert report.notes[0] == (f"Your code printed 10,000,001 characters; the first {OUTPUT_LIMIT:,} are shown and "
                               f"the other {10_000_001 - OUTPUT_LIMIT:,} were dropped."), report.notes


def test_output_written_to_the_file_descriptor_is_capped_too(capfd):
    """``os.write(1, ...)`` (or C code, or a subprocess) bypasses sys.stdout."""
    def get_backoff(entry, max_duration):
        os.write(1, b"y" * 5_000_000)
        return SOLUTION(entry, max_duration)

    report = check("8.1", get_backoff)
    out = capfd.readouterr().out
    assert len(out) < OUTPUT_LIMIT + 1_000 and "y" * 100 in out
    assert "Your code printed" in report.notes[0] and "were dropped" in report.notes[0]


def test_a_plain_terminal_gets_the_capped_output_too(tmp_path):
    """Not only in a kernel: ``check`` run by a plain ``python`` writes at most the cap."""
    code = textwrap.dedent('''
        from kschedlearn.exercises import check, get_task
        sol = get_task("8.1").load_solution()
        def get_backoff(entry, max_duration):
            print("z" * 10_000_000)
            return sol(entry, max_duration)
        print(check("8.1", get_backoff))
    ''')
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) < OUTPUT_LIMIT + 5_000 and "Your code printed" in done.stdout


def test_mirror_globals_a_learner_changes_in_a_live_plug_in_are_restored_and_named():
    from kschedlearn.scheduler.algorithm.predicates import predicates as preds
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo

    real_module_fn, real_method = preds.pod_fits_host_ports, NodeInfo.allowed_pod_number
    solution = get_task("6.1").load_solution()

    def pod_fits_resources(pod, meta, node_info):
        preds.pod_fits_host_ports = lambda *a: (True, [])  # the learner's own monkey-patch
        NodeInfo.allowed_pod_number = lambda self: 1
        return solution(pod, meta, node_info)

    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.start()
    report = plug_in("6.1", pod_fits_resources, sim)
    assert preds.pod_fits_host_ports is real_module_fn and NodeInfo.allowed_pod_number is real_method
    note = next(n for n in report.notes if "module-level name" in n)
    assert "kschedlearn.scheduler.algorithm.predicates.predicates.pod_fits_host_ports" in note
    assert "NodeInfo.allowed_pod_number" in note and "restored after the run" in note


def test_a_plug_in_that_changes_nothing_reports_nothing_restored():
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.start()
    report = plug_in("6.1", get_task("6.1").load_solution(), sim)
    assert report.same and not any("module-level" in n for n in report.notes), str(report)

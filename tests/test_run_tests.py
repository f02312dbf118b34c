"""``tools/run_tests.py`` (``make test``'s runner): every test runs once, a file's tests in one
process with its module fixture built once, failures and the summary reach the output, and the
exit status is pytest's."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: a little suite of its own: each test notes (file, test, process) in ran.jsonl, each module
#: fixture notes its builds; one failure, one skip, one deselected test, one slower test
_FILES = {
    "conftest.py": '''
import json, os, pytest
def pytest_configure(config):
    config.addinivalue_line("markers", "slow: deselected by the runner test")
@pytest.fixture(scope="module")
def built(request):
    with open(os.environ["RAN_LOG"], "a") as f:
        f.write(json.dumps({"built": request.module.__name__, "pid": os.getpid()}) + "\\n")
    return request.module.__name__
def pytest_collection_finish(session):
    with open(os.environ["RAN_LOG"] + ".started", "a") as f:
        f.write(f"{os.getpid()}\\n")
@pytest.fixture(autouse=True)
def note(request, built):
    with open(os.environ["RAN_LOG"], "a") as f:
        f.write(json.dumps({"test": request.node.nodeid, "pid": os.getpid(), "built": built}) + "\\n")
''',
    # the first file waits until both processes have collected, so that both take files
    "test_a_wait.py": ("import os, time\ndef test_until_both_started():\n    path = os.environ['RAN_LOG'] + '.started'\n"
                       "    deadline = time.monotonic() + 60\n"
                       "    while len(open(path).read().split()) < 2 and time.monotonic() < deadline:\n"
                       "        time.sleep(0.05)\n"),
    "test_one.py": "def test_a(): pass\ndef test_b(): pass\ndef test_c(): pass\n",
    "test_two.py": ("import pytest\ndef test_fails(): assert 1 + 1 == 3, 'arithmetic went wrong'\n"
                    "def test_skips(): pytest.skip('not here')\n@pytest.mark.slow\ndef test_deselected(): pass\n"),
    "test_three.py": "import time\ndef test_slower(): time.sleep(0.3)\n",
    "test_four.py": "import pytest\n@pytest.mark.parametrize('n', range(5))\ndef test_many(n): pass\n",
}


def _suite(where: Path) -> Path:
    where.mkdir()
    for name, text in _FILES.items():
        (where / name).write_text(text, encoding="utf-8")
    return where


def test_each_test_runs_once_and_the_run_reports_like_pytest(tmp_path: Path) -> None:
    suite = _suite(tmp_path / "suite")
    log = tmp_path / "ran.jsonl"
    suite.joinpath("pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "run_tests.py"), "--processes", "2", "--durations=3",
         "-m", "not slow", "-p", "no:cacheprovider", str(suite)],
        capture_output=True, text=True, cwd=ROOT, timeout=120, env={**_env(), "RAN_LOG": str(log)},
    )
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    ran = [r["test"] for r in rows if "test" in r]
    assert sorted(ran) == sorted(set(ran)) and len(ran) == 12  # 1 + 3 + 2 + 1 + 5; the slow one deselected
    assert "test_two.py::test_deselected" not in " ".join(ran)
    builds = [r["built"] for r in rows if "test" not in r]
    assert sorted(builds) == ["test_a_wait", "test_four", "test_one", "test_three", "test_two"]  # once per file
    built_in = {r["built"]: r["pid"] for r in rows if "test" not in r}
    for r in rows:  # a file's tests all ran in the process that built its module fixture
        assert r["pid"] == built_in[r["built"]]
    assert len(set(built_in.values())) == 2  # both processes took files
    assert out.returncode == 1, out.stdout
    assert "arithmetic went wrong" in out.stdout and "FAILED" in out.stdout
    assert out.stdout.count("pytest process ") == 2
    last = out.stdout.strip().splitlines()[-1]
    assert re.search(r" 1 failed, 10 passed, 1 skipped, 1 deselected in [0-9.]+s \(2 pytest processes\) ", last), last
    slowest = out.stdout.split(" slowest 3 durations ")[1].splitlines()[1]
    assert re.fullmatch(r"0\.[3-9]\d*s call +test_three\.py::test_slower|[1-9][0-9.]*s call +test_three\.py::test_slower", slowest)


def test_a_passing_run_exits_0_and_one_process_is_pytest_alone(tmp_path: Path) -> None:
    suite = _suite(tmp_path / "suite")
    (suite / "test_two.py").unlink()
    (suite / "test_a_wait.py").unlink()
    suite.joinpath("pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    log = tmp_path / "ran.jsonl"
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "run_tests.py"), "--processes", "1", "-p", "no:cacheprovider", str(suite)],
        capture_output=True, text=True, cwd=ROOT, timeout=120, env={**_env(), "RAN_LOG": str(log)},
    )
    assert out.returncode == 0, out.stdout
    assert out.stdout.strip().splitlines()[-1].startswith("=") and " 9 passed in " in out.stdout
    assert len({json.loads(line)["pid"] for line in log.read_text(encoding="utf-8").splitlines()}) == 1


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}


def test_a_sigterm_to_the_runner_stops_every_pytest_process(tmp_path: Path) -> None:
    suite = _suite(tmp_path / "suite")
    suite.joinpath("pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (suite / "test_zz_sleeps.py").write_text("import time\ndef test_sleeps(): time.sleep(120)\n", encoding="utf-8")
    log = tmp_path / "ran.jsonl"
    runner = subprocess.Popen(
        [sys.executable, str(ROOT / "tools" / "run_tests.py"), "--processes", "2", "-p", "no:cacheprovider", str(suite)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env={**_env(), "RAN_LOG": str(log)},
    )
    try:
        started = Path(str(log) + ".started")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (started.exists() and len(started.read_text().split()) == 2):
            time.sleep(0.05)
        pids = [int(p) for p in started.read_text().split()]
        time.sleep(0.5)
        runner.send_signal(signal.SIGTERM)
        out, _ = runner.communicate(timeout=60)
    finally:
        if runner.poll() is None:
            runner.kill()
    assert runner.returncode == 2, out
    for pid in pids:  # reaped by the runner: gone
        assert not Path(f"/proc/{pid}").exists()
    assert out.count("pytest process ") == 2

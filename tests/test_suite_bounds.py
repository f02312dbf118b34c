"""The suite cannot hang: every test is bounded by pytest-timeout and no test disarms it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = sorted(p for p in (ROOT / "tests").rglob("*.py") if p.name != Path(__file__).name)
#: the one test that touches ITIMER_REAL on purpose, and hands pytest-timeout's alarm back
RESTORES_THE_ALARM = {"tests/exercises/test_sandbox.py"}
#: tests whose alarm is set only by a learner function that runs in the sandbox's worker process
#: (the test's own process, and its pytest-timeout alarm, are never touched)
ALARM_ONLY_IN_THE_SANDBOX = {"tests/test_bad_input_corpus_sandbox.py"}


def test_a_global_timeout_is_configured():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert 0 < int(config["timeout"]) <= 600
    assert any(m.startswith("slow:") for m in config["markers"])


def test_no_test_disarms_the_timeout():
    disarming = re.compile(r"mark\.timeout\(\s*(0|None)\s*[,)]|timeout_disable|--timeout[= ]0\b")
    offenders = [str(p.relative_to(ROOT)) for p in TESTS if disarming.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_only_the_sandbox_test_touches_the_real_timer():
    touching = {str(p.relative_to(ROOT)) for p in TESTS
                if re.search(r"ITIMER_REAL|signal\.alarm\(", p.read_text(encoding="utf-8"))}
    assert touching <= RESTORES_THE_ALARM | ALARM_ONLY_IN_THE_SANDBOX
    text = (ROOT / "tests/exercises/test_sandbox.py").read_text(encoding="utf-8")
    assert "hand pytest-timeout its alarm back" in text
    for path in ALARM_ONLY_IN_THE_SANDBOX:
        assert "runs in the sandbox's worker" in (ROOT / path).read_text(encoding="utf-8")


def test_make_test_fast_skips_only_the_slow_tests():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r'^test-fast:.*\n\t.*pytest -m "not slow"', makefile, re.M)

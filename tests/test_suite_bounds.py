"""The suite cannot hang: every test is bounded by pytest-timeout and no test disarms it."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

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
    assert re.search(r'^PYTEST := .*-m pytest,tools/run_tests.py --processes \$\(PYTEST_WORKERS\)\)$', makefile, re.M)
    assert re.search(r'^test-fast:.*\n\tKSCHEDLEARN_FAST_LOOP=1 \$\(PYTEST\) -m "not slow"$', makefile, re.M)
    assert re.search(r'^test:.*\n\t\$\(PYTEST\) --durations=30$', makefile, re.M)


def test_make_test_runs_every_property_example(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only ``make test-fast`` trims the property tests' examples; ``make test`` and CI run them all."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert makefile.count("KSCHEDLEARN_FAST_LOOP") == 1
    assert "KSCHEDLEARN_FAST_LOOP" not in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for value, expected in ((None, (200, 100, 15)), ("1", (40, 20, 15))):
        if value is None:
            monkeypatch.delenv("KSCHEDLEARN_FAST_LOOP", raising=False)
        else:
            monkeypatch.setenv("KSCHEDLEARN_FAST_LOOP", value)
        budget = _own_module("hypothesis_budget.py")
        assert (budget.examples(200), budget.examples(100), budget.examples(15)) == expected


def _own_module(name: str) -> Any:
    """``tests/<name>`` loaded afresh as a module of its own (it reads the environment as it is now)."""
    spec = importlib.util.spec_from_file_location(f"suite_{name.removesuffix('.py')}", ROOT / "tests" / name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _conftest() -> Any:
    """tests/conftest.py loaded as a module of its own (its lists and hooks)."""
    return _own_module("conftest.py")


class Item:
    """What conftest's collection hook reads of a collected test: its path and its markers (none)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def get_closest_marker(self, name: str) -> None:
        return None

    def add_marker(self, marker: object) -> None:
        pass


def test_every_end_to_end_file_exists_and_is_marked_slow() -> None:
    # the list in tests/conftest.py names files; a renamed file would silently rejoin test-fast
    conftest = _conftest()
    missing = sorted(f for f in conftest.END_TO_END_FILES if not (ROOT / "tests" / f).is_file())
    assert missing == []
    assert conftest._end_to_end(Item(ROOT / "tests" / "test_kubectl.py"))
    assert conftest._end_to_end(Item(ROOT / "tests" / "simulation" / "test_views.py"))
    assert not conftest._end_to_end(Item(ROOT / "tests" / "test_suite_bounds.py"))


def test_the_longest_files_go_first_to_the_workers() -> None:
    """``make test``'s processes claim files in collection order (``tests/file_claims.py``) and
    conftest puts the longest files first; a renamed file would silently fall back to the end."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^PYTEST_WORKERS \?= 3$", makefile, re.M)  # three processes on two cores: the Makefile says why
    conftest = _conftest()
    assert sorted(f for f in conftest.LONGEST_FIRST if not (ROOT / "tests" / f).is_file()) == []
    names = ["test_suite_bounds.py", "trace/test_event_dump.py", "test_packaging.py", "test_kubectl.py",
             "simulation/test_views.py"]
    items = [Item(ROOT / "tests" / n) for n in names]
    conftest.pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]
    order = [str(i.path.relative_to(ROOT / "tests")) for i in items]
    assert order == ["test_packaging.py", "simulation/test_views.py", "trace/test_event_dump.py",
                     "test_suite_bounds.py", "test_kubectl.py"]

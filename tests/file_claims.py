"""A pytest plugin: several pytest processes share one suite, a whole test file at a time.

``tools/run_tests.py`` (``make test``, ``make test-fast``) starts three pytest processes with
``-p tests.file_claims --claims-dir DIR``. Each collects the whole suite (in the same order:
``tests/conftest.py`` sorts the longest files first) and then, instead of pytest's own loop, runs
only the files it *claims*: a claim is a file created in ``DIR`` with ``O_CREAT | O_EXCL``, which
exactly one process can make, so every test file runs once, in one process, and its
module-scoped fixtures are built once — what ``pytest-xdist --dist loadfile`` gave, without its
controller process: that one received, decoded and dispatched three reports a test and did its
own book-keeping per report (~2 ms a test measured, ~16 CPU-s of ``make test-fast``'s ~127 on
the 2-core machine, 2026-12-03), on the same two cores as the tests.

A process claims the next file when it starts the last test of its current one, so pytest still
knows each test's ``nextitem`` (the module's fixtures are torn down after its last test, as in
pytest's own loop). Every report is also written, one JSON line each, to
``DIR/reports-<slot>.jsonl`` (the runner's progress line and its merged slowest-tests list), and
the end-of-run counts to ``DIR/counts-<slot>.json`` (its merged summary line).

Without ``--claims-dir`` the plugin does nothing: plain ``pytest`` runs as usual.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

_LOG: list[IO[str]] = []


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("file claims", "several pytest processes, one file each at a time")
    group.addoption("--claims-dir", default=None, help="the folder where the processes claim files (tools/run_tests.py)")
    group.addoption("--claims-slot", type=int, default=0, help="this process's number among them")


def _folder(config: pytest.Config) -> Path | None:
    value = config.getoption("claims_dir", None)
    return None if value is None else Path(value)


def _by_file(items: list[pytest.Item]) -> list[list[pytest.Item]]:
    """The items in runs of one file each, in their order (a file's items are contiguous after
    ``tests/conftest.py``'s stable sort)."""
    runs: list[list[pytest.Item]] = []
    for item in items:
        if runs and runs[-1][0].path == item.path:
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def _claim(folder: Path, item: pytest.Item) -> bool:
    """True when this process made the claim for ``item``'s file (the first to ask)."""
    key = item.nodeid.split("::", 1)[0].replace("/", "%")
    try:
        os.close(os.open(folder / f"claim-{key}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def _claimed(folder: Path, runs: list[list[pytest.Item]]) -> Iterator[list[pytest.Item]]:
    for run in runs:
        if _claim(folder, run[0]):
            yield run


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    """pytest's own loop (``_pytest.main.pytest_runtestloop``) over the claimed files only."""
    folder = _folder(session.config)
    if folder is None:
        return None
    if session.testsfailed and not session.config.option.continue_on_collection_errors:
        raise session.Interrupted(f"{session.testsfailed} error{'s' if session.testsfailed != 1 else ''} during collection")
    if session.config.option.collectonly:
        return True
    claimed = _claimed(folder, _by_file(session.items))
    run = next(claimed, None)
    while run is not None:
        following = None
        for index, item in enumerate(run):
            if index + 1 < len(run):
                nextitem: pytest.Item | None = run[index + 1]
            else:  # claim the next file now: its first test is this one's nextitem
                following = next(claimed, None)
                nextitem = following[0] if following is not None else None
            item.config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
            if session.shouldfail:
                raise session.Failed(session.shouldfail)
            if session.shouldstop:
                raise session.Interrupted(session.shouldstop)
        run = following
    return True


def pytest_configure(config: pytest.Config) -> None:
    folder = _folder(config)
    if folder is not None:
        slot = config.getoption("claims_slot")
        _LOG.append(open(folder / f"reports-{slot}.jsonl", "a", encoding="utf-8", buffering=1))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if not _LOG:
        return
    line = {"nodeid": report.nodeid, "when": report.when, "outcome": report.outcome, "duration": report.duration}
    _LOG[0].write(json.dumps(line) + "\n")


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The counts the summary line is made of (``TerminalReporter.stats``), for the runner."""
    folder = _folder(terminalreporter.config)
    if folder is None:
        return
    slot = terminalreporter.config.getoption("claims_slot")
    counts = {key: len(values) for key, values in terminalreporter.stats.items() if key}
    (folder / f"counts-{slot}.json").write_text(json.dumps(counts), encoding="utf-8")
    if _LOG:
        _LOG.pop().close()

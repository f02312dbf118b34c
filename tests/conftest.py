"""Suite-wide set-up: the learner's progress file goes to a temporary folder, never the user's.

kschedlearn-only (issue 22 item 4). ``check``, predict cells, ``ask`` and the mastery check
record what a learner passed in ``$KSCHEDLEARN_DATA_DIR/progress.json``; the suite points that
variable at a fresh temporary folder before anything is collected, so no test (nor a notebook
kernel or subprocess a test starts, which inherit the environment) writes to the real one.
Tests of the progress file itself set their own folder with ``monkeypatch``.
"""

from __future__ import annotations

import os
import shutil
import tempfile

from kschedlearn.curriculum.progress import ENV_VAR

_MADE: list[str] = []


def pytest_configure(config: object) -> None:
    folder = tempfile.mkdtemp(prefix="kschedlearn-test-progress-")
    _MADE.append(folder)
    os.environ[ENV_VAR] = folder


def pytest_unconfigure(config: object) -> None:
    for folder in _MADE:
        shutil.rmtree(folder, ignore_errors=True)

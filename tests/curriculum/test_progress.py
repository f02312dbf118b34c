"""The learner's progress file: what records it, where it lives, what survives, what a bad file does.

Go: none — kschedlearn-only (issue 22 item 4, "must show": progress() records a passed check, a
passed prediction and an exercise; survives a kernel restart; a corrupt file gives a clear
message). Every test points ``$KSCHEDLEARN_DATA_DIR`` at its own temporary folder.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import kschedlearn
from kschedlearn.curriculum import progress as P
from kschedlearn.exercises import check
from kschedlearn.exercises.solutions.nb08 import get_backoff
from kschedlearn.simulation import questions_client_go as C
from kschedlearn.widgets.predict import PredictCell

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(P.ENV_VAR, str(tmp_path))
    return tmp_path


def test_default_location_is_the_users_data_folder_not_the_repository() -> None:
    home = {"HOME": "/home/learner"}
    assert P.progress_path(home) == Path("/home/learner/.local/share/kschedlearn/progress.json")
    assert P.data_dir({**home, "XDG_DATA_HOME": "/x"}) == Path("/x/kschedlearn")
    assert P.data_dir(home, platform="darwin") == Path("/home/learner/Library/Application Support/kschedlearn")
    assert P.data_dir({**home, "APPDATA": "C:/Users/l/AppData/Roaming"}, platform="win32").name == "kschedlearn"
    assert P.data_dir({**home, P.ENV_VAR: "/tmp/elsewhere"}) == Path("/tmp/elsewhere")
    assert ROOT not in P.progress_path(home).parents


def test_records_a_passed_prediction_check_and_exercise(data_dir: Path) -> None:
    cell = PredictCell(C.selector_question, seed=1, activity="02/selector")
    wrong = next(c for c in cell.question.choices if c != cell.question.answer)
    cell.answer(wrong)
    assert "02/selector" not in kschedlearn.progress().passed("prediction")  # measured: a wrong answer
    cell.answer(cell.question.answer)
    report = check("8.1", get_backoff)
    assert report.passed
    prog = kschedlearn.progress()
    assert prog.passed("prediction") == ("02/selector",)
    assert prog.passed("exercise") == ("8.1",)
    assert prog.path == data_dir / "progress.json"
    rec = prog.records["prediction:02/selector"]
    assert rec.attempts == 2 and rec.passed and rec.last_passed
    text = str(prog)
    assert str(data_dir / "progress.json") in text and "02/selector" in text and "8.1" in text


def test_a_failed_exercise_check_is_recorded_as_not_passed(data_dir: Path) -> None:
    report = check("8.1", lambda entry, max_duration: 0.0)
    assert not report.passed
    assert kschedlearn.progress().records["exercise:8.1"].passed is False


def test_a_pass_is_never_lost_to_a_later_wrong_answer(data_dir: Path) -> None:
    store = P.store()
    store.record("prediction", "05/expire-time", True)
    store.record("prediction", "05/expire-time", False)
    rec = store.get("prediction", "05/expire-time")
    assert rec is not None and rec.passed and not rec.last_passed and rec.attempts == 2


_CHILD = """
import sys
from kschedlearn.curriculum import progress
if sys.argv[1] == "write":
    progress.record("check", "02/app-index", True)
else:
    import kschedlearn
    print(",".join(kschedlearn.progress().passed("check")))
"""


def test_survives_a_kernel_restart(data_dir: Path) -> None:
    """Two separate processes: one records, the next one (a restarted kernel) reads it back."""
    env = {**__import__("os").environ, P.ENV_VAR: str(data_dir)}
    subprocess.run([sys.executable, "-c", _CHILD, "write"], check=True, env=env, cwd=ROOT, timeout=120)
    out = subprocess.run([sys.executable, "-c", _CHILD, "read"], check=True, env=env, cwd=ROOT, timeout=120,
                         capture_output=True, text=True)
    assert out.stdout.strip() == "02/app-index"


@pytest.mark.parametrize("content, why", [
    ("{not json", "it is not JSON"),
    ('{"format": "something-else", "records": {}}', "not a kschedlearn progress file"),
    ('[1, 2, 3]', "not a kschedlearn progress file"),
    ('{"format": "kschedlearn-progress", "version": 99, "records": {}}', "version 99"),
    ('{"format": "kschedlearn-progress", "version": 1, "records": {"prediction:x": {"passed": true}}}',
     "lacks a field"),
    ('{"format": "kschedlearn-progress", "version": 1, "records": {"nonsense": {}}}', "not a progress record"),
], ids=["not-json", "foreign", "a-list", "future-version", "missing-field", "bad-key"])
def test_a_corrupt_or_foreign_file_is_kept_aside_with_a_clear_message(data_dir: Path, content: str, why: str) -> None:
    path = data_dir / "progress.json"
    path.write_text(content)
    with pytest.warns(P.ProgressFileWarning) as caught:
        prog = kschedlearn.progress()
    message = str(caught[0].message)
    assert str(path) in message and why in message and "starts fresh" in message
    assert prog.records == {} and message in str(prog)
    kept = [p for p in data_dir.iterdir() if p.name.startswith("progress.json.unreadable-")]
    assert len(kept) == 1 and kept[0].read_text() == content  # nothing deleted
    # and the learner goes on: the next record starts a fresh, valid file
    P.record("prediction", "00/winner", True)
    assert json.loads(path.read_text())["records"]["prediction:00/winner"]["passed"] is True


def test_an_unwritable_folder_warns_and_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(P.ENV_VAR, str(blocker / "inside"))
    cell = PredictCell(C.selector_question, seed=1, activity="02/selector")
    with pytest.warns(P.ProgressFileWarning, match="progress not saved"):
        verdict = cell.answer(cell.question.answer)
    assert verdict.correct  # the learner still gets the verdict


def test_reset_keeps_the_old_file_and_starts_over(data_dir: Path) -> None:
    P.record("check", "02/app-index", True)
    prog = kschedlearn.progress()
    kept = prog.reset()
    assert kept is not None and kept.exists() and "02/app-index" in kept.read_text()
    assert kschedlearn.progress().records == {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kschedlearn.progress().reset() is None  # nothing to reset: no warning, no error


def test_bad_record_arguments_are_refused(data_dir: Path) -> None:
    with pytest.raises(ValueError, match="kind must be one of"):
        P.record("guess", "x", True)
    with pytest.raises(ValueError, match="non-empty string"):
        P.record("check", "", True)

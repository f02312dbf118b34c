"""The learner's progress: what was passed, kept in a small JSON file outside the repository.

Go: none — kschedlearn-only (issue 22 item 4). Only what was measured is recorded, by the code
that measured it: a predict cell's verdict and an ``ask`` verdict (kind ``prediction``), a
notebook code task judged by ``check`` (``check``), an exercise whose every case passed
(``exercise``), a mastery-check score (``mastery``). A record remembers whether it was *ever*
passed, so re-running a notebook, or a later wrong answer, never takes a pass away.

Where: ``$KSCHEDLEARN_DATA_DIR/progress.json`` when that variable is set (tests point it at a
temporary folder), else the user's data folder (``$XDG_DATA_HOME/kschedlearn`` or
``~/.local/share/kschedlearn`` on Linux, ``~/Library/Application Support/kschedlearn`` on macOS,
``%APPDATA%\\kschedlearn`` on Windows). A file that cannot be read or is not ours is moved
aside (kept, renamed ``progress.json.unreadable-<time>``) with a warning that says so, and
progress starts fresh: never a traceback, nothing deleted. A failed write warns and goes on.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

ENV_VAR = "KSCHEDLEARN_DATA_DIR"
FILE_NAME = "progress.json"
FORMAT = "kschedlearn-progress"
VERSION = 1
KINDS = ("prediction", "check", "exercise", "mastery")
"""What can be recorded: a predict/ask verdict, a notebook code task, an exercise, a mastery score."""


class ProgressFileWarning(UserWarning):
    """The progress file could not be read or written (the message says what happened to it)."""


def data_dir(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Path:
    """The folder holding the progress file (``$KSCHEDLEARN_DATA_DIR`` wins)."""
    env = os.environ if environ is None else environ
    if env.get(ENV_VAR):
        return Path(env[ENV_VAR]).expanduser()
    plat = sys.platform if platform is None else platform
    home = Path(env.get("HOME") or Path.home())
    if plat.startswith("win"):
        return Path(env.get("APPDATA") or home / "AppData" / "Roaming") / "kschedlearn"
    if plat == "darwin":
        return home / "Library" / "Application Support" / "kschedlearn"
    return Path(env.get("XDG_DATA_HOME") or home / ".local" / "share") / "kschedlearn"


def progress_path(environ: Mapping[str, str] | None = None) -> Path:
    """The progress file's path."""
    return data_dir(environ) / FILE_NAME


@attrs.frozen
class Record:
    """One recorded activity: ``passed`` is true once any attempt passed (a pass is never lost)."""

    kind: str
    key: str
    passed: bool
    attempts: int
    last_passed: bool
    first_passed_at: str | None
    last_at: str
    detail: str = ""

    @property
    def ref(self) -> str:
        """``kind:key``, the record's key in the file."""
        return f"{self.kind}:{self.key}"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def _record_from(ref: str, raw: Any) -> Record:
    kind, sep, key = ref.partition(":")
    if not sep or kind not in KINDS or not key or not isinstance(raw, dict):
        raise ValueError(f"entry {ref!r} is not a progress record")
    try:
        return Record(kind=kind, key=key, passed=bool(raw["passed"]), attempts=int(raw["attempts"]),
                      last_passed=bool(raw["last_passed"]), first_passed_at=raw.get("first_passed_at"),
                      last_at=str(raw["last_at"]), detail=str(raw.get("detail", "")))
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"entry {ref!r} lacks a field or has a wrong one ({err})") from None


def _as_json(rec: Record) -> dict[str, Any]:
    return {"passed": rec.passed, "attempts": rec.attempts, "last_passed": rec.last_passed,
            "first_passed_at": rec.first_passed_at, "last_at": rec.last_at, "detail": rec.detail}


def _parse(text: str) -> dict[str, Record]:
    """The records of a progress file's text; ValueError naming what is wrong."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"it is not JSON ({err})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"it is not a kschedlearn progress file (no \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION:
        raise ValueError(f"it has version {doc.get('version')!r}; this kschedlearn reads version {VERSION}")
    records = doc.get("records")
    if not isinstance(records, dict):
        raise ValueError("its \"records\" is not an object")
    return {ref: _record_from(ref, raw) for ref, raw in records.items()}


@attrs.define(eq=False)
class ProgressStore:
    """The progress file at ``path``: read on every access (another kernel may have written it),
    written atomically (a temporary file renamed over it)."""

    path: Path = attrs.field(factory=progress_path, converter=Path)
    notices: list[str] = attrs.field(factory=list, init=False)

    def records(self) -> dict[str, Record]:
        """Every record, by ``kind:key`` (empty when there is no file yet)."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return {}  # nothing recorded yet (or the folder cannot exist: the write will say so)
        except IsADirectoryError:
            self._warn(f"kschedlearn: {self.path} is a folder, not a progress file; progress is not kept. "
                       f"Point ${ENV_VAR} elsewhere or move that folder.")
            return {}
        except (OSError, UnicodeDecodeError) as err:
            return self._set_aside(f"it could not be read ({type(err).__name__}: {err})")
        try:
            return _parse(text)
        except ValueError as err:
            return self._set_aside(str(err))

    def get(self, kind: str, key: str) -> Record | None:
        """The record of ``kind:key``, or None."""
        return self.records().get(f"{kind}:{key}")

    def record(self, kind: str, key: str, passed: bool, detail: str = "") -> Record | None:
        """Record one measured attempt; returns the updated record (None if it could not be saved)."""
        if kind not in KINDS:
            raise ValueError(f"progress kind must be one of {', '.join(KINDS)}, got {kind!r}")
        if not isinstance(key, str) or not key:
            raise ValueError(f"progress key must be a non-empty string, got {key!r}")
        records = self.records()
        old = records.get(f"{kind}:{key}")
        now = _now()
        rec = Record(kind=kind, key=key, passed=bool(passed) or (old is not None and old.passed),
                     attempts=(old.attempts if old else 0) + 1, last_passed=bool(passed),
                     first_passed_at=(old.first_passed_at if old and old.first_passed_at else (now if passed else None)),
                     last_at=now, detail=detail or (old.detail if old else ""))
        records[rec.ref] = rec
        return rec if self._write(records) else None

    def reset(self) -> Path | None:
        """Start over: the file is moved aside (``progress.json.reset-<time>``, kept); returns where."""
        if not self.path.exists():
            return None
        target = self.path.with_name(f"{self.path.name}.reset-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(self.path, target)
        except OSError as err:
            self._warn(f"kschedlearn: could not reset the progress file {self.path}: {err}")
            return None
        return target

    # -- internals ----------------------------------------------------------------------------
    def _write(self, records: dict[str, Record]) -> bool:
        doc = {"format": FORMAT, "version": VERSION,
               "records": {ref: _as_json(rec) for ref, rec in sorted(records.items())}}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".progress-", suffix=".json", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(doc, out, indent=1)
            os.replace(tmp, self.path)
        except OSError as err:
            self._warn(f"kschedlearn: progress not saved, the file {self.path} could not be written: {err}")
            return False
        return True

    def _set_aside(self, why: str) -> dict[str, Record]:
        target = self.path.with_name(f"{self.path.name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(self.path, target)
            kept = f"it was kept as {target}"
        except OSError as err:
            kept = f"it could not be moved aside ({err}); it is left where it is"
        self._warn(f"kschedlearn: the progress file {self.path} was not used: {why}; {kept}. "
                   "Progress starts fresh.")
        return {}

    def _warn(self, message: str) -> None:
        self.notices.append(message)
        warnings.warn(message, ProgressFileWarning, stacklevel=3)


def store() -> ProgressStore:
    """The store at the current path (``$KSCHEDLEARN_DATA_DIR`` is read at each call)."""
    return ProgressStore(progress_path())


def record(kind: str, key: str, passed: bool, detail: str = "") -> Record | None:
    """Record one measured attempt in the current store (what ``check``, predict cells, ``ask``
    and the mastery check call)."""
    return store().record(kind, key, passed, detail)


__all__ = ["ENV_VAR", "KINDS", "ProgressFileWarning", "ProgressStore", "Record", "data_dir", "progress_path",
           "record", "store"]

"""The catalogue of teachable stages: every trace point's name, its Go source and a narration.

Go: none — kschedlearn-only. Each entry's ``go_ref`` points at the v1.6.1 source lines.
Parts of the package add their own stages with :func:`register_stage` at import time (a pure
function of the code, so the catalogue is the same in every run).
"""

from __future__ import annotations

import attrs

K8S = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/"
CLIENT_GO_CACHE = K8S + "staging/src/k8s.io/client-go/tools/cache/"
SCHED = K8S + "plugin/pkg/scheduler/"


@attrs.frozen
class Stage:
    """One teachable point: ``name`` (e.g. ``"fifo.pop"``), Go source link, default narration."""

    name: str
    go_ref: str
    why: str = ""


CATALOGUE: dict[str, Stage] = {}


def register_stage(name: str, go_ref: str, why: str = "") -> Stage:
    """Add (or replace, identically) a stage in the catalogue."""
    stage = Stage(name, go_ref, why)
    CATALOGUE[name] = stage
    return stage


def stage(name: str) -> Stage:
    """Look a stage up; unknown names get an empty Go reference rather than an error."""
    return CATALOGUE.get(name) or Stage(name, "", "")


for _name, _ref, _why in [
    ("log", K8S + "vendor/github.com/golang/glog/glog.go", "A log line the Go code writes with glog."),
    ("process.crash", "", "A goroutine panicked or called glog.Fatalf: its whole process exits."),
    ("process.exit", "", "A process was stopped."),
]:
    register_stage(_name, _ref, _why)

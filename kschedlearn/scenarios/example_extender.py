"""A small, deterministic scheduler extender served on 127.0.0.1, for the ``extender`` scenario.

Go: none — kschedlearn-only. A real extender is a separate service that kube-scheduler calls
over HTTP (see :mod:`kschedlearn.scheduler.core.extender`). This one lives in the notebook's
own Python process, on a loopback port the OS picks, and decides from node labels only — so the
same scenario gives the same answers every time:

- ``filter``: a node labelled ``extender.kschedlearn.io/reject`` is dropped, and reported in
  ``failedNodes`` with the message ``rejected by the example extender: <label value>``;
- ``prioritize``: a node's score is the integer value of its label
  ``extender.kschedlearn.io/score`` (0 when absent or not a whole number from 0 to 10).

One server is started per Python process, on first use, and kept (a daemon thread): every
simulation — and every replay of it — then talks to the same URL, so within a session the
trace is the same from run to run. The URL is substituted for ``{extender}`` in a scenario's
``files:`` (see :meth:`kschedlearn.scenarios.scenario.Scenario.files_dir`).

Differs from a real deployment: the calls are synchronous and take no virtual time (as every
extender call in kschedlearn, see the core module).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

REJECT_LABEL = "extender.kschedlearn.io/reject"
SCORE_LABEL = "extender.kschedlearn.io/score"
PLACEHOLDER = "{extender}"
PATH_PREFIX = "/scheduler"

_lock = threading.Lock()
_server: ThreadingHTTPServer | None = None


def _labels(node: Any) -> dict[str, str]:
    meta = node.get("metadata") if isinstance(node, dict) else None
    labels = meta.get("labels") if isinstance(meta, dict) else None
    return labels if isinstance(labels, dict) else {}


def _name(node: Any) -> str:
    meta = node.get("metadata") if isinstance(node, dict) else None
    return str(meta.get("name", "")) if isinstance(meta, dict) else ""


def _items(args: dict[str, Any]) -> list[Any]:
    nodes = args.get("Nodes") or {}
    return list(nodes.get("items") or []) if isinstance(nodes, dict) else []


def score_of(labels: dict[str, str]) -> int:
    """The score this extender gives a node with ``labels``."""
    raw = labels.get(SCORE_LABEL, "")
    return int(raw) if raw.isdigit() and 0 <= int(raw) <= 10 else 0


def filter_reply(args: dict[str, Any]) -> dict[str, Any]:
    """Answer a filter call (``ExtenderArgs`` in, ``ExtenderFilterResult`` out)."""
    kept, failed = [], {}
    for node in _items(args):
        labels = _labels(node)
        if REJECT_LABEL in labels:
            failed[_name(node)] = f"rejected by the example extender: {labels[REJECT_LABEL]}"
        else:
            kept.append(node)
    return {"nodes": {"items": kept}, "failedNodes": failed, "error": ""}


def prioritize_reply(args: dict[str, Any]) -> list[dict[str, Any]]:
    """Answer a prioritize call (``ExtenderArgs`` in, ``HostPriorityList`` out)."""
    return [{"host": _name(node), "score": score_of(_labels(node))} for node in _items(args)]


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        length = int(self.headers.get("Content-Length", "0"))
        try:
            args = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            args = {}
        verb = self.path.rsplit("/", 1)[-1]
        if verb == "filter":
            reply: Any = filter_reply(args)
        elif verb == "prioritize":
            reply = prioritize_reply(args)
        else:
            reply = {"error": f"the example extender has no verb {verb!r} (filter, prioritize)"}
        out = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args: Any) -> None:
        pass  # no stderr noise in notebooks


def extender_url() -> str:
    """The URL prefix of this process's example extender (started on the first call)."""
    global _server
    with _lock:
        if _server is None:
            server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
            server.daemon_threads = True
            threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True,
                             name="kschedlearn example extender").start()
            _server = server
        return f"http://127.0.0.1:{_server.server_address[1]}{PATH_PREFIX}"


def substitute(text: str) -> str:
    """``text`` with ``{extender}`` replaced by :func:`extender_url` (started only if needed)."""
    return text.replace(PLACEHOLDER, extender_url()) if PLACEHOLDER in text else text


__all__ = ["extender_url", "substitute", "filter_reply", "prioritize_reply", "score_of",
           "REJECT_LABEL", "SCORE_LABEL"]

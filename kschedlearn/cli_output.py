"""The text the command line prints: the narrated trace, JSON lines and glog lines.

Go: none — kschedlearn-only (:func:`glog_line` writes glog's header, as ``kschedlearn.trace.glog``
describes it, stamped with the *simulated* clock). The narrated trace fits a 120-column
terminal: a long message wraps between words, and the "why" and the Go link go on their own
indented lines.
"""

from __future__ import annotations

import datetime
import json
import textwrap

from kschedlearn.trace import TraceEvent

#: simulated time 0.0 is the v1.6.1 release day (docs/contracts.md, "Times")
EPOCH = datetime.datetime(2017, 4, 3, tzinfo=datetime.timezone.utc)
GLOG_LEVELS = {"INFO": "I", "WARNING": "W", "ERROR": "E", "FATAL": "F"}


#: the trace fits a terminal this wide: long messages wrap at word boundaries, the "why" and the
#: Go link go on their own indented lines
WIDTH = 120
_HANG = " " * 20  # under the message, past "#98    t=   2.000s  "


def narrate(ev: TraceEvent, *, links: bool = False) -> str:
    """``#98    t=   2.000s  assume  assumed default/web-1 on node-3`` and, on indented lines
    below it, ``— <why>`` and (``links``) ``<the Go source>``; every line at most ``WIDTH``.

    The leading number is the event's sequence number (what ``render --step`` takes). A queue
    operation shows the queue's keys after it (``fifo.*`` / ``delta_fifo.*``, as their narration
    promises); ``links`` adds the Go source of the function running at the event.
    """
    head = f"#{ev.seq:<5} t={ev.time:8.3f}s  {ev.stage}  {ev.message}"
    keys = ev.data.get("queue_keys")
    if isinstance(keys, list):
        head += f"  [{ev.data.get('queue', 'queue')} keys after: {', '.join(map(str, keys)) or '(empty)'}]"
    lines = _wrap(head, "", _HANG)
    if ev.why:
        lines += _wrap(f"— {ev.why}", "      ", "        ")
    if links:
        url = go_url(ev)
        if url:
            lines += _link_lines(url)
    return "\n".join(lines)


def _wrap(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False,
                         break_long_words=True) or [first.rstrip()]


def _link_lines(url: str) -> list[str]:
    """``      <url>``; a link too long for one line is cut after a ``/`` and continued below."""
    line = f"      <{url}>"
    if len(line) <= WIDTH:
        return [line]
    out, rest, indent = [], f"<{url}>", "      "
    while len(indent) + len(rest) > WIDTH:
        cut = rest.rfind("/", 0, WIDTH - len(indent)) + 1 or WIDTH - len(indent)
        out.append(indent + rest[:cut])
        rest, indent = rest[cut:], "        "
    return out + [indent + rest]


def go_url(ev: TraceEvent) -> str:
    """The Go link of the mirrored function running at ``ev`` (``Simulation.where``), else the
    link of the event's stage."""
    from kschedlearn.simulation.where import where

    loc = where(ev)
    return loc.go_url if loc is not None and loc.go_url else ev.go_ref


def json_line(ev: TraceEvent) -> str:
    """One event as a JSON line (no snapshot, no stack)."""
    data = ev.to_json()
    data.pop("stack", None)
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


def go_file(ev: TraceEvent) -> str:
    """The Go file a log line comes from: the innermost mirrored frame's module, as ``name.go``."""
    if not ev.stack:
        return "???"
    module = ev.stack[-1].module.rsplit(".", 1)[-1]
    return f"{module}.go"


def glog_line(ev: TraceEvent) -> str:
    """``I0403 00:00:02.000000 scheduler-0 factory.go] message`` (glog's header, simulated time;
    the process name stands where glog prints the thread id)."""
    stamp = EPOCH + datetime.timedelta(seconds=ev.time)
    level = GLOG_LEVELS.get(str(ev.data.get("level", "INFO")), "I")
    return f"{level}{stamp:%m%d %H:%M:%S.%f} {ev.process} {go_file(ev)}] {ev.message}"


__all__ = ["EPOCH", "GLOG_LEVELS", "WIDTH", "glog_line", "go_file", "go_url", "json_line", "narrate"]

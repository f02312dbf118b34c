"""The source pane's Go half: fetched on demand from the pinned tag, cached, or said unreachable.

kschedlearn-only (issue 21 item 2). kschedlearn ships no Go code: the pane fetches the Go file of
the function shown from ``raw.githubusercontent.com`` at v1.6.1 when first needed and keeps it in
the user's cache. Here a local HTTP server serves a stand-in file written by this test (numbered
lines, no Go) in place of the real one, and an unreachable server gives the offline message.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from kschedlearn import Simulation
from kschedlearn.simulation import go_source
from kschedlearn.widgets._source import source_pane

SCHEDULER_GO = "plugin/pkg/scheduler/scheduler.go"
#: a stand-in for the real file: one numbered line each, so the highlighted line can be named
STAND_IN = "".join(f"stand-in line {n}\n" for n in range(1, 400))


class _Server:
    def __init__(self) -> None:
        self.requests: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                server.requests.append(self.path)
                if self.path == f"/kubernetes/v1.6.1/{SCHEDULER_GO}":
                    body = STAND_IN.encode()
                    self.send_response(200)
                else:
                    body = b"404: Not Found"
                    self.send_response(404)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                return

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/kubernetes/v1.6.1/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[_Server]:
    server = _Server()
    monkeypatch.setenv("KSCHEDLEARN_GO_SOURCE_URL", server.url)
    monkeypatch.setenv("KSCHEDLEARN_CACHE_DIR", str(tmp_path / "cache"))
    go_source._failed.clear()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()


@pytest.fixture(scope="module")
def at_assume() -> Simulation:
    sim = Simulation.from_scenario("three-nodes", seed=1)
    sim.run_until("assume")
    return sim


def test_the_go_function_is_fetched_cached_and_its_line_highlighted(served: _Server, at_assume: Simulation,
                                                                      tmp_path: Path) -> None:
    loc = at_assume.where()
    text = loc.go_source()
    assert text.problem == ""
    assert [line.number for line in text.lines] == list(range(148, 226))  # scheduleOne's range
    (current,) = [line for line in text.lines if line.current]
    assert current.number == loc.go_line == 179 and current.text == "stand-in line 179"
    assert served.requests == [f"/kubernetes/v1.6.1/{SCHEDULER_GO}"]
    cached = tmp_path / "cache" / "go" / "v1.6.1" / SCHEDULER_GO
    assert cached.read_text(encoding="utf-8") == STAND_IN
    loc.go_source()  # the second view reads the cache: no second request
    assert len(served.requests) == 1
    pane = source_pane(loc)
    assert "kschedlearn-go-current" in pane and "stand-in line 179" in pane
    assert "kschedlearn-source-current" in pane and "assume_pod(assumed)" in pane


def test_offline_the_pane_says_so_and_keeps_the_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     at_assume: Simulation) -> None:
    monkeypatch.setenv("KSCHEDLEARN_GO_SOURCE_URL", "http://127.0.0.1:9/")  # the discard port: refused
    monkeypatch.setenv("KSCHEDLEARN_CACHE_DIR", str(tmp_path / "empty"))
    go_source._failed.clear()
    loc = at_assume.where()
    text = loc.go_source()
    assert text.lines == () and text.problem == f"Go source not reachable: {loc.go_url}"
    pane = source_pane(loc)
    assert "Go source not reachable" in pane and f'href="{loc.go_url}"' in pane
    assert "kschedlearn-source-current" in pane  # the Python half is still there


def test_a_path_outside_the_tree_is_never_fetched(served: _Server) -> None:
    assert go_source.go_file("../etc/passwd") is None and go_source.go_file("/etc/passwd") is None
    assert served.requests == []

"""The threaded HTTP listener: 127.0.0.1 only, a bearer token, requests answered on the simulation's thread.

Go: none — kschedlearn-only (kube-apiserver's ``genericapiserver`` secure serving and
``authenticator/token/tokenfile`` play this part in Go).

The simulation runs on one OS thread (its goroutines are greenlets), so HTTP threads never
touch it: each request is queued with a one-shot reply slot, the owner thread answers it in
:meth:`SimHTTPServer.pump` (called whenever the simulation moves, and by the notebook's event
loop or the ``serve`` command's loop), and the HTTP thread writes the answer. A watch answer is
a :class:`~.watch.WatchStream` the HTTP thread drains into a chunked response.
"""

from __future__ import annotations

import hmac
import json
import queue
import ssl
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import attrs

from kschedlearn.apimachinery.api.errors import Status
from kschedlearn.apiserver.rest.types import RestRequest, Response
from kschedlearn.apiserver.rest.watch import WatchStream

LOOPBACK = "127.0.0.1"
#: how long an HTTP thread waits for the simulation to take its request (wall seconds)
ANSWER_TIMEOUT = 60.0
_PUBLIC_PATHS = ("/healthz", "/livez", "/readyz")
_MAX_BODY = 16 << 20

Answer = Response | WatchStream


@attrs.define(eq=False)
class _Pending:
    request: RestRequest
    done: threading.Event = attrs.field(factory=threading.Event)
    answer: Answer | None = None


def _status_body(code: int, reason: str, message: str) -> bytes:
    return json.dumps(Status(message=message, reason=reason, code=code).to_dict()).encode()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - BaseHTTPRequestHandler's name
        return  # quiet: the trace records what matters

    def _reply(self, code: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _authorized(self) -> bool:
        if self.path.split("?")[0] in _PUBLIC_PATHS:
            return True
        header = self.headers.get("Authorization", "")
        token = header[7:] if header.startswith("Bearer ") else ""
        return hmac.compare_digest(token.encode(), self.server.owner.token.encode())

    def _serve(self) -> None:
        if not self._authorized():
            self._reply(401, _status_body(401, "Unauthorized", "Unauthorized"))
            return
        header = self.headers.get("Content-Length") or "0"
        if not header.isascii() or not header.isdigit():  # Go's net/http: "bad Content-Length"
            self._reply(400, _status_body(400, "BadRequest", f"bad Content-Length {header!r}"))
            return
        length = int(header)
        if length > _MAX_BODY:
            self._reply(413, _status_body(413, "RequestEntityTooLarge", f"request body over {_MAX_BODY} bytes"))
            return
        body = self.rfile.read(length).decode("utf-8", errors="replace") if length else ""
        req = RestRequest.from_target(self.command, self.path, body=body,
                                      content_type=self.headers.get("Content-Type", ""),
                                      accept=self.headers.get("Accept", ""))
        answer = self.server.owner.submit(req)
        if answer is None:
            self._reply(504, _status_body(504, "Timeout", "the simulation did not take the request: "
                                          "step it, or call sim.serve_pending()"))
        elif isinstance(answer, WatchStream):
            self._stream(answer)
        elif "raw" in answer.body:
            self._reply(answer.code, str(answer.body["raw"]).encode(), "text/plain")
        else:
            self._reply(answer.code, answer.encode())

    def _stream(self, stream: WatchStream) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        timeout = stream.request.timeout_seconds
        deadline = time.monotonic() + timeout if timeout else None
        try:
            while not self.server.owner.stopped:
                if deadline is not None and time.monotonic() >= deadline:
                    break
                line = stream.get(timeout=0.2)
                if line == b"":
                    break
                if line:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                    self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            pass
        finally:
            stream.close()
        self.close_connection = True

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: SimHTTPServer


@attrs.define(eq=False)
class SimHTTPServer:
    """Listens on 127.0.0.1:``port`` (0: any free port); ``execute`` answers on the owner thread."""

    execute: Callable[[RestRequest], Answer]
    token: str
    port: int = 0
    wake: Callable[[], None] | None = None
    tls: ssl.SSLContext | None = None
    stopped: bool = False
    _queue: queue.Queue[_Pending] = attrs.field(factory=queue.Queue)
    _httpd: _Server | None = None
    _thread: threading.Thread | None = None

    def start(self) -> SimHTTPServer:
        httpd = _Server((LOOPBACK, self.port), _Handler)
        httpd.owner = self
        if self.tls is not None:
            # the handshake happens in each request's own thread, not in the accept loop
            httpd.socket = self.tls.wrap_socket(httpd.socket, server_side=True, do_handshake_on_connect=False)
        self._httpd = httpd
        self.port = httpd.server_address[1]
        self._thread = threading.Thread(target=httpd.serve_forever, name=f"kschedlearn-http-{self.port}",
                                        daemon=True)
        self._thread.start()
        return self

    @property
    def address(self) -> tuple[str, int]:
        return (LOOPBACK, self.port)

    def submit(self, req: RestRequest) -> Answer | None:
        """(HTTP thread) queue ``req`` and wait for the owner thread's answer."""
        pending = _Pending(req)
        self._queue.put(pending)
        if self.wake is not None:
            self.wake()
        if not pending.done.wait(ANSWER_TIMEOUT):
            return None
        return pending.answer

    def pump(self) -> int:
        """(owner thread) answer every queued request; returns how many."""
        n = 0
        while True:
            try:
                pending = self._queue.get_nowait()
            except queue.Empty:
                return n
            try:
                pending.answer = self.execute(pending.request)
            except Exception as err:  # noqa: BLE001 - the client gets a 500 naming it, the session lives on
                pending.answer = Response(500, Status(message=f"kschedlearn: {type(err).__name__}: {err}",
                                                      reason="InternalError", code=500).to_dict())
            pending.done.set()
            n += 1

    def stop(self) -> None:
        self.stopped = True
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        self.pump()


__all__ = ["SimHTTPServer", "LOOPBACK", "ANSWER_TIMEOUT"]

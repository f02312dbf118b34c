"""The threaded HTTP listener: 127.0.0.1 only, a bearer token, requests answered on the simulation's thread.

Go: none — kschedlearn-only (kube-apiserver's ``genericapiserver`` secure serving and
``authenticator/token/tokenfile`` play this part in Go).

The simulation runs on one OS thread (its goroutines are greenlets), so HTTP threads never
touch it: each request is queued with a one-shot reply slot, the owner thread answers it in
:meth:`SimHTTPServer.pump` (called whenever the simulation moves, and by the notebook's event
loop or the ``serve`` command's loop), and the HTTP thread writes the answer. A watch answer is
a :class:`~.watch.WatchStream` the HTTP thread drains into a chunked response.

What reaches the socket that is not a well-formed HTTPS request is answered as Go's
``net/http`` answers it, never with a Python traceback on the server's stderr:

- plain HTTP on the TLS port: ``400 Bad Request`` and ``Client sent an HTTP request to an HTTPS
  server.``, Go ≥ 1.12's answer to bytes that look like HTTP (``tlsRecordHeaderLooksLikeHTTP``:
  ``GET /``, ``HEAD``, ``POST``, ``PUT /``, ``OPTIO``). Differs from Go: kschedlearn gives the same
  answer to anything that does not open with a TLS handshake record (Go sends such bytes a TLS
  alert the client cannot read; go1.7, which built 1.6, only closed the connection); a TLS
  handshake that fails closes the connection, as in Go.
- a malformed request line or header: Go's bare ``400 Bad Request`` text, connection closed.
- a body over :data:`MAX_BODY` (kschedlearn's limit; 1.6 had none): a ``413`` Status written at
  once, then the body read and discarded (up to :data:`DRAIN_LIMIT`) so the client, which sends
  its whole body before reading, finds the answer instead of a reset connection.
- a request the simulation does not take within :data:`ANSWER_TIMEOUT`: 1.6's ``504`` Timeout
  text, and the request is withdrawn (a write is then never applied later): it is either taken
  before the deadline or not at all.
"""

from __future__ import annotations

import hmac
import json
import queue
import select
import socket
import ssl
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import attrs

from kschedlearn.apimachinery.api.errors import Status, StatusDetails
from kschedlearn.apiserver.rest.protobuf import WATCH_MEDIA_TYPE
from kschedlearn.apiserver.rest.types import JSON, RestRequest, Response
from kschedlearn.apiserver.rest.watch import WatchStream

LOOPBACK = "127.0.0.1"
#: how long an HTTP thread waits for the simulation to take its request (wall seconds)
ANSWER_TIMEOUT = 60.0
_PUBLIC_PATHS = ("/healthz", "/livez", "/readyz")
MAX_BODY = 16 << 20
#: how much of an oversized body is read (and dropped) after the 413, so the client sees it
DRAIN_LIMIT = 1 << 30
#: Go: ``tlsRecordHeaderLooksLikeHTTP``
_HTTP_PREFIXES = (b"GET /", b"HEAD ", b"POST ", b"PUT /", b"OPTIO")
PLAIN_HTTP_ANSWER = b"HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n"
#: the content type of a TLS handshake record (what a TLS client sends first)
_TLS_HANDSHAKE = 0x16
TIMEOUT_MESSAGE = ("Timeout: request did not complete within allowed duration (kschedlearn: the simulation did not "
                   "take the request within {seconds:g} s, so it was not applied: step the simulation, or call "
                   "sim.serve_pending())")
#: how long a connection may sit idle in the TLS handshake or between requests (wall seconds)
IDLE_TIMEOUT = 30.0

Answer = Response | WatchStream


@attrs.define(eq=False)
class _Pending:
    request: RestRequest
    done: threading.Event = attrs.field(factory=threading.Event)
    answer: Answer | None = None
    state: str = "queued"  # queued -> taken (answered) | withdrawn (timed out, never applied)


def _status_body(code: int, reason: str, message: str, details: StatusDetails | None = None) -> bytes:
    return json.dumps(Status(message=message, reason=reason, code=code, details=details).to_dict()).encode()


class _BodyTooLarge(Exception):
    """The request body is over MAX_BODY (carries what was declared, if anything)."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - BaseHTTPRequestHandler's name
        return  # quiet: the trace records what matters

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Go's net/http answer to a request it cannot parse: ``<code> <phrase>`` as plain text, closed."""
        phrase = self.responses.get(code, ("Error",))[0]
        body = f"{code} {phrase}".encode()
        self.close_connection = True
        self.request_version = "HTTP/1.1"  # a request line that did not parse: still a full answer
        try:
            self.send_response_only(code, phrase)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass

    def _reply(self, code: int, body: bytes, content_type: str = JSON, *, close: bool = False) -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":  # HTTP: a HEAD answer has the headers of the GET, no body
            self.wfile.write(body)
        self.wfile.flush()

    def _authorized(self) -> bool:
        if self.path.split("?")[0] in _PUBLIC_PATHS:
            return True
        header = self.headers.get("Authorization", "")
        token = header[7:] if header.startswith("Bearer ") else ""
        return hmac.compare_digest(token.encode(), self.server.owner.token.encode())

    def _read_body(self) -> bytes | None:
        """The body (Content-Length or chunked); None after answering a malformed or oversized one."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._read_chunked()
        header = self.headers.get("Content-Length") or "0"
        if not header.isascii() or not header.isdigit():  # Go's net/http: "bad Content-Length"
            self._reply(400, _status_body(400, "BadRequest", f"bad Content-Length {header!r}"), close=True)
            return None
        length = int(header)
        if length > MAX_BODY:
            self._too_large()
            self._drain(length)
            return None
        return self.rfile.read(length) if length else b""

    def _read_chunked(self) -> bytes | None:
        body = bytearray()
        while True:
            line = self.rfile.readline(1024).strip()
            try:
                size = int(line.split(b";")[0], 16)
            except ValueError:
                self._reply(400, _status_body(400, "BadRequest", "malformed chunked encoding"), close=True)
                return None
            if size == 0:
                self.rfile.readline(1024)
                return bytes(body)
            if len(body) + size > MAX_BODY:
                self._too_large()
                self._drain(size + 2)
                self._drain_chunks()
                return None
            body += self.rfile.read(size)
            self.rfile.readline(1024)

    def _too_large(self) -> None:
        message = f"Request entity too large: limit is {MAX_BODY} (kschedlearn's limit; the request was not read)"
        self._reply(413, _status_body(413, "RequestEntityTooLarge", message), close=True)

    def _drain(self, n: int) -> None:
        """Read and drop up to ``n`` bytes (capped), so the client can finish sending and read the answer."""
        left = min(n, DRAIN_LIMIT)
        try:
            while left > 0:
                chunk = self.rfile.read(min(left, 1 << 20))
                if not chunk:
                    return
                left -= len(chunk)
        except OSError:
            return

    def _drain_chunks(self) -> None:
        total = 0
        try:
            while total < DRAIN_LIMIT:
                size = int(self.rfile.readline(1024).strip().split(b";")[0] or b"0", 16)
                if size == 0:
                    return
                self._drain(size + 2)
                total += size
        except (OSError, ValueError):
            return

    def _serve(self) -> None:
        if not self._authorized():
            self._reply(401, _status_body(401, "Unauthorized", "Unauthorized"))
            return
        body = self._read_body()
        if body is None:
            return
        req = RestRequest.from_target(self.command, self.path, body=body,
                                      content_type=self.headers.get("Content-Type", ""),
                                      accept=self.headers.get("Accept", ""))
        answer = self.server.owner.submit(req)
        if answer is None:
            message = TIMEOUT_MESSAGE.format(seconds=self.server.owner.answer_timeout)
            self._reply(504, _status_body(504, "Timeout", message, StatusDetails()))
        elif isinstance(answer, WatchStream):
            self._stream(answer)
        elif "raw" in answer.body:
            self._reply(answer.code, str(answer.body["raw"]).encode(), "text/plain")
        else:
            try:
                payload = answer.encode()
            except ValueError as err:  # e.g. a kind protobuf cannot carry: say so, never drop the answer
                self._reply(500, _status_body(500, "InternalError", f"kschedlearn: {err}"))
                return
            self._reply(answer.code, payload, answer.content_type)

    def _stream(self, stream: WatchStream) -> None:
        self.send_response(200)
        self.send_header("Content-Type", WATCH_MEDIA_TYPE if stream.request.protobuf else JSON)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        timeout = stream.request.timeout_seconds
        deadline = time.monotonic() + timeout if timeout else None
        try:
            while not self.server.owner.stopped:
                if deadline is not None and time.monotonic() >= deadline:
                    break  # Go: the watch's timer fired (a negative timeoutSeconds fires at once)
                line = stream.get(timeout=0.2)
                if line == b"":
                    break
                if line:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                    self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
        except OSError:
            pass
        finally:
            stream.close()
        self.close_connection = True

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _serve


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: SimHTTPServer

    def finish_request(self, request: Any, client_address: Any) -> None:
        """(connection thread) TLS per connection, after a look at the first bytes."""
        request.settimeout(IDLE_TIMEOUT)
        if self.owner.tls is None:
            super().finish_request(request, client_address)
            return
        wrapped = self._wrap_tls(request)
        if wrapped is None:
            return
        try:
            super().finish_request(wrapped, client_address)
        finally:
            self.shutdown_request(wrapped)

    def _wrap_tls(self, sock: socket.socket) -> ssl.SSLSocket | None:
        """Go: ``conn.serve``'s handshake — plain HTTP gets the 400 text; a failed handshake closes."""
        try:
            head, deadline = b"", time.monotonic() + IDLE_TIMEOUT
            while len(head) < 5:  # Go reads the 5-byte record header before deciding
                readable, _, _ = select.select([sock], [], [], max(deadline - time.monotonic(), 0))
                more = sock.recv(5, socket.MSG_PEEK) if readable else b""
                if len(more) <= len(head):  # a timeout, or the end of the stream before 5 bytes
                    return None
                head = more
            if head in _HTTP_PREFIXES or head[0] != _TLS_HANDSHAKE:
                sock.sendall(PLAIN_HTTP_ANSWER)
                return None
            return self.owner.tls.wrap_socket(sock, server_side=True)  # type: ignore[union-attr]
        except (OSError, ValueError):  # a failed handshake, a reset, a timeout: Go logs it and closes
            return None

    def shutdown_request(self, request: Any) -> None:
        try:
            super().shutdown_request(request)
        except OSError:
            pass

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that broke mid-request is dropped without a traceback (Go logs one line)."""
        return


@attrs.define(eq=False)
class SimHTTPServer:
    """Listens on 127.0.0.1:``port`` (0: any free port); ``execute`` answers on the owner thread."""

    execute: Callable[[RestRequest], Answer]
    token: str
    port: int = 0
    wake: Callable[[], None] | None = None
    tls: ssl.SSLContext | None = None
    stopped: bool = False
    answer_timeout: float = ANSWER_TIMEOUT
    _queue: queue.Queue[_Pending] = attrs.field(factory=queue.Queue)
    _lock: threading.Lock = attrs.field(factory=threading.Lock)
    _httpd: _Server | None = None
    _thread: threading.Thread | None = None

    def start(self) -> SimHTTPServer:
        httpd = _Server((LOOPBACK, self.port), _Handler)
        httpd.owner = self
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
        """(HTTP thread) queue ``req`` and wait for the owner thread's answer; None if it was not
        taken in time (it is then withdrawn: it will never be applied)."""
        pending = _Pending(req)
        self._queue.put(pending)
        if self.wake is not None:
            self.wake()
        if not pending.done.wait(self.answer_timeout):
            with self._lock:
                if pending.state == "queued":
                    pending.state = "withdrawn"
                    return None
            pending.done.wait()  # taken just now: the owner thread is answering it
        return pending.answer

    def pump(self) -> int:
        """(owner thread) answer every queued request; returns how many."""
        n = 0
        while True:
            try:
                pending = self._queue.get_nowait()
            except queue.Empty:
                return n
            with self._lock:
                if pending.state != "queued":
                    continue  # withdrawn after a 504: never applied
                pending.state = "taken"
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


__all__ = ["SimHTTPServer", "LOOPBACK", "ANSWER_TIMEOUT", "MAX_BODY", "PLAIN_HTTP_ANSWER", "TIMEOUT_MESSAGE"]

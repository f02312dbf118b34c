"""Record what a Kubernetes client and an API server say to each other, byte for byte.

Go: none — a kschedlearn development tool. A plain-HTTP proxy on 127.0.0.1 that forwards every
request to an API server (``https://...`` with the CA and bearer token of a kubeconfig, or a plain
``http://`` one) and writes each exchange to a directory:

- ``index.jsonl``: one JSON line per request (``seq``, ``method``, ``target``, ``content_type``,
  ``accept``, ``request_body`` file, ``status``, ``response_content_type``, ``response_body`` file);
- ``NNNN-request.bin`` / ``NNNN-response.bin``: the raw bodies (protobuf stays binary; a watch's
  response file holds the stream as received until it ended or the recording stopped).

Point the client at the proxy with a kubeconfig whose ``server`` is ``http://127.0.0.1:PORT``
(no credentials: the proxy adds the token). Used to capture the real 1.6 kube-scheduler's
protobuf traffic for ``tests/data/k16-scheduler/`` (see its README).

Usage: ``python tools/record_http.py --upstream-kubeconfig k.yaml --port 18080 --out DIR``
(or ``--upstream http://127.0.0.1:8080`` for a server without TLS); Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import ssl
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml


class Recorder:
    """Where exchanges go, and how to reach the upstream server."""

    def __init__(self, out: Path, upstream: str, token: str = "", ca_pem: bytes = b"") -> None:
        self.out, self.upstream, self.token = out, urlsplit(upstream), token
        self.context: ssl.SSLContext | None = None
        if self.upstream.scheme == "https":
            self.context = ssl.create_default_context(cadata=ca_pem.decode() if ca_pem else None)
        self.lock, self.seq = threading.Lock(), 0
        out.mkdir(parents=True, exist_ok=True)
        (out / "index.jsonl").write_text("", encoding="utf-8")

    def next_seq(self) -> int:
        with self.lock:
            self.seq += 1
            return self.seq

    def connect(self) -> http.client.HTTPConnection:
        host, port = self.upstream.hostname or "127.0.0.1", self.upstream.port
        if self.context is not None:
            return http.client.HTTPSConnection(host, port, context=self.context, timeout=3600)
        return http.client.HTTPConnection(host, port, timeout=3600)

    def log(self, entry: dict[str, Any]) -> None:
        with self.lock, (self.out / "index.jsonl").open("a", encoding="utf-8") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")


class _Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Any

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        return

    def _forward(self) -> None:
        rec: Recorder = self.server.recorder
        seq = rec.next_seq()
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        entry: dict[str, Any] = {"seq": seq, "method": self.command, "target": self.path,
                                 "content_type": self.headers.get("Content-Type", ""),
                                 "accept": self.headers.get("Accept", ""),
                                 "user_agent": self.headers.get("User-Agent", "")}
        if body:
            name = f"{seq:04d}-request.bin"
            (rec.out / name).write_bytes(body)
            entry["request_body"] = name
        conn = rec.connect()
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "authorization", "connection")}
        if rec.token:
            headers["Authorization"] = f"Bearer {rec.token}"
        conn.request(self.command, self.path, body=body or None, headers=headers)
        resp = conn.getresponse()
        entry.update(status=resp.status, response_content_type=resp.getheader("Content-Type", ""))
        name = f"{seq:04d}-response.bin"
        entry["response_body"] = name
        rec.log(entry)
        self.send_response(resp.status)
        for key, value in resp.getheaders():
            if key.lower() not in ("transfer-encoding", "content-length", "connection"):
                self.send_header(key, value)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        with (rec.out / name).open("wb") as f:
            while True:
                chunk = resp.read1(65536) if hasattr(resp, "read1") else resp.read(65536)
                if not chunk:
                    break
                f.write(chunk)
                f.flush()
                try:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.flush()
                except OSError:
                    break
        try:
            self.wfile.write(b"0\r\n\r\n")
        except OSError:
            pass
        conn.close()

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _forward


def _from_kubeconfig(path: Path) -> tuple[str, str, bytes]:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    cluster = doc["clusters"][0]["cluster"]
    user = doc["users"][0]["user"]
    return cluster["server"], user.get("token", ""), base64.b64decode(cluster.get("certificate-authority-data", ""))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--upstream-kubeconfig", type=Path)
    p.add_argument("--upstream", default="")
    p.add_argument("--port", type=int, default=18080)
    p.add_argument("--out", type=Path, default=Path(tempfile.mkdtemp(prefix="record-http-")))
    args = p.parse_args(argv)
    token, ca = "", b""
    upstream = args.upstream
    if args.upstream_kubeconfig is not None:
        upstream, token, ca = _from_kubeconfig(args.upstream_kubeconfig)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), _Proxy)
    server.daemon_threads = True
    server.recorder = Recorder(args.out, upstream, token, ca)  # type: ignore[attr-defined]
    print(f"recording 127.0.0.1:{args.port} -> {upstream} into {args.out}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

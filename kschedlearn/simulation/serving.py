"""``sim.serve()``: kubectl and the Kubernetes Python client drive a live simulation.

Go: none — kschedlearn-only. The bridge between the threaded HTTP face
(:mod:`kschedlearn.apiserver.rest.httpserver`) and one :class:`~kschedlearn.Simulation`:

- a **mutating** request (POST, PUT, PATCH, DELETE) is applied at the cursor's virtual time as
  a recorded external action (like ``sim.inject.*``): it forks the history if the cursor is in
  the past, and a replay repeats it exactly;
- a **read** (get, list, discovery) is answered from the live world;
- a **watch** streams what the live world's API server stores from then on (see
  :mod:`kschedlearn.apiserver.rest.watch`); if the history forks, open watches are closed.

Requests are answered on the simulation's thread: whenever the simulation moves
(``step``, ``run_until``, ``goto``, ...), from the notebook's event loop between cells, or by
``kschedlearn serve``'s loop.
"""

from __future__ import annotations

import asyncio
import base64
import os
import secrets
import shlex
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
import ssl
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from kschedlearn.apiserver.rest.handler import RestHandler
from kschedlearn.apiserver.rest.httpserver import LOOPBACK, Answer, SimHTTPServer
from kschedlearn.apiserver.rest.tls import self_signed
from kschedlearn.apiserver.rest.types import RestRequest, Response, WatchRequest
from kschedlearn.apiserver.rest.watch import WatchHub
from kschedlearn.apiserver.rest.writes import is_dry_run
from kschedlearn.apimachinery.api.errors import Status
from kschedlearn.scenarios.scenario import Action

if TYPE_CHECKING:
    from kschedlearn.simulation.simulation import Simulation

T = TypeVar("T")


def ended_answer(sim: Simulation) -> Response:
    """The 503 a write gets once the scenario has ended (kschedlearn-only: a real API server never ends)."""
    last = sim.trace[-1] if sim.trace else None
    where = f" at t={last.time:g}s (event {last.seq})" if last is not None else ""
    message = (f"kschedlearn: the scenario {sim.scenario.name!r} has ended{where}; nothing runs any more, so this "
               "write was not applied (a pod created now would never be scheduled): go back with sim.back() or "
               "sim.goto(n) to change the past, or serve a scenario that runs on (kschedlearn serve)")
    return Response(503, Status(message=message, reason="ServiceUnavailable", code=503).to_dict())


def kubeconfig_text(server: str, token: str, ca_pem: bytes, name: str = "kschedlearn") -> str:
    """A kubeconfig with one cluster (trusting ``ca_pem``), one user (the bearer token), one context."""
    ca = base64.b64encode(ca_pem).decode()
    return (
        "apiVersion: v1\nkind: Config\n"
        f"clusters:\n- name: {name}\n  cluster:\n    server: {server}\n    certificate-authority-data: {ca}\n"
        f"users:\n- name: {name}\n  user:\n    token: {token}\n"
        f"contexts:\n- name: {name}\n  context:\n    cluster: {name}\n    user: {name}\n    namespace: default\n"
        f"current-context: {name}\n"
    )


def _event_loop_waker(pump: Any) -> Any:
    """In a Jupyter kernel (an asyncio loop runs on this thread), answer between cells."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return lambda: loop.call_soon_threadsafe(pump)


@attrs.define(eq=False)
class Serving:
    """What ``sim.serve()`` returns: where the simulation listens and how to reach it."""

    sim: Simulation
    server: SimHTTPServer
    kubeconfig: Path
    ca_pem: bytes
    hub: WatchHub | None = None

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def url(self) -> str:
        return f"https://{LOOPBACK}:{self.port}"

    def client_ssl_context(self) -> ssl.SSLContext:
        """A client TLS context trusting this server's certificate (for urllib and friends)."""
        return ssl.create_default_context(cadata=self.ca_pem.decode())

    @property
    def token(self) -> str:
        return self.server.token

    @property
    def kubectl(self) -> str:
        """The command line prefix to copy into a terminal."""
        return f"kubectl --kubeconfig {self.kubeconfig}"

    def pump(self) -> int:
        """Answer every request waiting for the simulation (returns how many)."""
        return self.server.pump()

    def _hub(self) -> WatchHub:
        api = self.sim.world.api
        if self.hub is None or self.hub.api is not api:
            if self.hub is not None:
                self.hub.detach()  # the history forked: that world is gone
            self.hub = WatchHub(api)
        return self.hub

    def execute(self, req: RestRequest) -> Answer:
        """(simulation thread) answer one request.

        A write is recorded and applied at the cursor; a dry run (``dryRun=All``) is answered from
        the live world without being recorded (it changes nothing); a write after the end of a
        finished scenario is refused (503): nothing would ever run again to act on it.
        """
        if req.mutating and not is_dry_run(req):
            if self.sim.finished:
                return ended_answer(self.sim)
            answer = self.sim.apply_external(Action(at=self.sim.time, kind="request", arg=req))
        else:
            answer = RestHandler(self.sim.world.api, server_address=f"{LOOPBACK}:{self.port}").handle(req)
        if isinstance(answer, WatchRequest):
            return self._hub().open(answer)
        if not isinstance(answer, Response):  # pragma: no cover - a programming error, said clearly
            raise TypeError(f"serve: {req.describe()} produced {type(answer).__name__}, not a Response")
        self._hub()  # a fork made by this request closes the old world's watches now
        return answer

    def call(self, fn: Callable[[], T], timeout: float = 60.0) -> T:
        """Run a blocking client call (``fn``) in a thread while this thread answers it.

        In a notebook a client call made straight from a cell would wait for the kernel's thread,
        which is busy running that cell; ``serving.call(lambda: v1.list_node())`` avoids that.
        """
        done = threading.Event()
        box: dict[str, Any] = {}

        def run() -> None:
            try:
                box["value"] = fn()
            except BaseException as err:  # noqa: BLE001 - re-raised below, on the caller's thread
                box["error"] = err
            finally:
                done.set()

        threading.Thread(target=run, name="kschedlearn-client-call", daemon=True).start()
        deadline = time.monotonic() + timeout
        while not done.wait(0.005):
            self.pump()
            if time.monotonic() > deadline:
                raise TimeoutError(f"serve: the client call did not finish within {timeout:g} s")
        self.pump()
        if "error" in box:
            raise box["error"]
        return box["value"]

    def run_kubectl(self, args: str, timeout: float = 60.0) -> str:
        """Run ``kubectl --kubeconfig ... ARGS`` (a string, split like a shell) and return its output."""
        exe = shutil.which("kubectl")
        if exe is None:
            raise FileNotFoundError("serve: no kubectl on PATH; use serving.kubectl in a terminal that has one, "
                                    "or the Kubernetes Python client with serving.call(...)")
        argv = [exe, "--kubeconfig", str(self.kubeconfig), *shlex.split(args)]
        out = self.call(lambda: subprocess.run(argv, capture_output=True, text=True, timeout=timeout), timeout + 5)
        return out.stdout + out.stderr

    def stop(self) -> None:
        """Stop listening and close every watch."""
        self.server.stop()
        if self.hub is not None:
            self.hub.detach()

    def _repr_markdown_(self) -> str:
        return (f"serving on **{LOOPBACK}:{self.port}** — in a terminal:\n\n"
                f"```\n{self.kubectl} get pods -o wide\n```")

    def __repr__(self) -> str:
        return f"<Serving {self.url} kubeconfig={self.kubeconfig}>"


def serve(sim: Simulation, *, port: int = 0, token: str | None = None,
          kubeconfig: str | os.PathLike[str] | None = None) -> Serving:
    """Start the HTTP face for ``sim`` on 127.0.0.1 and write a kubeconfig for it."""
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise ValueError(f"serve: port must be an integer from 0 to 65535, got {port!r}")
    if token is not None and (not isinstance(token, str) or not token or not token.isascii()
                              or not token.isprintable() or any(c.isspace() for c in token)):
        # it goes into an HTTP header and the kubeconfig: one printable ASCII word
        raise ValueError(f"serve: token must be a non-empty printable ASCII string without spaces, got {token!r}")
    if kubeconfig is not None and (not isinstance(kubeconfig, (str, os.PathLike)) or str(kubeconfig) == ""):
        raise ValueError(f"serve: kubeconfig must be a file path, got {kubeconfig!r}")
    token = token or secrets.token_hex(16)
    serving: Serving | None = None

    def execute(req: RestRequest) -> Answer:
        assert serving is not None
        return serving.execute(req)

    cert = self_signed(LOOPBACK)
    server = SimHTTPServer(execute=execute, token=token, port=port, tls=cert.ssl_context())
    server.wake = _event_loop_waker(server.pump)
    server.start()
    path = Path(kubeconfig) if kubeconfig is not None else Path.cwd() / f".kschedlearn-{server.port}.kubeconfig"
    try:
        path.write_text(kubeconfig_text(f"https://{LOOPBACK}:{server.port}", token, cert.cert_pem),
                        encoding="utf-8")
        path.chmod(0o600)
    except OSError as err:
        server.stop()
        raise ValueError(f"serve: cannot write the kubeconfig {str(path)!r}: {err.strerror}") from None
    serving = Serving(sim=sim, server=server, kubeconfig=path, ca_pem=cert.cert_pem)
    return serving


__all__ = ["Serving", "serve", "kubeconfig_text"]

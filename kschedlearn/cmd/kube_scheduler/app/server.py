"""``app.Run``: the kube-scheduler start-up chain, step by step, and its HTTP endpoints.

Go: plugin/cmd/kube-scheduler/app/server.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/server.go#L65-L167

The order of ``run`` is the order of spec §1.4: createClient → createRecorder →
NewSharedInformerFactory → createScheduler (which, through CreateFromKeys, already starts the
pod watches) → ``go startHTTP`` → informerFactory.Start → either ``run`` directly
(``--leader-elect=false``) or leader election, whose OnStartedLeading calls ``sched.Run``.
The notebook's handles on what it builds are taken by the observation layer
(``kschedlearn.observe.startup``), at these calls.

Differs from Go: the API server is the simulation's embedded one (passed in); the HTTP server
is an in-process request table (:class:`HTTPEndpoints`) unless started from the command line
with a real port, in which case a real HTTP server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import ObjectMeta
from kschedlearn.cmd.kube_scheduler.app.configurator import (
    ConfigError,
    create_client,
    create_recorder,
    create_scheduler,
)
from kschedlearn.trace import glog

LOCK_NAMESPACE = "kube-system"
LOCK_NAME = "kube-scheduler"


@attrs.define(eq=False)
class HTTPEndpoints:
    """The scheduler's HTTP mux (Go: startHTTP) as an in-process request table."""

    s: Any
    metrics: Any = None
    handlers: dict[str, Callable[[], tuple[int, str, str]]] = attrs.field(factory=dict)

    def get(self, path: str) -> tuple[int, str, str]:
        """Serve GET ``path``: (status code, content type, body)."""
        handler = self.handlers.get(path)
        if handler is None:
            return 404, "text/plain; charset=utf-8", "404 page not found\n"
        return handler()


def start_http(s: Any, metrics: Any) -> None:
    """Go: startHTTP — register /healthz, /configz and /metrics (pprof only as a 501 note),
    then serve for ever.
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/server.go#L142-L167

    Differs from Go: the metrics are the scheduler's own (``metrics``), not Prometheus'
    process-wide registry; "serving" is a block on a channel nobody sends to, which keeps this
    goroutine listed among the process's goroutines as Go's ``ListenAndServe`` does; the mux is
    an in-process request table (:class:`HTTPEndpoints`).
    """
    mux = HTTPEndpoints(s, metrics=metrics)
    mux.handlers["/healthz"] = lambda: (200, "text/plain; charset=utf-8", "ok")
    mux.handlers["/healthz/ping"] = lambda: (200, "text/plain; charset=utf-8", "ok")
    if getattr(s, "enable_profiling", False):
        mux.handlers["/debug/pprof/"] = lambda: (
            501, "text/plain", "pprof is a Go runtime feature; the simulation has no Go runtime to profile\n")
    mux.handlers["/configz"] = lambda: (200, "application/json", json.dumps(
        {"componentconfig": configz(s)}, indent=2, sort_keys=True))
    mux.handlers["/metrics"] = lambda: (
        200, "text/plain; version=0.0.4", mux.metrics.exposition() if mux.metrics is not None else "")
    sim.Chan(name="ListenAndServe").recv()  # Go: glog.Fatal(server.ListenAndServe()) — never returns


def configz(s: Any) -> dict[str, Any]:
    """The KubeSchedulerConfiguration as /configz shows it (Go field names, JSON tags)."""
    return s.to_dict()


def run(s: Any, server: Any, *, hostname: str = "scheduler-0", registry: Any = None) -> None:
    """Go: app.Run — never returns while the scheduler runs (raises on a set-up error).
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/server.go#L65-L140

    ``server`` is the embedded API server; ``hostname`` is this replica's identity for leader
    election (Go: ``os.Hostname()``). Differs from Go: ``registry`` is the plugin registry of
    this replica (None: the default one); Go's ``panic("unreachable")`` is a RuntimeError.
    """
    from kschedlearn.client_go.informers import new_shared_informer_factory

    try:
        kubecli = create_client(s, server)
    except Exception as err:  # noqa: BLE001 - Go wraps whatever error it gets
        raise ConfigError(f"unable to create kube client: {err}") from err

    recorder = create_recorder(kubecli, s)

    informer_factory = new_shared_informer_factory(kubecli, 0)

    try:
        sched = create_scheduler(
            s, kubecli,
            informer_factory.core().v1().nodes(),
            informer_factory.core().v1().persistent_volumes(),
            informer_factory.core().v1().persistent_volume_claims(),
            informer_factory.core().v1().replication_controllers(),
            informer_factory.extensions().v1beta1().replica_sets(),
            informer_factory.apps().v1beta1().stateful_sets(),
            informer_factory.core().v1().services(),
            recorder,
            registry=registry,
        )
    except Exception as err:  # noqa: BLE001 - Go wraps whatever error it gets
        raise ConfigError(f"error creating scheduler: {err}") from err

    sim.go(start_http, s, sched.config.metrics, name="startHTTP")

    stop = sim.Chan(name="stop")
    informer_factory.start(stop)

    def run_(_stop_ch: sim.Chan | None) -> None:
        sched.run()
        sim.Chan(name="select{}").recv()  # Go: select {} — block forever

    if not s.leader_election.leader_elect:
        run_(None)
        raise RuntimeError("unreachable")

    from kschedlearn.client.leaderelection import leaderelection, resourcelock

    rl = resourcelock.EndpointsLock(
        endpoints_meta=ObjectMeta(namespace=LOCK_NAMESPACE, name=LOCK_NAME),
        client=kubecli,
        lock_config=resourcelock.ResourceLockConfig(identity=hostname, event_recorder=recorder),
    )
    le = s.leader_election
    leaderelection.run_or_die(leaderelection.LeaderElectionConfig(
        lock=rl,
        lease_duration=le.lease_duration,
        renew_deadline=le.renew_deadline,
        retry_period=le.retry_period,
        callbacks=leaderelection.LeaderCallbacks(
            on_started_leading=run_,
            on_stopped_leading=lambda: glog.fatalf("lost master"),
        ),
    ))
    raise RuntimeError("unreachable")


def serve_real_http(endpoints: HTTPEndpoints, port: int) -> Any:
    """Serve ``endpoints`` on a real HTTP server bound to 127.0.0.1 only (command line ``--port``).

    kschedlearn-only: Go listens on ``--address`` (default 0.0.0.0); a teaching tool never
    exposes anything beyond the loopback interface. Returns the started ``ThreadingHTTPServer``
    (call ``shutdown()`` to stop it); port 0 picks a free port (``server.server_address``).
    """
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            status, content_type, body = endpoints.get(self.path.split("?", 1)[0])
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
            return

    httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=httpd.serve_forever, name="kube-scheduler http", daemon=True).start()
    return httpd

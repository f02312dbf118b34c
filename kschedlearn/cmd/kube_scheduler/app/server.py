"""``app.Run``: the kube-scheduler start-up chain, step by step, and its HTTP endpoints.

Go: plugin/cmd/kube-scheduler/app/server.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/server.go#L65-L167

The order of ``run`` is the order of spec §1.4: createClient → createRecorder →
NewSharedInformerFactory → createScheduler (which, through CreateFromKeys, already starts the
pod watches) → ``go startHTTP`` → informerFactory.Start → either ``run`` directly
(``--leader-elect=false``) or leader election, whose OnStartedLeading calls ``sched.Run``.

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
from kschedlearn.trace import emit, glog, register_stage
from kschedlearn.trace.stages import K8S

_SERVER = K8S + "plugin/cmd/kube-scheduler/app/server.go"
_CONFIGURATOR = K8S + "plugin/cmd/kube-scheduler/app/configurator.go"
for _name, _ref, _why in [
    ("main", K8S + "plugin/cmd/kube-scheduler/scheduler.go#L30-L43",
     "main builds a SchedulerServer with the defaults, parses the flags and calls app.Run."),
    ("NewSchedulerServer", K8S + "plugin/cmd/kube-scheduler/app/options/options.go#L48-L59",
     "The defaults come from the v1alpha1 defaulting functions; leader election is forced on."),
    ("Run", _SERVER + "#L65-L140", "app.Run wires everything together in a fixed order."),
    ("createClient", _CONFIGURATOR + "#L56-L72", "One clientset for everything, rate-limited by --kube-api-qps/--kube-api-burst."),
    ("createRecorder", _CONFIGURATOR + "#L49-L54", "Events (Scheduled, FailedScheduling...) are logged and written to the API server."),
    ("NewSharedInformerFactory", K8S + "pkg/client/informers/informers_generated/externalversions/factory.go#L53-L61", "One shared informer per resource type; none runs until Start."),
    ("createScheduler", _CONFIGURATOR + "#L74-L109", "Build the ConfigFactory and let the configurator pick a policy file or the provider."),
    ("startHTTP", _SERVER + "#L142-L167", "/healthz, /metrics and /configz are served in a goroutine of their own."),
    ("informerFactory.Start", K8S + "pkg/client/informers/informers_generated/externalversions/factory.go#L63-L74", "Start every informer requested so far (nodes, PVs, PVCs, services, RCs, RSs, StatefulSets)."),
    ("Scheduler.Run", K8S + "plugin/pkg/scheduler/scheduler.go#L143-L146", "go wait.Until(scheduleOne, 0, stop): the scheduling loop starts."),
    ("leaderelection.start", K8S + "pkg/client/leaderelection/leaderelection.go#L155-L163", "Only the leader schedules: RunOrDie calls sched.Run once the lease is acquired."),
]:
    register_stage(_name, _ref, _why)

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


def start_http(s: Any, endpoints: HTTPEndpoints) -> None:
    """Go: startHTTP — register /healthz, /configz and /metrics (pprof only as a 501 note),
    then serve for ever.

    Differs from Go: the trace point is at run's ``go startHTTP(s)`` (so the start-up trace
    follows the source order); "serving" is a block on a channel nobody sends to, which keeps
    this goroutine listed among the process's goroutines as Go's ``ListenAndServe`` does.
    """
    endpoints.handlers["/healthz"] = lambda: (200, "text/plain; charset=utf-8", "ok")
    endpoints.handlers["/healthz/ping"] = lambda: (200, "text/plain; charset=utf-8", "ok")
    endpoints.handlers["/configz"] = lambda: (200, "application/json", json.dumps(
        {"componentconfig": configz(s)}, indent=2, sort_keys=True))
    endpoints.handlers["/metrics"] = lambda: (
        200, "text/plain; version=0.0.4",
        endpoints.metrics.exposition() if endpoints.metrics is not None else "")
    if getattr(s, "enable_profiling", False):
        endpoints.handlers["/debug/pprof/"] = lambda: (
            501, "text/plain", "pprof is a Go runtime feature; the simulation has no Go runtime to profile\n")
    sim.Chan(name="ListenAndServe").recv()  # Go: glog.Fatal(server.ListenAndServe()) — never returns


def configz(s: Any) -> dict[str, Any]:
    """The KubeSchedulerConfiguration as /configz shows it (Go field names, JSON tags)."""
    return s.to_dict()


@attrs.define(eq=False)
class RunningScheduler:
    """kschedlearn-only: handles on what ``run`` built, for the notebook and the views."""

    s: Any
    kubecli: Any = None
    informer_factory: Any = None
    scheduler: Any = None
    config_factory: Any = None
    http: HTTPEndpoints | None = None
    elector: Any = None
    stop: sim.Chan | None = None


def run(s: Any, server: Any, *, hostname: str = "scheduler-0", handles: RunningScheduler | None = None,
        registry: Any = None, on_created: Callable[[RunningScheduler], None] | None = None) -> None:
    """Go: app.Run — never returns while the scheduler runs (raises on a set-up error).

    ``server`` is the embedded API server; ``hostname`` is this replica's identity for leader
    election (Go: ``os.Hostname()``); ``handles`` (optional) is filled with what gets built.
    kschedlearn-only: ``on_created(handles)`` runs right after createScheduler — before any
    goroutine started so far gets to run — so the simulation can attach its trace points.
    """
    from kschedlearn.client_go.informers import new_shared_informer_factory

    emit("Run", "app.Run(s)")
    h = handles if handles is not None else RunningScheduler(s)
    try:
        kubecli = create_client(s, server)
    except Exception as err:  # noqa: BLE001 - Go wraps whatever error it gets
        raise ConfigError(f"unable to create kube client: {err}") from err
    h.kubecli = kubecli

    recorder = create_recorder(kubecli, s)

    emit("NewSharedInformerFactory", "informers.NewSharedInformerFactory(kubecli, 0)")
    informer_factory = new_shared_informer_factory(kubecli, 0)
    h.informer_factory = informer_factory

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
    h.scheduler = sched
    h.config_factory = sched.config.next_pod.__self__  # the ConfigFactory behind get_next_pod
    if on_created is not None:
        on_created(h)

    h.http = HTTPEndpoints(s, metrics=sched.config.metrics)
    # Traced here, where Go says `go startHTTP(s)`: the goroutine itself only runs once this
    # one blocks, which would put it after Scheduler.Run in the trace.
    emit("startHTTP", f"go startHTTP(s): /healthz, /metrics, /configz on {s.address}:{s.port}")
    sim.go(start_http, s, h.http, name="startHTTP")

    stop = sim.Chan(name="stop")
    h.stop = stop
    informer_factory.start(stop)  # emits informerFactory.Start

    def run_(_stop_ch: sim.Chan | None) -> None:
        emit("Scheduler.Run", "go wait.Until(scheduleOne, 0, stop)")
        sched.run()
        sim.Chan(name="select{}").recv()  # Go: select {} — block forever

    if not s.leader_election.leader_elect:
        run_(None)
        raise RuntimeError("unreachable")

    from kschedlearn.client.leaderelection import leaderelection, resourcelock

    emit("leaderelection.start", f"identity {hostname}: RunOrDie on endpoints {LOCK_NAMESPACE}/{LOCK_NAME}")
    rl = resourcelock.EndpointsLock(
        endpoints_meta=ObjectMeta(namespace=LOCK_NAMESPACE, name=LOCK_NAME),
        client=kubecli,
        lock_config=resourcelock.ResourceLockConfig(identity=hostname, event_recorder=recorder),
    )
    le = s.leader_election
    config = leaderelection.LeaderElectionConfig(
        lock=rl,
        lease_duration=le.lease_duration,
        renew_deadline=le.renew_deadline,
        retry_period=le.retry_period,
        callbacks=leaderelection.LeaderCallbacks(
            on_started_leading=run_,
            on_stopped_leading=lambda: glog.fatalf("lost master"),
        ),
    )
    # Go: leaderelection.RunOrDie(config) — built in two steps so the notebook can hold the
    # elector (RunOrDie only adds a panic on a config error, which new_leader_elector raises).
    h.elector = leaderelection.new_leader_elector(config)
    h.elector.run()
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

"""``app.Run`` of kube-controller-manager: clients, leader election, then every controller.

Go: cmd/kube-controller-manager/app/controllermanager.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/cmd/kube-controller-manager/app/controllermanager.go

``run`` validates the options, builds a client and an event recorder, and either runs the
controllers at once (``--leader-elect=false``) or after winning the lock
``kube-system/kube-controller-manager``. ``start_controllers`` makes one shared informer factory
(resync ``min_resync_period × [1, 2)``), asks the API server which resources it serves, and calls
each enabled controller's ``InitFunc`` — each builds its controller with its own client and starts
its ``Run`` in a goroutine — then starts the informers and blocks.

Differs from Go: ``newControllerInitializers`` lists only the controllers kschedlearn mirrors
(replicationcontroller, replicaset, deployment, daemonset, statefuleset — 1.6's own spelling —
and garbagecollector); the other names 1.6 knows are accepted in ``--controllers`` and reported
as "not mirrored in kschedlearn" at start-up. Go's map iteration over the initializers (random
order) is name order. The cloud-provider controllers (node, service, route, volumes) are not
started. The HTTP endpoints are an in-process table (the scheduler's ``HTTPEndpoints``). The API
server is the simulation's (passed in). What ``run`` builds reaches the notebook through the
observation layer (:mod:`kschedlearn.observe.controllers`), never through a parameter.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs

from kschedlearn import sim
from kschedlearn.api.v1 import EventSource, ObjectMeta
from kschedlearn.apimachinery.util import wait
from kschedlearn.client_go import informers
from kschedlearn.client_go.kubernetes.typed.core.v1.event_expansion import EventSinkImpl
from kschedlearn.client_go.tools.record.event import new_broadcaster
from kschedlearn.cmd.kube_controller_manager.app.apps import start_stateful_set_controller
from kschedlearn.cmd.kube_controller_manager.app.core import (
    start_garbage_collector_controller,
    start_replication_controller,
)
from kschedlearn.cmd.kube_controller_manager.app.extensions import (
    start_daemon_set_controller,
    start_deployment_controller,
    start_replica_set_controller,
)
from kschedlearn.cmd.kube_controller_manager.app.options.options import CMServer
from kschedlearn.controller.client_builder import ClientConfig, SimpleControllerClientBuilder
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf

CONTROLLER_START_JITTER = 1.0
"""Go: ``ControllerStartJitter`` — controllermanager.go#L76-L77."""

LOCK_NAMESPACE = "kube-system"
LOCK_NAME = "kube-controller-manager"

#: the controller names of 1.6 (newControllerInitializers plus the "special" ones KnownControllers adds)
#: whose controllers kschedlearn does not mirror
NOT_MIRRORED = ("attachdetach", "bootstrapsigner", "certificatesigningrequests", "cronjob", "disruption", "endpoint",
                "horizontalpodautoscaling", "job", "namespace", "node", "persistentvolume-binder", "podgc",
                "resourcequota", "route", "service", "serviceaccount", "serviceaccount-token", "tokencleaner", "ttl")

CONTROLLERS_DISABLED_BY_DEFAULT = frozenset({"bootstrapsigner", "tokencleaner"})
"""Go: ``ControllersDisabledByDefault`` — controllermanager.go#L290-L293."""


def resync_period(s: CMServer) -> Callable[[], float]:
    """A function giving ``min_resync_period × (1 + rand)`` on each call (seeded runtime random).

    Go: ``ResyncPeriod`` — controllermanager.go#L101-L109
    """

    def period() -> float:
        factor = sim.current_runtime().rand.random() + 1
        return s.min_resync_period * factor

    return period


@attrs.define(eq=False)
class ControllerContext:
    """What every controller's ``InitFunc`` gets. Go: ``ControllerContext`` — controllermanager.go#L223-L238."""

    client_builder: SimpleControllerClientBuilder
    informer_factory: Any
    options: CMServer
    available_resources: dict[tuple[str, str, str], bool]
    stop: sim.Chan

    def is_controller_enabled(self, name: str) -> bool:
        """Go: ``(ControllerContext).IsControllerEnabled`` — controllermanager.go#L240-L242."""
        return is_controller_enabled(name, CONTROLLERS_DISABLED_BY_DEFAULT, *self.options.controllers)


def is_controller_enabled(name: str, disabled_by_default_controllers: frozenset[str], *controllers: str) -> bool:
    """``name`` explicitly on, explicitly off (``-name``), or on by ``*`` unless disabled by default.

    Go: ``IsControllerEnabled`` — controllermanager.go#L244-L267
    """
    has_star = False
    for controller in controllers:
        if controller == name:
            return True
        if controller == "-" + name:
            return False
        if controller == "*":
            has_star = True
    # if we get here, there was no explicit choice
    if not has_star:
        # nothing on by default
        return False
    if name in disabled_by_default_controllers:
        return False
    return True


InitFunc = Callable[[ControllerContext], bool]
"""Go: ``InitFunc`` — controllermanager.go#L269-L272 (raises on an error; returns whether it started)."""


def known_controllers() -> list[str]:
    """Go: ``KnownControllers`` — controllermanager.go#L274-L288 (sorted, as ``sets.String.List``)."""
    ret = set(new_controller_initializers())
    ret.update(NOT_MIRRORED)
    return sorted(ret)


def new_controller_initializers() -> dict[str, InitFunc]:
    """The controllers kschedlearn mirrors, by 1.6's names (note the typo ``statefuleset``).

    Go: ``newControllerInitializers`` — controllermanager.go#L295-L318 (see the module docstring)
    """
    controllers: dict[str, InitFunc] = {}
    controllers["replicationcontroller"] = start_replication_controller
    controllers["garbagecollector"] = start_garbage_collector_controller
    controllers["daemonset"] = start_daemon_set_controller
    controllers["deployment"] = start_deployment_controller
    controllers["replicaset"] = start_replica_set_controller
    controllers["statefuleset"] = start_stateful_set_controller
    return controllers


def get_available_resources(client_builder: SimpleControllerClientBuilder) -> dict[tuple[str, str, str], bool]:
    """Every (group, version, resource) the API server serves.

    Go: ``getAvailableResources`` — controllermanager.go#L320-L358. Differs from Go: read from the
    embedded API server's resource table (with the group versions its HTTP face serves) instead
    of discovery over HTTP.
    """
    from kschedlearn.apiserver.rest.discovery import SERVED  # noqa: PLC0415 - the discovery documents' table

    all_resources: dict[tuple[str, str, str], bool] = {}
    for served in SERVED:
        group, _, version = served.group_version.rpartition("/")
        all_resources[(group, version, served.name)] = True
    return all_resources


def run(s: CMServer, server: Any, *, hostname: str = "kube-controller-manager") -> None:
    """Go: ``Run`` — controllermanager.go#L111-L221 (never returns while the manager runs)."""
    from kschedlearn.cmd.kube_scheduler.app.server import HTTPEndpoints  # noqa: PLC0415 - same in-process mux

    s.validate(known_controllers(), sorted(CONTROLLERS_DISABLED_BY_DEFAULT))
    kubeconfig = ClientConfig(server=server, qps=s.kube_api_qps, burst=s.kube_api_burst)
    if server is None:
        raise RuntimeError("invalid configuration: no configuration has been provided")
    kube_client = SimpleControllerClientBuilder(kubeconfig).client("controller-manager")
    leader_election_client = SimpleControllerClientBuilder(kubeconfig).client("leader-election")
    mux = HTTPEndpoints(s)
    sim.go(_serve_http, mux, s, name="controller-manager http")
    event_broadcaster = new_broadcaster()
    event_broadcaster.start_logging(glog.infof)
    event_broadcaster.start_recording_to_sink(EventSinkImpl(kube_client))
    recorder = event_broadcaster.new_recorder(EventSource(component="controller-manager"))

    def run_(stop: sim.Chan | None) -> None:
        root_client_builder = SimpleControllerClientBuilder(kubeconfig)
        client_builder = root_client_builder
        err = start_controllers(new_controller_initializers(), s, root_client_builder, client_builder,
                                stop if stop is not None else sim.Chan(name="stop"))
        glog.fatalf("error running controllers: %v", err)

    if not s.leader_election.leader_elect:
        run_(None)
        raise RuntimeError("unreachable")
    from kschedlearn.client.leaderelection import leaderelection, resourcelock  # noqa: PLC0415

    rl = resourcelock.EndpointsLock(
        endpoints_meta=ObjectMeta(namespace=LOCK_NAMESPACE, name=LOCK_NAME),
        client=leader_election_client,
        lock_config=resourcelock.ResourceLockConfig(identity=hostname, event_recorder=recorder),
    )
    le = s.leader_election
    elector = leaderelection.new_leader_elector(leaderelection.LeaderElectionConfig(
        lock=rl, lease_duration=le.lease_duration, renew_deadline=le.renew_deadline, retry_period=le.retry_period,
        callbacks=leaderelection.LeaderCallbacks(on_started_leading=run_,
                                                 on_stopped_leading=lambda: glog.fatalf("leaderelection lost")),
    ))
    elector.run()
    raise RuntimeError("unreachable")


def _serve_http(endpoints: Any, s: CMServer) -> None:
    """Go: the ``go func()`` of Run serving /healthz, /configz and /metrics (controllermanager.go#L111-L221)."""
    endpoints.handlers["/healthz"] = lambda: (200, "text/plain; charset=utf-8", "ok")
    endpoints.handlers["/configz"] = lambda: (200, "application/json", json.dumps(
        {"componentconfig": attrs.asdict(s)}, indent=2, sort_keys=True, default=str))
    endpoints.handlers["/metrics"] = lambda: (200, "text/plain; version=0.0.4", "")
    sim.Chan(name="ListenAndServe").recv()  # Go: glog.Fatal(server.ListenAndServe()) — never returns


def start_controllers(controllers: dict[str, InitFunc], s: CMServer, root_client_builder: SimpleControllerClientBuilder,
                      client_builder: SimpleControllerClientBuilder, stop: sim.Chan) -> BaseException:
    """Start every enabled controller, then the shared informers; block.

    Go: ``StartControllers`` — controllermanager.go#L369-L577 (see the module docstring; Go
    returns only on an error, which is what this returns)
    """
    versioned_client = root_client_builder.client_or_die("shared-informers")
    shared_informers = informers.new_shared_informer_factory(versioned_client, resync_period(s)())
    glog.warningf("%q is disabled", "serviceaccount-token")  # no --service-account-private-key-file
    available_resources = get_available_resources(client_builder)
    ctx = ControllerContext(client_builder=client_builder, informer_factory=shared_informers, options=s,
                            available_resources=available_resources, stop=stop)
    for controller_name in sorted(controllers):
        init_fn = controllers[controller_name]
        if not ctx.is_controller_enabled(controller_name):
            glog.warningf("%q is disabled", controller_name)
            continue
        delay = wait.jitter(s.controller_start_interval, CONTROLLER_START_JITTER)
        if delay > 0:  # Go's time.Sleep(0) returns at once
            sim.sleep(delay)
        glog.v(1).infof("Starting %q", controller_name)
        try:
            started = init_fn(ctx)
        except Exception as err:  # noqa: BLE001 - Go: return err
            glog.errorf("Error starting %q", controller_name)
            return err
        if not started:
            glog.warningf("Skipping %q", controller_name)
            continue
        glog.infof("Started %q", controller_name)
    for name in sorted(set(NOT_MIRRORED) - CONTROLLERS_DISABLED_BY_DEFAULT - {"serviceaccount-token"}):
        if ctx.is_controller_enabled(name):
            glog.v(1).infof(sprintf("%q is not mirrored in kschedlearn", name))
    shared_informers.start(stop)
    sim.Chan(name="select{}").recv()  # Go: select {} — block forever
    return RuntimeError("unreachable")


__all__ = ["CONTROLLERS_DISABLED_BY_DEFAULT", "ControllerContext", "InitFunc", "LOCK_NAME", "LOCK_NAMESPACE",
           "NOT_MIRRORED", "get_available_resources", "is_controller_enabled",
           "known_controllers", "new_controller_initializers", "resync_period", "run", "start_controllers"]

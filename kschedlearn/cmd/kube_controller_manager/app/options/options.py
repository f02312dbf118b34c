"""The kube-controller-manager's settings: 1.6's defaults and the flags of the mirrored controllers.

Go: cmd/kube-controller-manager/app/options/options.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/cmd/kube-controller-manager/app/options/options.go#L40-L235

``new_cm_server()`` gives 1.6's defaults: every controller on (``--controllers=*``), 5 workers
for replication controllers, replica sets and deployments, 2 for daemon sets (no flag in 1.6),
1 for stateful sets (hard-coded in ``startStatefulSetController``), a minimum resync period of
12 h (each shared informer resyncs after 12–24 h), 20 QPS with a burst of 30 per controller
client, the garbage collector on, leader election on.

Differs from Go: ``CMServer`` holds the fields of the embedded
``componentconfig.KubeControllerManagerConfiguration`` that the mirrored controllers and
``StartControllers`` read; ``add_flags`` registers the flags of those fields (the node, service,
route, volume, namespace, quota, HPA and certificate flags belong to controllers that are not
mirrored and are not accepted).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from kschedlearn.apimachinery.util.errors import new_aggregate
from kschedlearn.apis.componentconfig.types import LeaderElectionConfiguration
from kschedlearn.client.leaderelection.leaderelection import bind_flags, default_leader_election_configuration
from kschedlearn.cmd.kube_scheduler.app.options.pflag import FlagSet
from kschedlearn.trace.gofmt import sprintf

CONTROLLER_MANAGER_PORT = 10252
"""Go: ``ports.ControllerManagerPort`` (pkg/master/ports/ports.go)."""


class StringSliceValue:
    """pflag's ``stringSlice`` value: comma-separated, the first ``Set`` replaces the default.

    Go: vendor/github.com/spf13/pflag/string_slice.go (``stringSliceValue``).
    """

    def __init__(self, target: CMServer, default: list[str]) -> None:
        self.target = target
        self.changed = False
        self.target.controllers = list(default)

    def string(self) -> str:
        return "[" + ",".join(self.target.controllers) + "]"

    def set(self, s: str) -> None:
        """Go: ``(*stringSliceValue).Set`` — the first use replaces the default, later ones append."""
        values = [v for v in s.split(",")] if s else []
        if not self.changed:
            self.target.controllers = values
        else:
            self.target.controllers = self.target.controllers + values
        self.changed = True

    def type(self) -> str:
        return "stringSlice"


@attrs.define(kw_only=True, eq=False)
class CMServer:
    """Go: ``options.CMServer`` — options.go#L40-L46 (see the module docstring)."""

    controllers: list[str] = attrs.field(factory=lambda: ["*"])
    port: int = CONTROLLER_MANAGER_PORT
    address: str = "0.0.0.0"
    concurrent_rc_syncs: int = 5
    concurrent_rs_syncs: int = 5
    concurrent_daemon_set_syncs: int = 2
    concurrent_deployment_syncs: int = 5
    deployment_controller_sync_period: float = 30.0
    min_resync_period: float = 12 * 3600.0
    content_type: str = "application/vnd.kubernetes.protobuf"
    kube_api_qps: float = 20.0
    kube_api_burst: int = 30
    leader_election: LeaderElectionConfiguration = attrs.field(factory=default_leader_election_configuration)
    controller_start_interval: float = 0.0
    enable_garbage_collector: bool = True
    concurrent_gc_syncs: int = 20
    enable_profiling: bool = True
    enable_contention_profiling: bool = False
    master: str = ""
    kubeconfig: str = ""

    def add_flags(self, fs: FlagSet, all_controllers: Sequence[str] = (),
                  disabled_by_default_controllers: Sequence[str] = ()) -> None:
        """Register the flags of the modelled fields. Go: ``(*CMServer).AddFlags`` — options.go#L115-L214."""
        fs.var(StringSliceValue(self, self.controllers), "controllers", sprintf(
            "A list of controllers to enable.  '*' enables all on-by-default controllers, 'foo' enables the controller "
            "named 'foo', '-foo' disables the controller named 'foo'.\nAll controllers: %s\nDisabled-by-default "
            "controllers: %s", ", ".join(all_controllers), ", ".join(disabled_by_default_controllers)))
        fs.int32_var(self, "port", "port", self.port, "The port that the controller-manager's http service runs on")
        fs.string_var(self, "address", "address", self.address,
                      "The IP address to serve on (set to 0.0.0.0 for all interfaces)")
        fs.int32_var(self, "concurrent_rc_syncs", "concurrent_rc_syncs", self.concurrent_rc_syncs,
                     "The number of replication controllers that are allowed to sync concurrently. Larger number = "
                     "more responsive replica management, but more CPU (and network) load")
        fs.int32_var(self, "concurrent_rs_syncs", "concurrent-replicaset-syncs", self.concurrent_rs_syncs,
                     "The number of replica sets that are allowed to sync concurrently. Larger number = more "
                     "responsive replica management, but more CPU (and network) load")
        fs.int32_var(self, "concurrent_deployment_syncs", "concurrent-deployment-syncs",
                     self.concurrent_deployment_syncs,
                     "The number of deployment objects that are allowed to sync concurrently. Larger number = more "
                     "responsive deployments, but more CPU (and network) load")
        fs.duration_var(self, "deployment_controller_sync_period", "deployment-controller-sync-period",
                        self.deployment_controller_sync_period, "Period for syncing the deployments.")
        fs.duration_var(self, "min_resync_period", "min-resync-period", self.min_resync_period,
                        "The resync period in reflectors will be random between MinResyncPeriod and 2*MinResyncPeriod")
        fs.bool_var(self, "enable_profiling", "profiling", True, "Enable profiling via web interface host:port/debug/pprof/")
        fs.bool_var(self, "enable_contention_profiling", "contention-profiling", False,
                    "Enable lock contention profiling, if profiling is enabled")
        fs.string_var(self, "master", "master", self.master,
                      "The address of the Kubernetes API server (overrides any value in kubeconfig)")
        fs.string_var(self, "kubeconfig", "kubeconfig", self.kubeconfig,
                      "Path to kubeconfig file with authorization and master location information.")
        fs.string_var(self, "content_type", "kube-api-content-type", self.content_type,
                      "Content type of requests sent to apiserver.")
        fs.float32_var(self, "kube_api_qps", "kube-api-qps", self.kube_api_qps,
                       "QPS to use while talking with kubernetes apiserver")
        fs.int32_var(self, "kube_api_burst", "kube-api-burst", self.kube_api_burst,
                     "Burst to use while talking with kubernetes apiserver")
        fs.duration_var(self, "controller_start_interval", "controller-start-interval", self.controller_start_interval,
                        "Interval between starting controller managers.")
        fs.bool_var(self, "enable_garbage_collector", "enable-garbage-collector", self.enable_garbage_collector,
                    "Enables the generic garbage collector. MUST be synced with the corresponding flag of the "
                    "kube-apiserver.")
        fs.int32_var(self, "concurrent_gc_syncs", "concurrent-gc-syncs", self.concurrent_gc_syncs,
                     "The number of garbage collector workers that are allowed to sync concurrently.")
        bind_flags(self.leader_election, fs)

    def validate(self, all_controllers: Sequence[str], disabled_by_default_controllers: Sequence[str]) -> None:
        """Every name in ``--controllers`` must be known (``-name`` and ``*`` too).

        Go: ``(*CMServer).Validate`` — options.go#L216-L235 (raises the aggregate instead of returning it)
        """
        errs = []
        all_controllers_set = set(all_controllers)
        for controller in self.controllers:
            if controller == "*":
                continue
            if controller.startswith("-"):
                controller = controller[1:]
            if controller not in all_controllers_set:
                errs.append(ValueError(sprintf("%q is not in the list of known controllers", controller)))
        aggregate = new_aggregate(errs)
        if aggregate is not None:
            raise aggregate


def new_cm_server() -> CMServer:
    """1.6's defaults, leader election switched on. Go: ``NewCMServer`` — options.go#L48-L113."""
    s = CMServer()
    s.leader_election.leader_elect = True
    return s


__all__ = ["CMServer", "CONTROLLER_MANAGER_PORT", "StringSliceValue", "new_cm_server"]

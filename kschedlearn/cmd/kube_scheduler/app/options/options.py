"""The kube-scheduler's settings: defaults, every 1.6 command-line flag, and parsing.

Go: plugin/cmd/kube-scheduler/app/options/options.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/options/options.go#L36-L83

``new_scheduler_server()`` gives the defaults (port 10251, DefaultProvider, 50 QPS, ...) with
leader election forced on; ``add_flags(fs)`` registers the flags on a pflag-style flag set,
which writes each flag's default into the server as Go's ``XxxVar`` calls do; ``parse_args``
is what ``main`` does with ``os.Args[1:]``.

Range checks are not made here, as in 1.6: ``--hard-pod-affinity-symmetric-weight`` must be
0..100, but that is checked only when the scheduler is created (``CreateFromKeys``); the
leader-election timings are checked by ``leaderelection.NewLeaderElector``.

``SchedulerServer.feature_gates`` is the process's ``DefaultFeatureGate`` (one per simulated
process, see ``kschedlearn.features``). Differs from Go: main's glog/version flags (``--v``,
``--logtostderr``, ``--version``, ...) are main's business and not registered here.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from kschedlearn import sim

from kschedlearn.apis.componentconfig.types import KubeSchedulerConfiguration
from kschedlearn.apis.componentconfig.v1alpha1.defaults import (
    DEFAULT_FAILURE_DOMAINS,
    DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT,
    set_defaults_kube_scheduler_configuration,
)
from kschedlearn.client.leaderelection.leaderelection import bind_flags
from kschedlearn.cmd.kube_scheduler.app.options.pflag import FlagError, FlagSet, HelpRequested
from kschedlearn.features import KNOWN_FEATURES, FeatureGate, FeatureSpec, default_feature_gate

_GO = "https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/options/options.go"


def _process_feature_gate() -> FeatureGate:
    """The running simulated process's gate; a fresh one for a server built outside any process
    (a unit test parsing flags must not change the host's gate). kschedlearn-only."""
    return default_feature_gate() if sim.current_goroutine() is not None else FeatureGate()


@attrs.define(kw_only=True, eq=False)
class SchedulerServer(KubeSchedulerConfiguration):
    """Everything the scheduler binary is configured with.

    Go: options.SchedulerServer -- embeds ``componentconfig.KubeSchedulerConfiguration`` and
    adds ``Master`` and ``Kubeconfig``. Differs from Go: embedding is a subclass, so
    ``s.port`` and ``s.leader_election.leader_elect`` read as in Go; ``feature_gates`` is
    its process's ``DefaultFeatureGate`` (see module docstring).
    """

    master: str = ""
    kubeconfig: str = ""
    # Go: utilfeature.DefaultFeatureGate, which AddFlags binds to --feature-gates: the gate of
    # the simulated process this server is built in (see kschedlearn.features).
    feature_gates: FeatureGate = attrs.field(factory=lambda: _process_feature_gate())

    def add_flags(self, fs: FlagSet) -> None:
        """Register every kube-scheduler flag on ``fs``.

        Go: SchedulerServer.AddFlags (options.go#L61-L83). ``--profiling`` and
        ``--contention-profiling`` take literal defaults (true / false), and
        ``--hard-pod-affinity-symmetric-weight`` and ``--failure-domains`` the API constants,
        not the struct's values -- so registering them also sets those fields.
        """
        from kschedlearn.scheduler.factory import plugins as factory  # Go imports factory

        fs.int32_var(self, "port", "port", self.port, "The port that the scheduler's http service runs on")
        fs.string_var(self, "address", "address", self.address,
                      "The IP address to serve on (set to 0.0.0.0 for all interfaces)")
        fs.string_var(self, "algorithm_provider", "algorithm-provider", self.algorithm_provider,
                      "The scheduling algorithm provider to use, one of: " + factory.list_algorithm_providers())
        fs.string_var(self, "policy_config_file", "policy-config-file", self.policy_config_file,
                      "File with scheduler policy configuration")
        fs.bool_var(self, "enable_profiling", "profiling", True,
                    "Enable profiling via web interface host:port/debug/pprof/")
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
        fs.string_var(self, "scheduler_name", "scheduler-name", self.scheduler_name,
                      "Name of the scheduler, used to select which pods will be processed by this "
                      "scheduler, based on pod's \"spec.SchedulerName\".")
        fs.int_var(self, "hard_pod_affinity_symmetric_weight", "hard-pod-affinity-symmetric-weight",
                   DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT,
                   "RequiredDuringScheduling affinity is not symmetric, but there is an implicit "
                   "PreferredDuringScheduling affinity rule corresponding to every RequiredDuringScheduling "
                   "affinity rule. --hard-pod-affinity-symmetric-weight represents the weight of implicit "
                   "PreferredDuringScheduling affinity rule.")
        fs.string_var(self, "failure_domains", "failure-domains", DEFAULT_FAILURE_DOMAINS,
                      "Indicate the \"all topologies\" set for an empty topologyKey when it's used for "
                      "PreferredDuringScheduling pod anti-affinity.")
        fs.mark_deprecated("failure-domains", "Doesn't have any effect. Will be removed in future version.")
        bind_flags(self.leader_election, fs)
        self.feature_gates.add_flag(fs)


def new_scheduler_server() -> SchedulerServer:
    """The defaults, with leader election switched on.

    Go: NewSchedulerServer (options.go#L48-L59) -- default a v1alpha1 config, convert it, then
    force ``LeaderElection.LeaderElect = true`` (the v1alpha1 default is off).
    """
    cfg = KubeSchedulerConfiguration()
    set_defaults_kube_scheduler_configuration(cfg)
    cfg.leader_election.leader_elect = True
    return SchedulerServer(**attrs.asdict(cfg, recurse=False))


def new_flag_set(s: SchedulerServer, name: str = "kube-scheduler") -> FlagSet:
    """A flag set with every kube-scheduler flag bound to ``s`` (what main's AddFlags does).

    Go: SchedulerServer.AddFlags — options.go, on a new pflag.FlagSet as main uses it.
    """
    fs = FlagSet(name=name)
    s.add_flags(fs)
    return fs


def parse_args(argv: Sequence[str], s: SchedulerServer | None = None, *,
               name: str = "kube-scheduler") -> SchedulerServer:
    """``add_flags`` on ``s`` (default: ``new_scheduler_server()``) + parse ``argv``; returns ``s``.

    ``argv`` excludes the program name (Go: ``os.Args[1:]``).

    Raises :class:`FlagError` with pflag's message (main prints it and the usage, exit 2) or
    :class:`HelpRequested` for ``-h``/``--help``. Arguments that are not flags are ignored,
    as kube-scheduler's main ignores them (so ``--leader-elect false`` leaves election on).
    """
    if s is None:
        s = new_scheduler_server()
    fs = new_flag_set(s, name)
    fs.parse(list(argv))
    return s


def usage(name: str = "kube-scheduler") -> str:
    """The ``--help`` text: ``Usage of kube-scheduler:`` and every (non-deprecated) flag."""
    return new_flag_set(new_scheduler_server(), name).usage_text()


__all__ = [
    "FeatureGate", "FeatureSpec", "FlagError", "FlagSet", "HelpRequested", "KNOWN_FEATURES",
    "SchedulerServer", "new_flag_set", "new_scheduler_server", "parse_args", "usage",
]

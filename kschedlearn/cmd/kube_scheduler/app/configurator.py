"""createClient, createRecorder, createScheduler and the policy-file-or-provider configurator.

Go: plugin/cmd/kube-scheduler/app/configurator.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/configurator.go#L49-L138

Differs from Go: there is no network. ``create_client`` returns a clientset for the embedded
API server of the simulation (``--master`` / ``--kubeconfig`` are accepted and recorded but
point at that server); the client-side rate limit of ``--kube-api-qps`` / ``--kube-api-burst``
is applied in virtual time.
"""

from __future__ import annotations

import os
from typing import Any

import attrs

from kschedlearn.api.v1 import EventSource
from kschedlearn.apiserver.clientset import new_for_server
from kschedlearn.client_go.tools.record import new_broadcaster
from kschedlearn.client_go.util.flowcontrol.throttle import new_token_bucket_rate_limiter
from kschedlearn.scheduler import scheduler
from kschedlearn.scheduler.factory import factory
from kschedlearn.trace import glog


class ConfigError(Exception):
    """An error of ``run``'s set-up steps, with the 1.6 wording."""


def create_recorder(kubecli: Any, s: Any) -> Any:
    """Go: createRecorder — events are logged and written to the API server.
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/configurator.go#L49-L54

    Source component = ``--scheduler-name``. See ``client_go.tools.record.event`` for which
    parts of 1.6's event correlator are reproduced.
    """
    event_broadcaster = new_broadcaster()
    event_broadcaster.start_logging(glog.infof)
    event_broadcaster.start_recording_to_sink(_EventSink(kubecli))
    return event_broadcaster.new_recorder(EventSource(component=s.scheduler_name))


@attrs.define(eq=False)
class _EventSink:
    """Go: v1core.EventSinkImpl — each event goes to its own namespace."""

    kubecli: Any

    def create(self, event: Any) -> Any:
        return self.kubecli.core_v1().events(event.metadata.namespace).create(event)

    def update(self, event: Any) -> Any:
        return self.kubecli.core_v1().events(event.metadata.namespace).update(event)


def create_client(s: Any, server: Any) -> Any:
    """Go: createClient — build the clientset (QPS/burst from the flags).
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/configurator.go#L56-L72

    Differs from Go: ``server`` is the embedded API server; the 1.6 quirk of giving the whole
    scheduler client the user agent suffix ``leader-election`` has no visible effect here.
    """
    if server is None:
        raise ConfigError("unable to build config from flags: no API server to talk to")
    limiter = new_token_bucket_rate_limiter(float(s.kube_api_qps), int(s.kube_api_burst))
    return new_for_server(server, rate_limiter=limiter)


def create_scheduler(
    s: Any,
    kubecli: Any,
    node_informer: Any,
    pv_informer: Any,
    pvc_informer: Any,
    replication_controller_informer: Any,
    replica_set_informer: Any,
    stateful_set_informer: Any,
    service_informer: Any,
    recorder: Any,
    registry: Any = None,
) -> scheduler.Scheduler:
    """Go: createScheduler — ConfigFactory wrapped by the policy-file-or-provider configurator.

    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/cmd/kube-scheduler/app/configurator.go#L74-L109
    """
    configurator: Any = factory.new_config_factory(
        s.scheduler_name, kubecli, node_informer, pv_informer, pvc_informer,
        replication_controller_informer, replica_set_informer, stateful_set_informer,
        service_informer, s.hard_pod_affinity_symmetric_weight, registry=registry,
    )
    configurator = SchedulerConfigurator(configurator, s.policy_config_file, s.algorithm_provider)

    def set_recorder(cfg: scheduler.Config) -> None:
        cfg.recorder = recorder

    return scheduler.new_from_configurator(configurator, set_recorder)


@attrs.define(eq=False)
class SchedulerConfigurator:
    """Go: schedulerConfigurator — a policy file if one can be stat-ed, else the provider."""

    configurator: factory.ConfigFactory
    policy_file: str
    algorithm_provider: str

    def create(self) -> scheduler.Config:
        """Go: schedulerConfigurator.Create — configurator.go#L119-L138"""
        from kschedlearn.scheduler.api.v1.types import load_policy

        if not self.policy_file or not os.path.exists(self.policy_file):
            # 1.6 quirk: a --policy-config-file that cannot be stat-ed is not an error; the
            # provider is used without a word (the trace says so).
            return self.configurator.create_from_provider(self.algorithm_provider)
        try:
            with open(self.policy_file, "rb") as f:
                config_data = f.read()
        except OSError as err:
            raise ConfigError(f"unable to read policy config: {_go_read_error(self.policy_file, err)}") from err
        try:
            policy = load_policy(config_data)
        except ValueError as err:
            raise ConfigError(f"invalid configuration: {err}") from err
        return self.configurator.create_from_config(policy)


def _go_read_error(path: str, err: OSError) -> str:
    """An ``ioutil.ReadFile`` error as Go words it: ``read PATH: is a directory``,
    ``open PATH: permission denied`` (Go's lower-case strerror, no errno)."""
    reason = (err.strerror or str(err)).lower()
    op = "read" if isinstance(err, IsADirectoryError) else "open"
    return f"{op} {path}: {reason}"

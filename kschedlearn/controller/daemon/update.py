"""The DaemonSet RollingUpdate: delete old-generation pods, at most maxUnavailable at a time.

Go: pkg/controller/daemon/update.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/daemon/update.go

Differs from Go: methods of ``DaemonSetsController`` in a mixin (Go: the same type in another
file); ``getAllDaemonSetPods`` walks the nodes in the mapping's order (Go: random map order).
"""

from __future__ import annotations

from typing import Any

from kschedlearn import sim
from kschedlearn.api.v1 import is_pod_available
from kschedlearn.apimachinery import labels
from kschedlearn.apimachinery.util.errors import new_aggregate
from kschedlearn.apimachinery.util.intstr import get_value_from_int_or_percent
from kschedlearn.apimachinery.util.runtime import PANICS
from kschedlearn.controller.daemon.util import daemonset_util as util
from kschedlearn.trace import glog
from kschedlearn.trace.gofmt import sprintf


class UpdateMethods:
    """The methods of ``DaemonSetsController`` defined in update.go (a mixin).

    Go: the methods of update.go (kschedlearn-only grouping: Go spreads one type's methods over files)."""

    node_lister: Any

    def rolling_update(self, ds: Any) -> None:
        """Go: ``rollingUpdate`` — update.go#L32-L71."""
        try:
            node_to_daemon_pods = self.get_nodes_to_daemon_pods(ds)
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("couldn't get node to daemon pod mapping for daemon set %q: %v",
                                       ds.metadata.name, err)) from err
        _, old_pods = self.get_all_daemon_set_pods(ds, node_to_daemon_pods)
        try:
            max_unavailable, num_unavailable = self.get_unavailable_numbers(ds, node_to_daemon_pods)
        except PANICS:
            raise
        except Exception as err:
            raise RuntimeError(sprintf("Couldn't get unavailable numbers: %v", err)) from err
        old_available_pods, old_unavailable_pods = util.split_by_available_pods(ds.spec.min_ready_seconds, old_pods)
        # for oldPods delete all not running pods
        pods_to_delete = []
        glog.v(4).infof("Marking all unavailable old pods for deletion")
        for pod in old_unavailable_pods:
            # Skip terminating pods. We won't delete them again
            if pod.metadata.deletion_timestamp is not None:
                continue
            glog.v(4).infof("Marking pod %s/%s for deletion", ds.metadata.name, pod.metadata.name)
            pods_to_delete.append(pod.metadata.name)
        glog.v(4).infof("Marking old pods for deletion")
        for pod in old_available_pods:
            if num_unavailable >= max_unavailable:
                glog.v(4).infof("Number of unavailable DaemonSet pods: %d, is equal to or exceeds allowed maximum: %d",
                                num_unavailable, max_unavailable)
                break
            glog.v(4).infof("Marking pod %s/%s for deletion", ds.metadata.name, pod.metadata.name)
            pods_to_delete.append(pod.metadata.name)
            num_unavailable += 1
        errors = self.sync_nodes(ds, pods_to_delete, [])
        aggregate = new_aggregate(errors)
        if aggregate is not None:
            raise aggregate

    def get_all_daemon_set_pods(self, ds: Any, node_to_daemon_pods: dict[str, list[Any]]) -> tuple[list[Any], list[Any]]:
        """(pods of the current template generation, older ones). Go: ``getAllDaemonSetPods`` — update.go#L73-L87."""
        new_pods = []
        old_pods = []
        for pods in node_to_daemon_pods.values():
            for pod in pods:
                if util.is_pod_updated(ds.spec.template_generation, pod):
                    new_pods.append(pod)
                else:
                    old_pods.append(pod)
        return new_pods, old_pods

    def get_unavailable_numbers(self, ds: Any, node_to_daemon_pods: dict[str, list[Any]]) -> tuple[int, int]:
        """(maxUnavailable resolved, pods unavailable now). Go: ``getUnavailableNumbers`` — update.go#L89-L129."""
        glog.v(4).infof("Getting unavailable numbers")
        node_list = self.node_lister.list(labels.everything())
        num_unavailable = desired_number_scheduled = 0
        for node in node_list:
            want_to_run, _, _ = self.node_should_run_daemon_pod(node, ds)
            if not want_to_run:
                continue
            desired_number_scheduled += 1
            daemon_pods = node_to_daemon_pods.get(node.metadata.name)
            if daemon_pods is None:
                num_unavailable += 1
                continue
            available = False
            for pod in daemon_pods:
                if is_pod_available(pod, ds.spec.min_ready_seconds, sim.now()):
                    available = True
                    break
            if not available:
                num_unavailable += 1
        try:
            max_unavailable = get_value_from_int_or_percent(ds.spec.update_strategy.rolling_update.max_unavailable,
                                                            desired_number_scheduled, True)
        except ValueError as err:
            raise RuntimeError(sprintf("Invalid value for MaxUnavailable: %v", err)) from err
        return max_unavailable, num_unavailable


__all__ = ["UpdateMethods"]

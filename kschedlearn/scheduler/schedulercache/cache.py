"""The scheduler cache: assumed and confirmed pods per node, and the sweep that expires guesses.

Go: plugin/pkg/scheduler/schedulercache/cache.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L30-L386

The journey of a scheduled pod through this file (see ``interface.py`` for the state diagram):
``assume_pod`` puts it on its node at once; the binding goroutine calls ``finish_binding`` when the
API call returns, which starts a TTL (30 s from the factory); the assigned-pod informer calls
``add_pod`` when the API server's confirmation arrives, which un-assumes it. If no confirmation
comes in time, the sweep that ``new`` starts (every second) drops the pod: it *expired*.

1.6 quirks reproduced here (spec sections 4.3 and 13.12), each a teaching moment:

- ``forget_pod`` on a pod the cache does not know crashes the scheduler with a nil-pointer panic
  (fixed in 1.7 by PR #44152).
- ``update_pod`` / ``remove_pod`` with a node different from the stored one end the process with
  ``glog.fatalf("Schedulercache is corrupted and can badly affect scheduling decisions")``.
- After ``add_pod`` confirms a pod on a *different* node than it was assumed on, the stored pod
  object stays the stale assumed copy, so the pod's next update or removal hits that fatal exit.

Differs from Go: time is the simulated clock (``sim.now()``), not ``time.Now()``; Go map iteration
is random, Python dicts iterate in insertion order (deterministic by design).
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING

import attrs

from kschedlearn import sim
from kschedlearn.apimachinery.util import wait
from kschedlearn.scheduler.schedulercache.node_info import (
    CacheError,
    GoPanic,
    NilPointerDereference,
    NodeInfo,
    Resource,
    get_pod_key,
    new_node_info,
)
from kschedlearn.trace import glog

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Node, Pod
    from kschedlearn.apimachinery.labels import Selector

#: Go: var cleanAssumedPeriod = 1 * time.Second -- how often expired assumed pods are swept.
_CLEAN_ASSUMED_PERIOD = 1.0

_CORRUPTED = "Schedulercache is corrupted and can badly affect scheduling decisions"


def new(ttl: float, stop: sim.Chan) -> SchedulerCache:
    """Build the cache and start the goroutine that expires assumed pods every second.

    Go: func New(ttl time.Duration, stop <-chan struct{}) Cache
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L34-L42
    Differs from Go: must be called inside a simulated goroutine (it starts one).
    """
    cache = _new_scheduler_cache(ttl, _CLEAN_ASSUMED_PERIOD, stop)
    cache._run()
    return cache


@attrs.define(eq=False)
class _PodState:
    """What the cache remembers about one stored pod.

    Go: type podState struct -- ``deadline`` None is Go's nil *time.Time (no deadline yet).
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L59-L65
    """

    pod: Pod
    deadline: float | None = None
    binding_finished: bool = False


@attrs.define(eq=False, slots=False)
class SchedulerCache:
    """The cache behind the ``Cache`` interface; one mutex guards every field.

    Go: type schedulerCache struct (cache.go)
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L44-L57
    """

    _stop: sim.Chan | None
    _ttl: float
    _period: float
    _mu: sim.Mutex = attrs.field(factory=sim.Mutex)
    # A set of assumed pod keys (Go: map[string]bool); details live in _pod_states.
    _assumed_pods: dict[str, bool] = attrs.field(factory=dict)
    _pod_states: dict[str, _PodState] = attrs.field(factory=dict)
    _nodes: dict[str, NodeInfo] = attrs.field(factory=dict)

    def update_node_name_to_info_map(self, node_name_to_info: dict[str, NodeInfo]) -> None:
        """Bring the caller's snapshot up to date: clone changed NodeInfos, drop vanished ones.

        Go: func (cache *schedulerCache) UpdateNodeNameToInfoMap(...) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L79-L93
        """
        with self._mu:
            for name, info in self._nodes.items():
                current = node_name_to_info.get(name)
                if current is None or current.generation != info.generation:
                    node_name_to_info[name] = info.clone()
            for name in builtins.list(node_name_to_info):
                if name not in self._nodes:
                    del node_name_to_info[name]

    def assume_pod(self, pod: Pod) -> None:
        """Optimistically account ``pod`` on ``pod.spec.node_name`` (no deadline yet).

        Go: func (cache *schedulerCache) AssumePod(pod *v1.Pod) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L109-L128
        """
        key = get_pod_key(pod)
        with self._mu:
            if key in self._pod_states:
                raise CacheError(f"pod {key} state wasn't initial but get assumed")
            self._add_pod(pod)
            self._pod_states[key] = _PodState(pod=pod)
            self._assumed_pods[key] = True

    def finish_binding(self, pod: Pod) -> None:
        """The bind call returned: start the assumed pod's TTL now.

        Go: func (cache *schedulerCache) FinishBinding(pod *v1.Pod) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L130-L132
        Differs from Go: ``sim.now()`` instead of ``time.Now()``.
        """
        self._finish_binding(pod, sim.now())

    def _finish_binding(self, pod: Pod, now: float) -> None:
        """Test seam taking ``now`` explicitly.

        Go: func (cache *schedulerCache) finishBinding(pod *v1.Pod, now time.Time) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L134-L152
        """
        key = get_pod_key(pod)
        with self._mu:
            glog.v(5).infof("Finished binding for pod %v. Can be expired.", key)
            curr_state = self._pod_states.get(key)
            if curr_state is not None and self._assumed_pods.get(key, False):
                curr_state.binding_finished = True
                curr_state.deadline = now + self._ttl

    def forget_pod(self, pod: Pod) -> None:
        """Undo ``assume_pod`` (the binding failed).

        Go: func (cache *schedulerCache) ForgetPod(pod *v1.Pod) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L154-L181
        1.6 quirk: Go reads the stored state's node name *before* checking that the pod is
        stored at all; for an unknown pod that is a nil-pointer dereference, a panic that kills
        the scheduler. (1.7 added the missing ``ok &&``, PR #44152.)
        """
        key = get_pod_key(pod)
        with self._mu:
            curr_state = self._pod_states.get(key)
            if curr_state is None:  # Go: currState.pod on a nil *podState
                raise NilPointerDereference()
            if curr_state.pod.spec.node_name != pod.spec.node_name:
                raise CacheError(f"pod {key} state was assumed on a different node")
            if self._assumed_pods.get(key, False):  # only assumed pods can be forgotten
                self._remove_pod(pod)
                del self._assumed_pods[key]
                del self._pod_states[key]
            else:
                raise CacheError(f"pod {key} state wasn't assumed but get forgotten")

    def _add_pod(self, pod: Pod) -> None:
        """Account the pod on its node, creating the NodeInfo if needed (lock held).

        Go: func (cache *schedulerCache) addPod(pod *v1.Pod)
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L183-L191
        """
        n = self._nodes.get(pod.spec.node_name)
        if n is None:
            n = new_node_info()
            self._nodes[pod.spec.node_name] = n
        n.add_pod(pod)

    def _update_pod(self, old_pod: Pod, new_pod: Pod) -> None:
        """Go: func (cache *schedulerCache) updatePod(oldPod, newPod *v1.Pod) error

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L193-L200
        """
        self._remove_pod(old_pod)
        self._add_pod(new_pod)

    def _remove_pod(self, pod: Pod) -> None:
        """Take the pod off its node; drop a NodeInfo left with no pods and no node (lock held).

        Go: func (cache *schedulerCache) removePod(pod *v1.Pod) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L202-L212
        A NodeInfo missing for ``pod.spec.node_name`` is a nil receiver in Go: a panic.
        """
        n = self._nodes.get(pod.spec.node_name)
        if n is None:
            raise NilPointerDereference()
        n.remove_pod(pod)
        if not n.pods() and n.node() is None:
            del self._nodes[pod.spec.node_name]

    def add_pod(self, pod: Pod) -> None:
        """The watch reports the pod as bound: confirm it, or add it back if it expired.

        Go: func (cache *schedulerCache) AddPod(pod *v1.Pod) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L214-L246
        1.6 quirk: when the pod landed on a different node than assumed, only the NodeInfos are
        fixed; the stored pod object stays the *stale assumed copy*, so the next update_pod /
        remove_pod for it sees a node mismatch and ends the process (see ``update_pod``).
        """
        key = get_pod_key(pod)
        with self._mu:
            curr_state = self._pod_states.get(key)
            if curr_state is not None and self._assumed_pods.get(key, False):
                if curr_state.pod.spec.node_name != pod.spec.node_name:
                    glog.warningf("Pod %v assumed to a different node than added to.", key)
                    try:
                        self._remove_pod(curr_state.pod)
                    except CacheError:
                        pass  # Go ignores removePod's error here (a panic still propagates)
                    self._add_pod(pod)
                del self._assumed_pods[key]
                self._pod_states[key].deadline = None
            elif curr_state is None:
                # It expired (or another scheduler placed it): add it back.
                self._add_pod(pod)
                self._pod_states[key] = _PodState(pod=pod)
            else:
                raise CacheError(f"pod was already in added state. Pod key: {key}")

    def update_pod(self, old_pod: Pod, new_pod: Pod) -> None:
        """Swap an added pod's object for its new version.

        Go: func (cache *schedulerCache) UpdatePod(oldPod, newPod *v1.Pod) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L248-L273
        1.6 quirk: a node mismatch with the stored pod is fatal for the whole process.
        """
        key = get_pod_key(old_pod)
        with self._mu:
            curr_state = self._pod_states.get(key)
            # An assumed pod gets no update before its add event confirms it.
            if curr_state is not None and not self._assumed_pods.get(key, False):
                if curr_state.pod.spec.node_name != new_pod.spec.node_name:
                    glog.errorf("Pod %v updated on a different node than previously added to.", key)
                    glog.fatalf(_CORRUPTED)
                self._update_pod(old_pod, new_pod)
            else:
                raise CacheError(f"pod {key} state wasn't added but get updated")

    def remove_pod(self, pod: Pod) -> None:
        """Drop an added pod (it was deleted or finished).

        Go: func (cache *schedulerCache) RemovePod(pod *v1.Pod) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L275-L302
        1.6 quirk: a node mismatch with the stored pod is fatal for the whole process.
        """
        key = get_pod_key(pod)
        with self._mu:
            curr_state = self._pod_states.get(key)
            # An assumed pod gets no removal before its add event confirms it.
            if curr_state is not None and not self._assumed_pods.get(key, False):
                if curr_state.pod.spec.node_name != pod.spec.node_name:
                    glog.errorf("Pod %v removed from a different node than previously added to.", key)
                    glog.fatalf(_CORRUPTED)
                self._remove_pod(curr_state.pod)
                del self._pod_states[key]
            else:
                raise CacheError(f"pod state wasn't added but get removed. Pod key: {key}")

    def add_node(self, node: Node) -> None:
        """Go: func (cache *schedulerCache) AddNode(node *v1.Node) error

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L304-L314
        """
        with self._mu:
            n = self._nodes.get(node.metadata.name)
            if n is None:
                n = new_node_info()
                self._nodes[node.metadata.name] = n
            n.set_node(node)

    def update_node(self, old_node: Node | None, new_node: Node) -> None:
        """Same as ``add_node`` for ``new_node``; ``old_node`` is ignored.

        Go: func (cache *schedulerCache) UpdateNode(oldNode, newNode *v1.Node) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L316-L326
        """
        with self._mu:
            n = self._nodes.get(new_node.metadata.name)
            if n is None:
                n = new_node_info()
                self._nodes[new_node.metadata.name] = n
            n.set_node(new_node)

    def remove_node(self, node: Node) -> None:
        """Forget the node object; keep its NodeInfo while pods remain on it.

        Pod events travel on another watch, so a pod's delete may arrive after its node's.

        Go: func (cache *schedulerCache) RemoveNode(node *v1.Node) error
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L328-L344
        A node the cache never saw is a nil receiver in Go: a panic.
        """
        with self._mu:
            n = self._nodes.get(node.metadata.name)
            if n is None:
                raise NilPointerDereference()
            n.remove_node(node)
            if not n.pods() and n.node() is None:
                del self._nodes[node.metadata.name]

    def _run(self) -> None:
        """Go: func (cache *schedulerCache) run() -- ``go wait.Until(cleanup, period, stop)``

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L346-L348
        """
        sim.go(
            wait.until,
            self._cleanup_expired_assumed_pods,
            self._period,
            self._stop,
            name="schedulercache.cleanupExpiredAssumedPods",
        )

    def _cleanup_expired_assumed_pods(self) -> None:
        """Go: func (cache *schedulerCache) cleanupExpiredAssumedPods()

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L350-L352
        """
        self._cleanup_assumed_pods(sim.now())

    def _cleanup_assumed_pods(self, now: float) -> None:
        """Expire every assumed pod whose binding finished and whose deadline is before ``now``.

        A pod whose binding is still in flight is skipped with a warning, every second.

        Go: func (cache *schedulerCache) cleanupAssumedPods(now time.Time)
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L354-L377
        """
        with self._mu:
            for key in builtins.list(self._assumed_pods):
                ps = self._pod_states.get(key)
                if ps is None:
                    raise GoPanic(
                        "Key found in assumed set but not in podStates. Potentially a logical error."
                    )
                if not ps.binding_finished:
                    glog.warningf(
                        "Couldn't expire cache for pod %v/%v. Binding is still in progress.",
                        ps.pod.metadata.namespace,
                        ps.pod.metadata.name,
                    )
                    continue
                if ps.deadline is None:  # Go: *ps.deadline on a nil pointer
                    raise NilPointerDereference()
                if now > ps.deadline:  # Go: now.After(*ps.deadline)
                    glog.warningf("Pod %s/%s expired", ps.pod.metadata.namespace, ps.pod.metadata.name)
                    try:
                        self._expire_pod(key, ps)
                    except CacheError as err:
                        glog.errorf("ExpirePod failed for %s: %v", key, err)

    def _expire_pod(self, key: str, ps: _PodState) -> None:
        """Go: func (cache *schedulerCache) expirePod(key string, ps *podState) error

        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L379-L386
        """
        self._remove_pod(ps.pod)
        del self._assumed_pods[key]
        del self._pod_states[key]

    def list(self, selector: Selector) -> builtins.list[Pod]:  # noqa: A003 - Go's method name
        """Every cached pod (assumed ones too) whose labels match.

        Go: func (cache *schedulerCache) List(selector labels.Selector) ([]*v1.Pod, error)
        https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L95-L107
        """
        with self._mu:
            pods: builtins.list[Pod] = []
            for info in self._nodes.values():
                for pod in info.pods():
                    if selector.matches(pod.metadata.labels):
                        pods.append(pod)
            return pods


def _new_scheduler_cache(ttl: float, period: float, stop: sim.Chan | None) -> SchedulerCache:
    """Build the cache without starting the sweep (tests drive ``_cleanup_assumed_pods``).

    Go: func newSchedulerCache(ttl, period time.Duration, stop <-chan struct{}) *schedulerCache
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/schedulercache/cache.go#L67-L77
    """
    return SchedulerCache(stop=stop, ttl=ttl, period=period)

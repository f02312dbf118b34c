"""A fast path for SelectorSpreadPriority's walk over every pod, installed beside the mirror.

Go: none — kschedlearn-only (issue 13, item 1: remove Python-only overheads of the mirror). The
mirror, ``selector_spreading.SelectorSpread.calculate_spread_priority``, keeps Go's statements:
for every pod of every candidate node it asks each selector ``selector.matches(labels)``. At
1,000 nodes / 30,000 pods that is 30,000 Python calls per scheduled pod, and the call (method
lookup, the equality fast path's own checks) costs more than the two dictionary tests that
decide it. Its text is untouched.

What this module does: :func:`install` (called through ``kschedlearn.accelerated.fast_paths``
by the simulations and benchmarks that want it, never at import) puts :func:`fast_calculate_spread_priority` in the
class's slot (the mirror stays reachable as ``__wrapped__``, so ``inspect.getsource`` and the
trace layer's ``inspect.unwrap`` still find the mirror's own lines). When every selector of the
pod is an equality-only ``InternalSelector`` (Services, RCs, most ReplicaSets) it counts the
matching pods with the same tests inline — namespace, deletion timestamp, then for each selector
"every key present with one of its values", the verdict of ``fast_selector.fast_matches`` and of
Go's ``Requirement.Matches`` for ``=``/``==``/``in`` — and then scores with the mirror's float32
statements, copied below in the mirror's order. The scores are the mirror's: the Go test tables
of ``tests/scheduler/algorithm/priorities`` run through it, and
``tests/scheduler/algorithm/priorities/test_fast_spread.py`` compares it with the mirror on
random clusters (Hypothesis).

Standing down (the mirror runs instead, every statement of it):

- a learner's code is in a slot it relies on: ``InternalSelector.matches`` is not the equality
  fast path or ``Requirement.matches`` is not the mirror's (exercise 2.1); when exercise 7.4 or
  11.1 swaps ``calculate_spread_priority`` itself this function is simply not called;
- a profiler is running (``sys.getprofile()``): the scale notebook and its questions count the
  ``matches`` calls of one scheduling cycle, by caller, under ``cProfile`` — a lesson about the
  mirror.

A selector that is not equality-only (a ReplicaSet's ``NotIn``/``Exists``) is asked through
``selector.matches`` as in the mirror, in the same order.
"""

from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING, Any

from kschedlearn.accelerated import fast_selector
from kschedlearn.apimachinery.labels.selector import InternalSelector, Requirement
from kschedlearn.scheduler.algorithm.priorities import selector_spreading as ss
from kschedlearn.scheduler.api.types import HostPriority
from kschedlearn.scheduler.schedulercache import node_info as ni
from kschedlearn.sim.runtime import current_goroutine

if TYPE_CHECKING:
    from kschedlearn.api.v1 import Node, Pod
    from kschedlearn.scheduler.schedulercache.node_info import NodeInfo

#: the mirrored method, as selector_spreading defines it
MIRROR_CALCULATE_SPREAD_PRIORITY = ss.SelectorSpread.calculate_spread_priority
#: how the source pane names what ran in the mirror's place
FAST_PATH_NAME = ("kschedlearn's fast path ran in place of SelectorSpread.CalculateSpreadPriority's walk over "
                  "every pod (same scores: kschedlearn/accelerated/fast_spread.py)")

_Terms = tuple[tuple[str, tuple[str, ...]], ...]


def selector_terms(selectors: list[Any]) -> list[_Terms] | None:
    """Each selector's ``(key, values)`` pairs, or None when one is not equality-only."""
    out = []
    for selector in selectors:
        if type(selector) is not InternalSelector:
            return None
        terms = fast_selector.equality_terms(selector)
        if terms is None:
            return None
        out.append(terms)
    return out


def count_pods(namespace: str, all_terms: list[_Terms], pods: list[Pod]) -> int:
    """How many of ``pods`` the mirror's loop counts for equality-only selectors (their terms).

    kschedlearn-only; the accelerated engine's recount of one changed node uses it too.
    """
    count = 0
    for node_pod in pods:
        meta = node_pod.metadata
        if namespace != meta.namespace or meta.deletion_timestamp is not None:
            continue
        labels = meta.labels
        for terms in all_terms:
            for key, values in terms:
                if key not in labels or labels[key] not in values:
                    break
            else:  # every requirement held: this selector matches
                count += 1
                break
    return count


def _counts(namespace: str, all_terms: list[_Terms], node_name_to_info: dict[str, NodeInfo],
            nodes: list[Node]) -> list[int]:
    """Per node (in ``nodes`` order) the number of pods the mirror's loop counts."""
    get = node_name_to_info.get
    return [count_pods(namespace, all_terms, ni.pods(get(node.metadata.name))) for node in nodes]


def _counts_calling_matches(namespace: str, selectors: list[Any], node_name_to_info: dict[str, NodeInfo],
                            nodes: list[Node]) -> list[int]:
    """The same counts for selectors that are not all equality-only: ``matches`` as the mirror asks it."""
    out = []
    for node in nodes:
        count = 0
        for node_pod in ni.pods(node_name_to_info.get(node.metadata.name)):
            meta = node_pod.metadata
            if namespace != meta.namespace or meta.deletion_timestamp is not None:
                continue
            for selector in selectors:
                if selector.matches(meta.labels):
                    count += 1
                    break
        out.append(count)
    return out


def note_fast_path(name: str) -> None:
    """Tell the calling simulation's observation (if any) that ``name`` ran in the mirror's place:
    the source pane says so at the next stop."""
    g = current_goroutine()
    observation = g.runtime.observation if g is not None else None
    if observation is not None:
        observation.fast_paths_ran.append(name)


def stand_down() -> bool:
    """Whether the mirror must run itself (see the module docstring)."""
    return (sys.getprofile() is not None
            or InternalSelector.matches is not fast_selector.fast_matches
            or Requirement.matches is not fast_selector.MIRROR_REQUIREMENT_MATCHES)


@functools.wraps(MIRROR_CALCULATE_SPREAD_PRIORITY)
def fast_calculate_spread_priority(self: ss.SelectorSpread, pod: Pod, node_name_to_info: dict[str, NodeInfo],
                                   nodes: list[Node]) -> list[HostPriority]:
    """``SelectorSpread.calculate_spread_priority`` with the walk inlined (kschedlearn-only)."""
    if stand_down():
        return MIRROR_CALCULATE_SPREAD_PRIORITY(self, pod, node_name_to_info, nodes)
    note_fast_path(FAST_PATH_NAME)
    selectors = self._get_selectors(pod)  # noqa: SLF001 - the mirror's own first statement

    # The mirror's count loop, with float32 counts (integers below 2**24 are float32 values).
    f32 = ss._f32  # noqa: SLF001
    counts_by_node_name: dict[str, float] = {}
    counts_by_zone: dict[str, float] = {}
    max_count_by_node_name = f32(0.0)
    if len(selectors) > 0:
        namespace = pod.metadata.namespace
        all_terms = selector_terms(selectors)
        if all_terms is not None:
            counts = _counts(namespace, all_terms, node_name_to_info, nodes)
        else:
            counts = _counts_calling_matches(namespace, selectors, node_name_to_info, nodes)
        for node, n in zip(nodes, counts):
            # the mirror's float32 count++ stops growing at 2**24 (2**24 + 1 rounds back down)
            count = float(n) if n < ss._F32_EXACT else ss._F32_EXACT  # noqa: SLF001
            zone_id = ss.get_zone_key(node)
            counts_by_node_name[node.metadata.name] = count
            if count > max_count_by_node_name:
                max_count_by_node_name = count
            if zone_id != "":
                counts_by_zone[zone_id] = f32(counts_by_zone.get(zone_id, 0.0) + count)

    # From here on the mirror's statements, unchanged (selector_spreading.py).
    have_zones = len(counts_by_zone) != 0
    max_count_by_zone = f32(0.0)
    for count in counts_by_zone.values():
        if count > max_count_by_zone:
            max_count_by_zone = count

    result: list[HostPriority] = []
    for node in nodes:
        node_name = node.metadata.name
        f_score = ss.MAX_PRIORITY
        if max_count_by_node_name > 0:
            share = f32((max_count_by_node_name - counts_by_node_name.get(node_name, 0.0)) / max_count_by_node_name)
            f_score = f32(ss.MAX_PRIORITY * share)

        if have_zones:
            zone_id = ss.get_zone_key(node)
            if zone_id != "":
                zone_score = f32(ss.MAX_PRIORITY * ss._zone_share(max_count_by_zone, counts_by_zone[zone_id]))  # noqa: SLF001
                f_score = f32(f32(f_score * ss._ONE_MINUS_ZONE_WEIGHTING) + f32(ss.ZONE_WEIGHTING * zone_score))  # noqa: SLF001

        result.append(HostPriority(host=node_name, score=ss._go_int(f_score)))  # noqa: SLF001
    return result


def install() -> None:
    """Put the fast path in ``SelectorSpread.calculate_spread_priority``'s slot (kschedlearn-only)."""
    ss.SelectorSpread.calculate_spread_priority = fast_calculate_spread_priority  # type: ignore[method-assign]


def uninstall() -> None:
    """Put the mirror back (kschedlearn-only)."""
    ss.SelectorSpread.calculate_spread_priority = MIRROR_CALCULATE_SPREAD_PRIORITY  # type: ignore[method-assign]


def installed() -> bool:
    """Whether the fast path is in place (kschedlearn-only)."""
    return ss.SelectorSpread.calculate_spread_priority is fast_calculate_spread_priority

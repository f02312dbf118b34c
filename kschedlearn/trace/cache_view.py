"""The scheduler cache's debug view: the plain data the trace layer stores, and the interface
a cache offers it through.

Go: none — kschedlearn-only. The trace layer defines what it needs from a scheduler cache
(:class:`CacheDebugSource`: a ``debug_state()`` returning a :class:`CacheDebugState`) and the
frozen values of that picture; ``schedulercache.cache.SchedulerCache`` implements it. So
``trace/snapshot.py`` depends on this module, never on the scheduler cache.
"""

from __future__ import annotations

from typing import Any, Protocol

import attrs

from kschedlearn.trace.chunks import Chunks


class CacheDebugSource(Protocol):
    """What a snapshot needs of a scheduler cache (``SchedulerCache`` implements it)."""

    def debug_state(self) -> CacheDebugState:
        """A frozen, read-only picture of the cache; must not block (no lock)."""
        ...


@attrs.frozen
class ResourceSnapshot:
    """A frozen copy of a ``Resource`` (kschedlearn-only, not in Go)."""

    milli_cpu: int
    memory: int
    nvidia_gpu: int
    opaque_int_resources: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, r: Any) -> ResourceSnapshot:
        """Freeze ``r`` (a ``schedulercache.Resource``): one shared value per distinct content
        (at a snapshot per event a changed NodeInfo's view is made anew, its three resources
        mostly seen before: sharing them spares the allocations and the collector's walks)."""
        opaque = r.opaque_int_resources
        key = (r.milli_cpu, r.memory, r.nvidia_gpu, tuple(sorted(opaque.items())) if opaque else ())
        view = _RESOURCE_SNAPSHOTS.get(key)
        if view is None:
            if len(_RESOURCE_SNAPSHOTS) >= _RESOURCE_SNAPSHOTS_MAX:
                _RESOURCE_SNAPSHOTS.clear()
            view = _RESOURCE_SNAPSHOTS[key] = cls(*key)
        return view


#: ResourceSnapshot.of's shared values, by content (cleared when it grows past the bound)
_RESOURCE_SNAPSHOTS: dict[tuple[Any, ...], ResourceSnapshot] = {}
_RESOURCE_SNAPSHOTS_MAX = 1 << 16


@attrs.frozen
class NodeDebugState:
    """One NodeInfo as plain data (kschedlearn-only, not in Go)."""

    name: str
    has_node: bool
    requested: ResourceSnapshot
    nonzero_request: ResourceSnapshot
    allocatable: ResourceSnapshot
    allowed_pod_number: int
    pods: tuple[str, ...]
    generation: int


@attrs.frozen
class PodDebugState:
    """One stored pod state: assumed or added, with its expiry (kschedlearn-only, not in Go)."""

    key: str
    node_name: str
    assumed: bool
    deadline: float | None
    binding_finished: bool


@attrs.frozen
class CacheDebugState:
    """The whole cache as plain data (kschedlearn-only, not in Go)."""

    ttl: float
    # tuples, or Chunks (equal to the tuple of their elements) when kept from the cache's
    # changes (observe/indexes.py): consecutive snapshots share their unchanged chunks
    nodes: tuple[NodeDebugState, ...] | Chunks[NodeDebugState]
    pod_states: tuple[PodDebugState, ...] | Chunks[PodDebugState]

    @property
    def assumed_pods(self) -> tuple[PodDebugState, ...]:
        """The assumed pods only, with deadline and binding_finished."""
        return tuple(p for p in self.pod_states if p.assumed)

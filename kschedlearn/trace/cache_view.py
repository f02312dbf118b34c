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
        """Freeze ``r`` (a ``schedulercache.Resource``)."""
        return cls(r.milli_cpu, r.memory, r.nvidia_gpu, tuple(sorted(r.opaque_int_resources.items())))


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

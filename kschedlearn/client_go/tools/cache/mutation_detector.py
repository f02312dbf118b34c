"""The cache mutation detector (a debugging aid that is off by default).

Go: staging/src/k8s.io/client-go/tools/cache/mutation_detector.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/client-go/tools/cache/mutation_detector.go

Go enables a real detector only when the environment variable ``KUBE_CACHE_MUTATION_DETECTOR``
is ``true``; otherwise every informer gets the do-nothing ``dummyMutationDetector``.

Differs from Go: only the dummy exists. Cached objects here are frozen attrs values, so the
mutation the detector hunts for cannot happen.
"""

from __future__ import annotations

from typing import Any, Protocol

import attrs

from kschedlearn.sim import Chan


class CacheMutationDetector(Protocol):
    """Go: mutation_detector.go ``type CacheMutationDetector interface``."""

    def add_object(self, obj: Any) -> None: ...
    def run(self, stop_ch: Chan) -> None: ...


@attrs.define(eq=False)
class DummyMutationDetector:
    """Go: mutation_detector.go ``dummyMutationDetector`` - does nothing."""

    def run(self, stop_ch: Chan) -> None:
        """Go: ``dummyMutationDetector.Run``."""

    def add_object(self, obj: Any) -> None:
        """Go: ``dummyMutationDetector.AddObject``."""


def new_cache_mutation_detector(name: str) -> CacheMutationDetector:
    """Go: mutation_detector.go ``NewCacheMutationDetector`` (always the dummy here)."""
    return DummyMutationDetector()

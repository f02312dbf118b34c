"""Shared by the collector-policy tests (``test_gc_policy.py``, ``test_frozen_heap.py``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _collector_as_found() -> Iterator[None]:
    """Each test leaves the cyclic collector as it found it (enabled or not, its thresholds):
    the tests turn it off and change its thresholds on purpose."""
    enabled, threshold = gc.isenabled(), gc.get_threshold()
    yield
    gc.set_threshold(*threshold)
    (gc.enable if enabled else gc.disable)()

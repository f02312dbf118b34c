"""The accelerated engine: the mirror's placements, scores, messages and trace, with less work.

kschedlearn-only, opt-in, and beside the mirror (nothing in ``kschedlearn/scheduler`` knows
about it): ``Simulation.from_scenario(..., engine="accelerated")``, ``kschedlearn kube-scheduler
--engine=accelerated`` and ``benchmarks/bench_scheduler.py --engine accelerated`` swap the
``GenericScheduler`` that ``CreateFromKeys`` built for an :class:`AcceleratedScheduler` over the
same cache, predicates and priorities. Design: ``docs/accelerated-engine.md``.
"""

from __future__ import annotations

from typing import Any

from kschedlearn.accelerated.generic_scheduler import AcceleratedScheduler, accelerate, equivalence_key

ENGINES = ("mirrored", "accelerated")

__all__ = ["ENGINES", "AcceleratedScheduler", "accelerate", "accelerate_config", "create_from_provider_accelerated",
           "equivalence_key"]


def accelerate_config(config: Any) -> Any:
    """Swap ``config.algorithm`` (a scheduler.Config) for the accelerated engine; returns config."""
    config.algorithm = accelerate(config.algorithm)
    return config


def create_from_provider_accelerated(factory: Any, provider_name: str) -> Any:
    """``factory.create_from_provider(provider_name)`` with the accelerated engine."""
    return accelerate_config(factory.create_from_provider(provider_name))

"""Port of plugin/pkg/scheduler/algorithmprovider/plugins_test.go (v1.6.1).

Go: https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithmprovider/plugins_test.go
"""

from __future__ import annotations

import pytest

from kschedlearn.scheduler.algorithmprovider.defaults import CLUSTER_AUTOSCALER_PROVIDER, register_defaults
from kschedlearn.scheduler.algorithmprovider.plugins import ensure_registered
from kschedlearn.scheduler.factory import plugins as factory

ALGORITHM_PROVIDER_NAMES = [factory.DEFAULT_PROVIDER, CLUSTER_AUTOSCALER_PROVIDER]


@pytest.fixture(scope="module")
def reg():
    registry = factory.new_plugin_registry()
    register_defaults(registry=registry)
    return registry


def test_default_config_exists(reg):
    p = factory.get_algorithm_provider(factory.DEFAULT_PROVIDER, registry=reg)
    assert p is not None
    assert len(p.fit_predicate_keys) != 0


@pytest.mark.parametrize("pn", ALGORITHM_PROVIDER_NAMES)
def test_algorithm_providers(reg, pn):
    p = factory.get_algorithm_provider(pn, registry=reg)
    assert len(p.priority_function_keys) != 0
    for pf in sorted(p.priority_function_keys):
        assert factory.is_priority_function_registered(pf, registry=reg), (
            f"priority function {pf} is not registered but is used in the {pn} algorithm provider"
        )
    for fp in sorted(p.fit_predicate_keys):
        assert factory.is_fit_predicate_registered(fp, registry=reg), (
            f"fit predicate {fp} is not registered but is used in the {pn} algorithm provider"
        )


def test_ensure_registered_returns_the_default_registry_with_defaults():
    assert ensure_registered() is factory.default_registry()
    assert factory.get_algorithm_provider(factory.DEFAULT_PROVIDER) is not None
    explicit = factory.new_plugin_registry()
    assert ensure_registered(explicit) is explicit

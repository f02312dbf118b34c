"""Links the default provider into the scheduler.

Go: plugin/pkg/scheduler/algorithmprovider/plugins.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/plugin/pkg/scheduler/algorithmprovider/plugins.go

In 1.6 this Go file holds only a blank import of ``algorithmprovider/defaults``: importing it is
what runs ``defaults.init()`` and fills the registry. (``ApplyFeatureGates`` arrived later; 1.6
has none.)

Differs from Go: registration is explicit (see ``kschedlearn.scheduler.factory.plugins``).
The default registry registers the defaults on first use anyway; :func:`ensure_registered`
makes that moment visible — the server calls it where Go's import would have taken effect.
"""

from __future__ import annotations

from typing import Optional

from kschedlearn.scheduler.algorithmprovider.defaults import defaults  # noqa: F401  (Go: blank import)
from kschedlearn.scheduler.factory import plugins as factory


def ensure_registered(registry: Optional[factory.PluginRegistry] = None) -> factory.PluginRegistry:
    """Return ``registry`` (or the default registry, created with its defaults if needed).

    Not in Go: the effect of the blank import, made an explicit call.
    """
    return registry if registry is not None else factory.default_registry()

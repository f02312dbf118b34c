"""One client per controller, each with its own rate limiter.

Go: pkg/controller/client_builder.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/client_builder.go#L53-L102

``ClientOrDie(name)`` builds a fresh clientset from the manager's config: in 1.6 every
controller gets its own token bucket of ``--kube-api-qps`` (20) and ``--kube-api-burst`` (30).

Differs from Go: the "config" is the embedded API server plus QPS and burst (the user agent
``name`` has nothing to identify here); only the simple builder is mirrored (the service-account
one needs tokens the simulation does not issue).
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class ClientConfig:
    """The parts of ``restclient.Config`` a controller's client needs.

    kschedlearn-only stand-in for ``restclient.Config``."""

    server: Any
    qps: float
    burst: int


@attrs.define(eq=False)
class SimpleControllerClientBuilder:
    """Go: ``SimpleControllerClientBuilder`` — client_builder.go#L53-L57."""

    client_config: ClientConfig

    def config(self, name: str) -> ClientConfig:
        """Go: ``Config`` — client_builder.go#L59-L62 (the user agent is not modelled)."""
        return self.client_config

    def client(self, name: str) -> Any:
        """A new clientset with its own rate limiter. Go: ``Client`` — client_builder.go#L72-L78."""
        from kschedlearn.apiserver.clientset import new_for_server  # noqa: PLC0415 - the clientset stand-in
        from kschedlearn.client_go.util.flowcontrol.throttle import new_token_bucket_rate_limiter

        client_config = self.config(name)
        limiter = new_token_bucket_rate_limiter(float(client_config.qps), int(client_config.burst))
        return new_for_server(client_config.server, rate_limiter=limiter)

    def client_or_die(self, name: str) -> Any:
        """Go: ``ClientOrDie`` — client_builder.go#L80-L86."""
        return self.client(name)


__all__ = ["ClientConfig", "SimpleControllerClientBuilder"]

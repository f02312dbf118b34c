"""The HTTP face of the embedded API server: the Kubernetes REST API as 1.6 spoke it (JSON).

Go: none — kschedlearn-only. It plays the part of kube-apiserver's generic REST handlers
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go)
and discovery
(https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apiserver/pkg/endpoints/discovery.go)
in front of :class:`kschedlearn.apiserver.APIServer`, so that ``kubectl`` and the official
Kubernetes Python client can drive a simulation.

The package is split so that the simulation stays deterministic:

- :mod:`.handler` turns one :class:`~.types.RestRequest` into one :class:`~.types.Response`
  against an API server. It is a plain function of the server's state; a *mutating* request is
  applied by the simulation as a recorded external action (so replays repeat it exactly).
- :mod:`.httpserver` is the only threaded part: it accepts connections on 127.0.0.1, checks the
  bearer token and hands each request to the simulation's thread, which answers it.
- :mod:`.discovery`, :mod:`.tables` and :mod:`.patch` are the pieces kubectl needs beyond 1.6
  (server-side ``Table`` printing, strategic-merge patches) — documented kschedlearn extensions.
"""

from kschedlearn.apiserver.rest.handler import RestHandler
from kschedlearn.apiserver.rest.types import RestRequest, Response

__all__ = ["RestHandler", "RestRequest", "Response"]

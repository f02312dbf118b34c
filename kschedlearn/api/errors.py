"""Errors raised while turning manifests (dicts / YAML) into API objects.

Go: there is no single Go twin; this plays the role of the decoding errors that
``k8s.io/apimachinery/pkg/runtime`` and ``encoding/json`` return when a manifest
does not fit the Go struct, e.g.
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go

Differs from Go: Go's messages name the Go type and byte offset ("cannot unmarshal
string into Go value of type int32"); ours name the object and the field path, which
is what a learner editing a scenario file needs.
"""

from __future__ import annotations

__all__ = ["ManifestError"]


class ManifestError(ValueError):
    """A manifest could not be decoded into an API object.

    Built as ``ManifestError(obj, path, msg, source="")``; ``str(err)`` joins the
    non-empty parts with ``": "``::

        scenario.yaml: document 2: Pod default/web-1: spec.containers[0].resources.requests.cpu: invalid quantity "12Q"

    Attributes:
        obj: ``"Kind ns/name"``, ``"Kind name"`` (no namespace) or ``"Kind <unnamed>"``;
            may be empty when the error is not about one object (a YAML syntax error).
        path: dotted field path inside the object (``spec.containers[0].ports[1].hostPort``),
            empty when the error concerns the whole object.
        msg: what is wrong.
        source: where the object came from (file name and document index), may be empty.

    Go: no direct twin (see the module docstring).
    """

    def __init__(self, obj: str, path: str, msg: str, *, source: str = "") -> None:
        self.obj = obj
        self.path = path
        self.msg = msg
        self.source = source
        super().__init__(": ".join(p for p in (source, obj, path, msg) if p))

    def with_source(self, source: str) -> "ManifestError":
        """Return a copy whose message is prefixed with ``source`` (outermost first)."""
        combined = ": ".join(p for p in (source, self.source) if p)
        return ManifestError(self.obj, self.path, self.msg, source=combined)

"""The collector's error for an ownerReference to a kind it cannot map to a resource.

Go: pkg/controller/garbagecollector/errors.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/controller/garbagecollector/errors.go
"""

from __future__ import annotations

from kschedlearn.trace.gofmt import sprintf

NON_CORE_MESSAGE = (
    "If %s is a non-core resource (e.g. thirdparty resource, custom resource from aggregated apiserver), please "
    "note that the garbage collector doesn't support non-core resources yet. Once they are supported, object with "
    "ownerReferences referring non-existing non-core objects will be deleted by the garbage collector.")
"""Go: ``nonCoreMessage`` — errors.go#L23."""


class RestMappingError(Exception):
    """Go: ``restMappingError`` — errors.go#L25-L28 (``Error`` #L30-L33, ``Message`` #L36-L42)."""

    def __init__(self, kind: str, version: str) -> None:
        self.kind = kind
        self.version = version
        super().__init__(sprintf("unable to get REST mapping for %s.", sprintf("%s/%s", version, kind)))

    def message(self) -> str:
        """The error with the advice 1.6 logs. Go: ``(*restMappingError).Message`` — errors.go#L35-L42."""
        version_kind = sprintf("%s/%s", self.version, self.kind)
        err_msg = sprintf("unable to get REST mapping for %s. ", version_kind)
        err_msg += sprintf(NON_CORE_MESSAGE, version_kind)
        err_msg += sprintf(" If %s is an invalid resource, then you should manually remove ownerReferences that "
                           "refer %s objects.", version_kind, version_kind)
        return err_msg


def new_rest_mapping_error(kind: str, version: str) -> RestMappingError:
    """Go: ``newRESTMappingError`` — errors.go#L44-L46."""
    return RestMappingError(kind, version)


__all__ = ["NON_CORE_MESSAGE", "RestMappingError", "new_rest_mapping_error"]

"""Go: ``pkg/api/validation`` — what the API server checks before it stores an object.

https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/api/validation
"""

from kschedlearn.api.validation.validation import validate_object, validate_object_update

__all__ = ["validate_object", "validate_object_update"]

"""API status errors: the errors an API server answers with (NotFound, Conflict, Gone, ...).

Go: ``k8s.io/apimachinery/pkg/api/errors/errors.go`` (StatusError, New*, Is*) and the
``metav1.Status`` type it carries,
https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go

Differs from Go: Go has one ``StatusError`` type told apart by ``Reason``; here every reason
also has a subclass (``NotFoundError``, ``ConflictError``, ...) so Python code can ``except``
the one it expects. The ``is_*`` predicates work either way. ``Status`` lives here rather than
in ``apis/meta/v1`` because only errors and watch ERROR events use it in kschedlearn.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

__all__ = [
    "StatusCause",
    "AlreadyExistsError", "BadRequestError", "ConflictError", "ForbiddenError", "GoneError",
    "GroupResource", "InternalError", "InvalidError", "MethodNotAllowedError", "NotFoundError",
    "ServerTimeoutError", "ServiceUnavailableError", "Status", "StatusDetails", "StatusError",
    "TooManyRequestsError", "from_object", "is_already_exists", "is_bad_request", "is_conflict",
    "is_gone", "is_internal_error", "is_invalid", "is_not_found", "is_server_timeout",
    "is_service_unavailable", "new_already_exists", "new_bad_request", "new_conflict",
    "new_gone", "new_internal_error", "new_invalid", "new_not_found", "new_server_timeout",
    "new_service_unavailable", "new_too_many_requests", "reason_for_error",
]

STATUS_SUCCESS = "Success"
STATUS_FAILURE = "Failure"

# Reasons (Go: metav1.StatusReason* constants in apis/meta/v1/types.go).
REASON_UNKNOWN = ""
REASON_NOT_FOUND = "NotFound"
REASON_ALREADY_EXISTS = "AlreadyExists"
REASON_CONFLICT = "Conflict"
REASON_GONE = "Gone"
REASON_INVALID = "Invalid"
REASON_BAD_REQUEST = "BadRequest"
REASON_INTERNAL_ERROR = "InternalError"
REASON_SERVER_TIMEOUT = "ServerTimeout"
REASON_SERVICE_UNAVAILABLE = "ServiceUnavailable"
REASON_TOO_MANY_REQUESTS = "TooManyRequests"
REASON_METHOD_NOT_ALLOWED = "MethodNotAllowed"
REASON_FORBIDDEN = "Forbidden"


@attrs.frozen
class GroupResource:
    """A resource qualified by its API group; ``str()`` is ``pods`` or ``replicasets.extensions``.

    Go: schema.GroupResource (String method),
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/runtime/schema/group_version.go#L39-L44
    """

    group: str
    resource: str

    def __str__(self) -> str:
        return self.resource if not self.group else f"{self.resource}.{self.group}"


@attrs.frozen(kw_only=True)
class StatusCause:
    """One reason a request failed, e.g. one field error of an Invalid. Go: metav1.StatusCause
    (``type`` is written as ``reason``, as Go's JSON tag says)."""

    type: str = ""
    message: str = ""
    field: str = ""


@attrs.frozen(kw_only=True)
class StatusDetails:
    """Which object a failure is about. Go: metav1.StatusDetails."""

    name: str = ""
    group: str = ""
    kind: str = ""
    causes: tuple[StatusCause, ...] = ()
    retry_after_seconds: int = 0


@attrs.frozen(kw_only=True)
class Status:
    """The body of every non-2xx API answer, and the object of a watch ERROR event.

    Go: metav1.Status,
    https://github.com/kubernetes/kubernetes/blob/v1.6.1/staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go#L373-L404
    """

    kind: ClassVar[str] = "Status"
    api_version: ClassVar[str] = "v1"

    status: str = STATUS_FAILURE
    message: str = ""
    reason: str = REASON_UNKNOWN
    details: StatusDetails | None = None
    code: int = 0

    def to_dict(self) -> dict[str, object]:
        """Manifest form, as ``kubectl`` would print the Status."""
        d: dict[str, object] = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": self.status}
        # Go's json tags: message, reason and details are omitempty (a nil *StatusDetails is left out)
        d.update({k: v for k, v in (("message", self.message), ("reason", self.reason)) if v})
        if self.details is not None:
            d["details"] = {k: v for k, v in (("name", self.details.name),
                                              ("group", self.details.group),
                                              ("kind", self.details.kind)) if v}
            if self.details.causes:
                d["details"]["causes"] = [{k: v for k, v in (("reason", c.type), ("message", c.message),
                                                             ("field", c.field)) if v} for c in self.details.causes]
            if self.details.retry_after_seconds:
                d["details"]["retryAfterSeconds"] = self.details.retry_after_seconds
        d["code"] = self.code
        return d


class StatusError(Exception):
    """An error carrying an API ``Status``; ``str(err)`` is the status message.

    Go: errors.StatusError (``ErrStatus`` field, ``Error()`` = message, ``Status()``).
    """

    default_reason: ClassVar[str] = REASON_UNKNOWN
    default_code: ClassVar[int] = 500

    def __init__(self, status: Status) -> None:
        super().__init__(status.message)
        self.err_status = status

    def status(self) -> Status:
        """Go: StatusError.Status()."""
        return self.err_status

    @property
    def reason(self) -> str:
        return self.err_status.reason

    @property
    def code(self) -> int:
        return self.err_status.code

    @property
    def message(self) -> str:
        return self.err_status.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.err_status.code}, {self.err_status.message!r})"


class NotFoundError(StatusError):
    """A StatusError with reason ``StatusReasonNotFound`` (404).

    Go: errors.StatusError with metav1.StatusReasonNotFound; tested with errors.IsNotFound.
    Differs from Go: one subclass per reason, so Python code can ``except`` it.
    """
    default_reason, default_code = REASON_NOT_FOUND, 404


class AlreadyExistsError(StatusError):
    """A StatusError with reason ``StatusReasonAlreadyExists`` (409).

    Go: errors.StatusError with metav1.StatusReasonAlreadyExists; tested with errors.IsAlreadyExists.
    Differs from Go: one subclass per reason, so Python code can ``except`` it.
    """
    default_reason, default_code = REASON_ALREADY_EXISTS, 409


class ConflictError(StatusError):
    """A StatusError with reason ``StatusReasonConflict`` (409).

    Go: errors.StatusError with metav1.StatusReasonConflict; tested with errors.IsConflict.
    Differs from Go: one subclass per reason, so Python code can ``except`` it.
    """
    default_reason, default_code = REASON_CONFLICT, 409


class GoneError(StatusError):
    """A StatusError with reason ``StatusReasonGone`` (410).

    Go: errors.StatusError with metav1.StatusReasonGone; tested with errors.IsGone.
    Differs from Go: one subclass per reason, so Python code can ``except`` it.
    """
    default_reason, default_code = REASON_GONE, 410


class InvalidError(StatusError):
    """A StatusError with reason ``StatusReasonInvalid`` (422).

    Go: errors.StatusError with metav1.StatusReasonInvalid; tested with errors.IsInvalid.
    Differs from Go: one subclass per reason, so Python code can ``except`` it.
    """
    default_reason, default_code = REASON_INVALID, 422


class BadRequestError(StatusError):
    """A StatusError with reason ``StatusReasonBadRequest`` (400).

    Go: errors.StatusError with metav1.StatusReasonBadRequest; tested with errors.IsBadRequest.
    Differs from Go: one subclass per reason, so Python code can ``except`` it.
    """
    default_reason, default_code = REASON_BAD_REQUEST, 400


class InternalError(StatusError):
    """A StatusError with reason ``StatusReasonInternalError`` (500).

    Go: errors.StatusError with metav1.StatusReasonInternalError; tested with errors.IsInternalError.
    Differs from Go: one subclass per reason, so Python code can ``except`` it.
    """
    default_reason, default_code = REASON_INTERNAL_ERROR, 500


class ServerTimeoutError(StatusError):
    """A StatusError with reason ``StatusReasonServerTimeout`` (500).

    Go: errors.StatusError with metav1.StatusReasonServerTimeout; tested with errors.IsServerTimeout.
    Differs from Go: one subclass per reason, so Python code can ``except`` it.
    """
    default_reason, default_code = REASON_SERVER_TIMEOUT, 500


class ServiceUnavailableError(StatusError):
    """A StatusError with reason ``StatusReasonServiceUnavailable`` (503).

    Go: errors.StatusError with metav1.StatusReasonServiceUnavailable; tested with errors.IsServiceUnavailable.
    Differs from Go: one subclass per reason, so Python code can ``except`` it.
    """
    default_reason, default_code = REASON_SERVICE_UNAVAILABLE, 503


class TooManyRequestsError(StatusError):
    """A StatusError with reason ``StatusReasonTooManyRequests`` (429).

    Go: errors.StatusError with metav1.StatusReasonTooManyRequests; tested with errors.IsTooManyRequests.
    Differs from Go: one subclass per reason, so Python code can ``except`` it.
    """
    default_reason, default_code = REASON_TOO_MANY_REQUESTS, 429


class MethodNotAllowedError(StatusError):
    """A StatusError with reason ``StatusReasonMethodNotAllowed`` (405).

    Go: errors.StatusError with metav1.StatusReasonMethodNotAllowed; tested with errors.IsMethodNotSupported.
    Differs from Go: one subclass per reason, so Python code can ``except`` it.
    """
    default_reason, default_code = REASON_METHOD_NOT_ALLOWED, 405


class ForbiddenError(StatusError):
    """A StatusError with reason ``StatusReasonForbidden`` (403).

    Go: errors.StatusError with metav1.StatusReasonForbidden; tested with errors.IsForbidden.
    Differs from Go: one subclass per reason, so Python code can ``except`` it.
    """
    default_reason, default_code = REASON_FORBIDDEN, 403


_BY_REASON: dict[str, type[StatusError]] = {
    cls.default_reason: cls
    for cls in (NotFoundError, AlreadyExistsError, ConflictError, GoneError, InvalidError,
                BadRequestError, InternalError, ServerTimeoutError, ServiceUnavailableError,
                TooManyRequestsError, MethodNotAllowedError, ForbiddenError)
}


def _make(cls: type[StatusError], message: str, qualified: GroupResource | None = None,
          name: str = "", kind: str = "") -> StatusError:
    details = None
    if qualified is not None or name or kind:
        details = StatusDetails(name=name, group=qualified.group if qualified else "",
                                kind=kind or (qualified.resource if qualified else ""))
    return cls(Status(message=message, reason=cls.default_reason, details=details,
                      code=cls.default_code))


def from_object(status: Status) -> StatusError:
    """Turn a Status (e.g. from a watch ERROR event) back into the matching error.

    Go: errors.FromObject.
    """
    return _BY_REASON.get(status.reason, StatusError)(status)


def new_not_found(qualified: GroupResource, name: str) -> StatusError:
    """Go: errors.NewNotFound — ``pods "web-1" not found``."""
    return _make(NotFoundError, f'{qualified} "{name}" not found', qualified, name)


def new_already_exists(qualified: GroupResource, name: str) -> StatusError:
    """Go: errors.NewAlreadyExists — ``pods "web-1" already exists``."""
    return _make(AlreadyExistsError, f'{qualified} "{name}" already exists', qualified, name)


def new_conflict(qualified: GroupResource, name: str, err: object) -> StatusError:
    """Go: errors.NewConflict — ``Operation cannot be fulfilled on pods "web-1": <err>``."""
    return _make(ConflictError, f'Operation cannot be fulfilled on {qualified} "{name}": {err}',
                 qualified, name)


def new_gone(message: str) -> StatusError:
    """Go: errors.NewGone (410, e.g. ``too old resource version: 5 (9)``)."""
    return _make(GoneError, message)


def new_invalid(kind: str, name: str, errs: str, causes: tuple[StatusCause, ...] = ()) -> StatusError:
    """Go: errors.NewInvalid — ``Pod "web-1" is invalid: <field errors>``, one cause per field error.

    Differs from Go: the field errors come as one preformatted string (and, when the caller has
    them, as ``causes``), not a field.ErrorList.
    """
    details = StatusDetails(name=name, kind=kind, causes=causes)
    return InvalidError(Status(message=f'{kind} "{name}" is invalid: {errs}', reason=InvalidError.default_reason,
                               details=details, code=InvalidError.default_code))


def new_bad_request(reason: str) -> StatusError:
    """Go: errors.NewBadRequest."""
    return _make(BadRequestError, reason)


def new_internal_error(err: object) -> StatusError:
    """Go: errors.NewInternalError — ``Internal error occurred: <err>``."""
    return _make(InternalError, f"Internal error occurred: {err}")


def new_server_timeout(qualified: GroupResource, operation: str, retry_after: int) -> StatusError:
    """Go: errors.NewServerTimeout."""
    err = _make(ServerTimeoutError,
                f"The {operation} operation against {qualified} could not be completed at this"
                " time, please try again.", qualified)
    return err


def new_service_unavailable(reason: str) -> StatusError:
    """Go: errors.NewServiceUnavailable."""
    return _make(ServiceUnavailableError, reason)


def new_too_many_requests(message: str, retry_after_seconds: int) -> StatusError:
    """Go: errors.NewTooManyRequests (message only; no Retry-After handling here)."""
    return _make(TooManyRequestsError, message)


def reason_for_error(err: BaseException) -> str:
    """The status reason of an error ("" for a non-status error). Go: errors.ReasonForError."""
    return err.err_status.reason if isinstance(err, StatusError) else REASON_UNKNOWN


def is_not_found(err: BaseException) -> bool:
    """Go: errors.IsNotFound."""
    return reason_for_error(err) == REASON_NOT_FOUND


def is_already_exists(err: BaseException) -> bool:
    """Go: errors.IsAlreadyExists."""
    return reason_for_error(err) == REASON_ALREADY_EXISTS


def is_conflict(err: BaseException) -> bool:
    """Go: errors.IsConflict."""
    return reason_for_error(err) == REASON_CONFLICT


def is_gone(err: BaseException) -> bool:
    """Whether the error is a 410 Gone (an expired resourceVersion).

    Go: errors.IsGone / IsResourceExpired (reason Gone).
    """
    return reason_for_error(err) == REASON_GONE


def is_invalid(err: BaseException) -> bool:
    """Go: errors.IsInvalid."""
    return reason_for_error(err) == REASON_INVALID


def is_bad_request(err: BaseException) -> bool:
    """Go: errors.IsBadRequest."""
    return reason_for_error(err) == REASON_BAD_REQUEST


def is_internal_error(err: BaseException) -> bool:
    """Go: errors.IsInternalError."""
    return reason_for_error(err) == REASON_INTERNAL_ERROR


def is_server_timeout(err: BaseException) -> bool:
    """Go: errors.IsServerTimeout."""
    return reason_for_error(err) == REASON_SERVER_TIMEOUT


def is_service_unavailable(err: BaseException) -> bool:
    """Go: errors.IsServiceUnavailable."""
    return reason_for_error(err) == REASON_SERVICE_UNAVAILABLE

"""Retry a write while the API server answers 409 Conflict, with exponential back-off.

Go: pkg/client/retry/util.go
https://github.com/kubernetes/kubernetes/blob/v1.6.1/pkg/client/retry/util.go#L26-L79

Differs from Go: ``fn`` raises instead of returning an error.
"""

from __future__ import annotations

from collections.abc import Callable

from kschedlearn.apimachinery.api.errors import is_conflict
from kschedlearn.apimachinery.util import wait
from kschedlearn.apimachinery.util.runtime import PANICS

DEFAULT_RETRY = wait.Backoff(duration=0.010, factor=1.0, jitter=0.1, steps=5)
"""Go: ``DefaultRetry`` — util.go#L26-L33."""
DEFAULT_BACKOFF = wait.Backoff(duration=0.010, factor=5.0, jitter=0.1, steps=4)
"""Go: ``DefaultBackoff`` — util.go#L35-L43."""


def retry_on_conflict(backoff: wait.Backoff, fn: Callable[[], None]) -> None:
    """Run ``fn`` until it succeeds; retry only on Conflict; raise the last conflict when out of steps.

    Go: ``RetryOnConflict`` — util.go#L45-L79
    """
    last_conflict_err: list[BaseException] = []

    def condition() -> bool:
        try:
            fn()
        except PANICS:
            raise
        except Exception as err:
            if is_conflict(err):
                last_conflict_err[:] = [err]
                return False
            raise
        return True

    try:
        wait.exponential_backoff(backoff, condition)
    except wait.ErrWaitTimeout:
        if last_conflict_err:
            raise last_conflict_err[0] from None
        raise


__all__ = ["DEFAULT_BACKOFF", "DEFAULT_RETRY", "retry_on_conflict"]

"""Go: pkg/client/retry (https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/client/retry)."""

from kschedlearn.client.retry.util import DEFAULT_BACKOFF, DEFAULT_RETRY, retry_on_conflict

__all__ = ["DEFAULT_BACKOFF", "DEFAULT_RETRY", "retry_on_conflict"]

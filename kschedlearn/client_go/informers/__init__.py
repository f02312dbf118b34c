"""The generated shared informer factory (one shared informer per kind, started together).

Go: pkg/client/informers/informers_generated/externalversions
https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/client/informers/informers_generated/externalversions
"""

from kschedlearn.client_go.informers.factory import (
    SharedInformerFactory,
    new_shared_informer_factory,
)

__all__ = ["SharedInformerFactory", "new_shared_informer_factory"]

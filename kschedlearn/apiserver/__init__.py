"""The embedded in-memory Kubernetes API server (DESIGN §5) and its typed clientset.

Go: none directly — kschedlearn-only; it stands in for kube-apiserver (generic registry, pod
binding subresource, watch cache). Usage::

    server = APIServer(runtime)
    client = new_for_server(server)
    client.core_v1().pods("default").create(pod)
    w = client.core_v1().pods().watch(field_selector="spec.nodeName==", resource_version=rv)
"""

from kschedlearn.apiserver.clientset import (
    AppsV1beta1Client,
    Clientset,
    CoreV1Client,
    ExtensionsV1beta1Client,
    PodClient,
    ResourceClient,
    new_for_server,
)
from kschedlearn.apiserver.faults import Faults
from kschedlearn.apiserver.lists import List, ListMeta
from kschedlearn.apiserver.server import APIServer
from kschedlearn.apiserver.watchers import ServerWatch

__all__ = [
    "APIServer", "AppsV1beta1Client", "Clientset", "CoreV1Client", "ExtensionsV1beta1Client",
    "Faults", "List", "ListMeta", "PodClient", "ResourceClient", "ServerWatch", "new_for_server",
]

"""Go: client-go/kubernetes (the typed clientset; the clientset itself is ``kschedlearn.apiserver.clientset``)."""

"""The garbage collector of 1.6: deletes objects whose owners are gone, orphans on request.

Go: pkg/controller/garbagecollector
https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/controller/garbagecollector
"""

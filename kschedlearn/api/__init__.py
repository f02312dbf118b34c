"""Kubernetes API types as kschedlearn mirrors them.

Go: ``k8s.io/kubernetes/pkg/api`` (and ``k8s.io/apimachinery/pkg/api/resource`` for quantities),
https://github.com/kubernetes/kubernetes/tree/v1.6.1/pkg/api

Subpackages: ``resource`` (Quantity), ``v1`` (Pod, Node, ...), ``errors`` (manifest decoding errors).
"""

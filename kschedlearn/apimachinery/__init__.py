"""Mirrors of k8s.io/apimachinery (staging/src/k8s.io/apimachinery in the v1.6.1 tree)."""

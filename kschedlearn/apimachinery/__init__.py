"""Mirrors of the parts of ``k8s.io/apimachinery`` that the 1.6 scheduler uses.

Go: ``staging/src/k8s.io/apimachinery/pkg``,
https://github.com/kubernetes/kubernetes/tree/v1.6.1/staging/src/k8s.io/apimachinery/pkg

Subpackages: ``labels`` and ``fields`` (selectors), ``selection`` (selector operators),
``apis.meta.v1`` (LabelSelector and its helpers), ``util.validation`` (label key/value rules).
"""

"""Listers of one API group (see the version modules)."""

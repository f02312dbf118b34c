"""One module per exercise; each defines ``TASK`` (a ``registry.Task``). Go: none."""

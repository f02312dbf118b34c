"""Storage.items lists a resource in key order, from a key order kept by create and delete
rather than sorted at every list (a replay lists 160,000 pods several times)."""

from __future__ import annotations

import random

import attrs

from kschedlearn.apiserver.storage import Storage


@attrs.frozen
class _Meta:
    resource_version: str = ""


@attrs.frozen
class _Stored:
    """A stored object (Storage stamps its resourceVersion through attrs.evolve)."""

    value: int
    metadata: _Meta = _Meta()


def test_items_are_in_key_order_after_random_writes() -> None:
    rnd = random.Random(3)
    storage = Storage()
    live: dict[tuple[str, str], int] = {}
    for step in range(3000):
        op = rnd.random()
        key = (rnd.choice(["default", "kube-system", ""]), f"p-{rnd.randint(0, 300)}")
        if op < 0.5 and key not in live:
            storage.create("pods", key, _Stored(step))
            live[key] = step
        elif op < 0.7 and key in live:
            storage.update("pods", key, _Stored(step))
            live[key] = step
        elif op < 0.85 and key in live:
            storage.delete("pods", key)
            del live[key]
        elif op < 0.95:
            listed = [o.value for o in storage.items("pods")]
            assert listed == [live[k] for k in sorted(live)]
        else:  # a write while a list is being read: the list shows the keys at its call
            it = storage.items("pods")
            first = next(it, None)
            new_key = ("default", f"q-{step}")
            storage.create("pods", new_key, _Stored(-step))
            rest = [o.value for o in it]
            want = [live[k] for k in sorted(live)]
            assert ([first.value] if first is not None else []) + rest == want
            live[new_key] = -step


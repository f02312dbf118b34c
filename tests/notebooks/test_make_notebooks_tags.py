"""tools/make_notebooks.py turns ``# %% tags=[...]`` markers into cell tags.

Go: none — kschedlearn-only.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("make_notebooks", ROOT / "tools" / "make_notebooks.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


def test_markers_become_cell_tags() -> None:
    nb = _tool().parse_source('# %% [markdown]\n# # Title\n\n# %% tags=["predict"]\nx = 1\n\n'
                              '# %%\ny = 2\n\n# %% [markdown] tags=["recap"]\n# ## Recap\n')
    assert [c.cell_type for c in nb.cells] == ["markdown", "code", "code", "markdown"]
    assert [c.metadata.get("tags", []) for c in nb.cells] == [[], ["predict"], [], ["recap"]]


def test_bad_tags_are_a_clear_error() -> None:
    with pytest.raises(SystemExit, match="bad cell tags"):
        _tool().parse_source("# %% tags=[predict]\nx = 1\n")

"""The ipywidgets explorer over a :class:`~kschedlearn.Simulation` (DESIGN §9).

Go: none — kschedlearn-only.
"""

from kschedlearn.widgets.explorer import VIEW_NAMES, Explorer, ExplorerBox

__all__ = ["VIEW_NAMES", "Explorer", "ExplorerBox"]

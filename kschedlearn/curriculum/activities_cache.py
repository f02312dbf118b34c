"""Checked activities (placeholder while the notebooks are converted).

Go: none — kschedlearn-only.
"""

from __future__ import annotations

ACTIVITIES: tuple = ()

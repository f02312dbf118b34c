"""Make the sibling helper module ``viz_samples`` importable (pytest runs in importlib mode)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

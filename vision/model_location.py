"""Where the trained models are: ``CRIBCAM_MODELS``, else the models shipped inside the package.

The repository's top-level ``models/`` folder is carried by the wheel as the package ``cribcam.models``
(see ``pyproject.toml``), so an installed cribcam finds its models from any working directory. In a
source checkout that is not installed as a wheel, the repository's own ``models/`` is used.

>>> models_dir().name  # doctest: +SKIP
'models'
"""

from __future__ import annotations

import importlib.resources
import os
from pathlib import Path

MANIFEST = "cribcam.json"
ENV_VAR = "CRIBCAM_MODELS"
PACKAGE = "cribcam.models"
REPO_MODELS = Path(__file__).resolve().parents[1] / "models"


def models_dir(explicit: str | Path | None = None) -> Path:
    """The models folder to use: ``explicit``, else ``CRIBCAM_MODELS``, else the shipped one."""
    if explicit:
        return Path(explicit)
    from_env = os.environ.get(ENV_VAR)
    if from_env:
        return Path(from_env)
    return shipped_models_dir()


def shipped_models_dir() -> Path:
    """The models that came with the package (the installed wheel's, else the source checkout's)."""
    try:
        shipped = Path(str(importlib.resources.files(PACKAGE)))
    except (ModuleNotFoundError, TypeError):
        shipped = None
    if shipped is not None and (shipped / MANIFEST).is_file():
        return shipped
    return REPO_MODELS

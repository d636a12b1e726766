"""Every registered game, one module each, in catalogue order."""

from . import spline, span  # noqa: F401

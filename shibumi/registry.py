"""The registry: find a game by name or alias, with parameters.

>>> load('spline').info.name
'Spline'
>>> load('spline(count_hidden=False)')
load('spline', count_hidden=False)
"""

from __future__ import annotations

import ast
import importlib
import re

from .errors import UnknownGameError
from .game import Game

_REGISTRY: dict[str, type[Game]] = {}
_ORDER: list[type[Game]] = []
_LOADED = []


def register(cls: type[Game]) -> type[Game]:
    """Class decorator adding a game under its name and aliases (lower case)."""
    for key in (cls.info.name, *cls.info.aliases):
        key = key.lower()
        if key in _REGISTRY and _REGISTRY[key] is not cls:
            raise ValueError(f"game name {key!r} registered twice")
        _REGISTRY[key] = cls
    _ORDER.append(cls)
    return cls


def _ensure_loaded() -> None:
    if not _LOADED:
        _LOADED.append(True)
        importlib.import_module(f"{__package__}.games")  # registers every game


def all_games() -> list[type[Game]]:
    """Every registered game class, in catalogue order."""
    _ensure_loaded()
    return list(_ORDER)


def names() -> list[str]:
    return [cls.info.name.lower() for cls in all_games()]


_SPEC = re.compile(r"\s*([\w+ -]+?)\s*(?:\((.*)\))?\s*$")


def load(spec: str, **params) -> Game:
    """A game from its name or alias, optionally with parameters.

    Parameters may be keywords or written in the name: ``load('splade',
    players=3)`` or ``load('splade(players=3)')``.
    """
    _ensure_loaded()
    if not isinstance(spec, str):
        raise UnknownGameError(f"a game is named by text, not {type(spec).__name__}")
    m = _SPEC.match(spec)
    if not m:
        raise UnknownGameError(f"bad game name {spec!r}")
    name, args = m.group(1).lower(), m.group(2)
    cls = _REGISTRY.get(name)
    if cls is None:
        known = ", ".join(sorted(c.info.name.lower() for c in _ORDER))
        raise UnknownGameError(f"unknown game {name!r}; known games: {known}")
    if args:
        params = {**_parse_args(spec, args), **params}
    return cls(**params)


def _parse_args(spec: str, args: str) -> dict:
    problem = f"bad parameters in {spec[:80]!r}: write name(key=value, ...)"
    if len(args) > 500:
        raise UnknownGameError(problem)
    try:
        call = ast.parse(f"f({args})", mode="eval").body
        if call.args or any(kw.arg is None for kw in call.keywords):
            raise ValueError
        return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        raise UnknownGameError(problem) from None

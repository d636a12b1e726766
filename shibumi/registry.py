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

from .errors import UnknownGameError, require_text, shown
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


#: The longest game spec accepted: a name and its parameters.
LONGEST_SPEC = 600
_NAME = re.compile(r"[\w+ -]+")


def load(spec: str, **params) -> Game:
    """A game from its name or alias, optionally with parameters.

    Parameters may be keywords or written in the name: ``load('splade',
    players=3)`` or ``load('splade(players=3)')``.
    """
    _ensure_loaded()
    require_text(spec, "a game", "'spline' or 'splade(players=3)'", LONGEST_SPEC,
                 UnknownGameError)
    name, args = _split_spec(spec)
    cls = _REGISTRY.get(name)
    if cls is None:
        known = ", ".join(sorted(c.info.name.lower() for c in _ORDER))
        raise UnknownGameError(f"unknown game {shown(name)}; known games: {known}")
    if args is not None:
        params = {**_parse_args(spec, args), **params}
    return cls(**params)


def _split_spec(spec: str) -> tuple[str, str | None]:
    """``'name(args)'`` as the lower-case name and the text between the brackets.

    A plain split, no backtracking: the work is linear in the spec's length.
    """
    text = spec.strip()
    args = None
    if text.endswith(")") and "(" in text:
        text, _, args = text[:-1].partition("(")
    name = " ".join(text.split()).lower()
    if not _NAME.fullmatch(name):
        raise UnknownGameError(f"bad game name {shown(spec)}: a name is letters, digits, "
                               "spaces, '+' and '-', with parameters in brackets: "
                               "'splade(players=3)'")
    return name, args


def _parse_args(spec: str, args: str) -> dict:
    problem = f"bad parameters in {shown(spec)}: write name(key=value, ...)"
    try:
        call = ast.parse(f"f({args})", mode="eval").body
        if call.args or any(kw.arg is None for kw in call.keywords):
            raise ValueError
        values = {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        raise UnknownGameError(problem) from None
    if len(values) < len(call.keywords):
        twice = sorted({kw.arg for kw in call.keywords
                        if [k.arg for k in call.keywords].count(kw.arg) > 1})
        raise UnknownGameError(f"bad parameters in {shown(spec)}: "
                               f"{', '.join(twice)} given twice")
    return values

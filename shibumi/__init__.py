"""Shibumi: one engine for the whole Shibumi game system.

>>> import shibumi
>>> match = shibumi.load('spline').new_match()
>>> match.push('a1')
Move('Wa1')
>>> match.legal_moves()[:3]
[Move('Bc1'), Move('Be1'), Move('Bg1')]
"""

from .errors import IllegalMoveError, NotationError, ShibumiError, UnknownGameError
from .game import (CHANCE, SIMULTANEOUS, TERMINAL, Game, GameInfo, Match, Outcome,
                   State)
from .notation import Move, parse_line, parse_point, point_name
from .position import BLACK, EMPTY, RED, WHITE, Position
from .registry import all_games, load, names, register

__all__ = [
    "BLACK", "CHANCE", "EMPTY", "Game", "GameInfo", "IllegalMoveError", "Match",
    "Move", "NotationError", "Outcome", "Position", "RED", "SIMULTANEOUS",
    "ShibumiError", "State", "TERMINAL", "UnknownGameError", "WHITE", "all_games",
    "load", "names", "parse_line", "parse_point", "point_name", "register",
]
__version__ = "0.1.0"

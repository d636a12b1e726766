"""Narrow exception types.  All derive from ValueError, as bad input does."""


class ShibumiError(ValueError):
    """Base class of every error raised by the library on bad input."""


class NotationError(ShibumiError):
    """Text that is not a valid point, move, line or position."""


class IllegalMoveError(ShibumiError):
    """A well-formed move that the rules do not allow in this state."""


class UnknownGameError(ShibumiError, LookupError):
    """A game name or alias that is not registered, or a bad game parameter."""

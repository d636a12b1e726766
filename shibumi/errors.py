"""Narrow exception types.  All derive from ValueError, as bad input does.

Messages quote the input they reject through :func:`shown`, so a megabyte of
bad input gives a one-line error, not a megabyte of error.
"""

#: The most characters of rejected input an error message repeats.
SHOWN = 40


class ShibumiError(ValueError):
    """Base class of every error raised by the library on bad input."""


class NotationError(ShibumiError):
    """Text that is not a valid point, move, line or position."""


class IllegalMoveError(ShibumiError):
    """A well-formed move that the rules do not allow in this state."""


class UnknownGameError(ShibumiError, LookupError):
    """A game name or alias that is not registered, or a bad game parameter."""


def shown(text, limit: int = SHOWN) -> str:
    """``repr`` of input quoted in an error message, cut to ``limit`` characters.

    >>> shown("d6")
    "'d6'"
    >>> shown("x" * 1000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (1,000 characters)"
    """
    if not isinstance(text, str):
        return f"a {type(text).__name__}"
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit] + '…'!r} ({len(text):,} characters)"


def require_text(value, what: str, example: str, longest: int, error=NotationError) -> str:
    """``value`` if it is a string of at most ``longest`` characters, else ``error``.

    Checked before any parsing, so the work done on bad input is bounded.
    """
    if not isinstance(value, str):
        raise error(f"{what} is given as text like {example}, not {type(value).__name__}")
    if len(value) > longest:
        raise error(f"{what} {shown(value)} is too long: at most {longest} characters, "
                    f"like {example}")
    return value


def is_number(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` also takes '²' and other Unicode digits)."""
    return text.isascii() and text.isdigit()

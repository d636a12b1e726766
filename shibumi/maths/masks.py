"""Fast symmetry images of point masks, shared by the solvers.

A 30-bit point mask is split into two 15-bit halves; for each of the 8
symmetries, two tables of 32768 entries give the image of each half, so the
image of a mask is two look-ups and an OR.  Built once, on first use.

>>> low, high = symmetry_tables()[1]
>>> from shibumi.geometry import SYMMETRIES
>>> m = 0b1011 << 13
>>> low[m & 32767] | high[m >> 15] == sum(1 << SYMMETRIES[1][p] for p in range(30) if m >> p & 1)
True
"""
from __future__ import annotations

from functools import lru_cache

from ..geometry import SYMMETRIES


@lru_cache(maxsize=None)
def symmetry_tables() -> tuple[tuple[list[int], list[int]], ...]:
    """For each symmetry, images of the low and high 15 bits of a point mask."""
    out = []
    for perm in SYMMETRIES:
        halves = []
        for shift in (0, 15):
            table = [0] * 32768
            for bit in range(15):
                image = 1 << perm[bit + shift]
                step = 1 << bit
                # table[x] for the x whose highest set bit is `bit`
                for x in range(step, step << 1):
                    table[x] = table[x ^ step] | image
            halves.append(table)
        out.append(tuple(halves))
    return tuple(out)

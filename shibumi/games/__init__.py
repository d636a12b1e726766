"""Every registered game, one module each, imported in catalogue order.

Importing a module registers its game (see :func:`shibumi.registry.register`).
"""

import importlib

#: Module names in the order of the catalogue (the rule book's order).
CATALOGUE = (
    # N-in-a-row
    "spline", "spline_plus", "splice", "spree", "spava", "splade", "sparro",
    "sploof", "spaniel",
    # Connection
    "span", "sponnect", "spight", "spice", "spaiji", "spaghetti", "splush",
    # Pattern
    "spyramid",
    # Completion
    "spire", "spinimax", "splastwo",
    # Elimination
    "spanic",
    # Capture
    "spoing", "spargo",
    # Counting
    "spindizzy", "sprite", "spao", "speedo", "spirit", "spodd", "splink", "spagyric",
    # Puzzle
    "spuzzle", "spin", "spalone",
    # Multiset
    "spy",
    # Annexe 1 of the French edition (games designed after the rule book), A to Z
    "spair", "spandrel", "spangle", "sparks", "spawn", "special_cake",
    "spectacular_tumble", "speq", "spetris", "sphered", "sphex", "sphlying_marbles",
    "spinca", "spinout", "spoff", "spoker", "spone", "spook", "spout", "spred",
    "sprenge", "springe", "sprout", "spruit", "spuds", "spurn",
    # Annexe 2 of the French edition
    "sphlag", "spack", "spillway", "sp_dansers", "sp_kapow", "sp_fireball",
    # Companion games: not played on the pyramid (a board type of their own)
    "sensei", "imbriqua",
)

for _name in CATALOGUE:
    importlib.import_module(f"{__name__}.{_name}")

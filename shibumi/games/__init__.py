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
)

for _name in CATALOGUE:
    importlib.import_module(f"{__name__}.{_name}")

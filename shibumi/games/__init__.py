"""Every registered game, one module each, imported in catalogue order.

Importing a module registers its game (see :func:`shibumi.registry.register`).
"""

import importlib

#: Module names in the order of the catalogue (the rule book's order).
CATALOGUE = (
    "spline", "span", "spire", "spinimax", "splastwo",
)

for _name in CATALOGUE:
    importlib.import_module(f"{__name__}.{_name}")

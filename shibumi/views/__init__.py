"""Pictures of positions: SVG diagrams (standard library) and 3D views (pythreejs).

Imported lazily: the engine never imports this package by itself.

- :mod:`shibumi.views.svg` -- ``position_svg`` (the top view, as in the rule
  book's figures) and ``levels_svg`` (the four levels side by side).
- :mod:`shibumi.views.three` -- ``PyramidView``, an orbitable 3D scene updated in
  place (needs pythreejs).
"""

"""Pictures of positions: SVG diagrams (standard library) and 3D views (pythreejs).

Imported lazily: the engine never imports this package by itself.
"""

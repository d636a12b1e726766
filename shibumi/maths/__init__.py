"""The mathematics behind the games: graphs, exhaustive checks, counting, solving.

These modules use third-party packages (networkx, numpy, sympy) and are
imported only when asked for; the engine itself never imports them.
"""

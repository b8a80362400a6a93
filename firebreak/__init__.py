"""Firebreak: a game-as-a-service backend for turn-based board games.

The repository keeps one top-level folder per layer (api/, domain/, matches/, ...); the wheel installs each of them
under this one name (firebreak.api, firebreak.domain, ...), and in a checkout the links in this folder give the
same names, so the code imports itself the same way in both.
"""

__version__ = "0.1.0"

"""Matchmaking's settings, read once from the environment (like matches/config.py)."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class SeekSettings:
    """What a deployment may tune about seeks; every field has a working default.

    The rating band: two rated seeks are compatible when their ratings differ by at most the wider of their two
    bands, a seek's band being band + band_growth * (seconds it has waited), capped at band_max (0: no cap). An
    unrated seek (rating None) is compatible with any."""

    ttl: float = 600.0                 # seconds a seek waits before it expires (FIREBREAK_SEEK_TTL)
    kept: int = 24 * 3600              # seconds an ended seek stays readable (FIREBREAK_SEEK_KEPT)
    per_player: int = 5                # open seeks a player may hold at once (FIREBREAK_SEEKS_PER_PLAYER)
    band: float = 150.0                # rating band at the start (FIREBREAK_SEEK_BAND)
    band_growth: float = 5.0           # rating points the band widens by per second waited (FIREBREAK_SEEK_BAND_GROWTH)
    band_max: float = 0.0              # the widest band (0: it widens without end; FIREBREAK_SEEK_BAND_MAX)
    pool_scan: int = 1000              # waiting seeks of a pool one matching job looks at, oldest first

    def __post_init__(self) -> None:
        for name, value in (("FIREBREAK_SEEK_TTL", self.ttl), ("FIREBREAK_SEEK_KEPT", self.kept),
                            ("FIREBREAK_SEEKS_PER_PLAYER", self.per_player)):
            if not 0 < value < math.inf:
                raise ValueError(f"{name} must be above 0")
        for name, value in (("FIREBREAK_SEEK_BAND", self.band), ("FIREBREAK_SEEK_BAND_GROWTH", self.band_growth),
                            ("FIREBREAK_SEEK_BAND_MAX", self.band_max)):
            if not 0 <= value < math.inf:
                raise ValueError(f"{name} must be a number >= 0")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> SeekSettings:
        """Read the FIREBREAK_SEEK* variables over the defaults, from os.environ or the given mapping."""
        env = os.environ if environ is None else environ
        base = cls()

        def real(name: str, default: float) -> float:
            raw = env.get(name)
            try:
                return default if raw is None else float(raw)
            except ValueError:
                raise ValueError(f"{name} must be a number, not {raw!r}") from None

        return cls(ttl=real("FIREBREAK_SEEK_TTL", base.ttl), kept=int(real("FIREBREAK_SEEK_KEPT", base.kept)),
                   per_player=int(real("FIREBREAK_SEEKS_PER_PLAYER", base.per_player)),
                   band=real("FIREBREAK_SEEK_BAND", base.band),
                   band_growth=real("FIREBREAK_SEEK_BAND_GROWTH", base.band_growth),
                   band_max=real("FIREBREAK_SEEK_BAND_MAX", base.band_max))

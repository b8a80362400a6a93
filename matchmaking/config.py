"""Matchmaking's settings, read once from the environment (a pydantic-settings model like matches/config.py)."""

from __future__ import annotations

from typing import ClassVar

from firebreak.matches.envsettings import EnvSettings, env


class SeekSettings(EnvSettings):
    """What a deployment may tune about seeks; every field has a working default.

    The rating band: two rated seeks are compatible when their ratings differ by at most the wider of their two
    bands, a seek's band being band + band_growth * (seconds it has waited), capped at band_max (0: no cap). An
    unrated seek (rating None) is compatible with any."""

    section: ClassVar[str] = "Matchmaking: seeks"

    ttl: float = env("FIREBREAK_SEEK_TTL", 600.0, "Seconds a seek waits before it expires.", gt=0)
    kept: int = env("FIREBREAK_SEEK_KEPT", 24 * 3600, "Seconds an ended seek stays readable.", gt=0)
    per_player: int = env("FIREBREAK_SEEKS_PER_PLAYER", 5, "Open seeks a player may hold at once.", gt=0)
    band: float = env("FIREBREAK_SEEK_BAND", 150.0, "The rating band of a seek at its start (rating points).", ge=0)
    band_growth: float = env("FIREBREAK_SEEK_BAND_GROWTH", 5.0,
                             "Rating points the band widens by per second waited.", ge=0)
    band_max: float = env("FIREBREAK_SEEK_BAND_MAX", 0.0, "The widest band; 0: it widens without end.", ge=0)
    pool_scan: int = env("FIREBREAK_SEEK_POOL_SCAN", 1000,
                         "Waiting seeks of a pool one matching job looks at, oldest first.", gt=0)

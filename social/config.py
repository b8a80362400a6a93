"""The social room's settings, read once from the environment (a pydantic-settings model like matches/config.py)."""

from __future__ import annotations

from typing import ClassVar

from firebreak.matches.envsettings import EnvSettings, env


class SocialSettings(EnvSettings):
    """What a deployment may tune about friends, blocks, search and presence; every field has a working default."""

    section: ClassVar[str] = "Friends, blocks and player search"

    friends_max: int = env("FIREBREAK_FRIENDS_MAX", 200,
                           "Friends a player may have, counting the friend requests they sent that are still "
                           "pending (TOO_MANY_FRIENDS past it).", gt=0, le=10_000)
    requests_max: int = env("FIREBREAK_FRIEND_REQUESTS_MAX", 50,
                            "Pending friend requests a player may have sent (TOO_MANY_FRIEND_REQUESTS past it), and "
                            "may have received (more are refused to the sender as NOT_ACCEPTED).", gt=0, le=10_000)
    blocks_max: int = env("FIREBREAK_BLOCKS_MAX", 1000, "Players a player may block (TOO_MANY_BLOCKS past it).",
                          gt=0, le=100_000)
    search_per_second: float = env("FIREBREAK_SEARCH_PER_SECOND", 2.0,
                                   "Player searches a player may make per second, sustained (RATE_LIMITED past "
                                   "it; a search needs a player credential).", gt=0)
    search_burst: int = env("FIREBREAK_SEARCH_BURST", 20, "Player searches allowed at once before the rate applies.",
                            gt=0)
    online_seconds: float = env("FIREBREAK_PRESENCE_ONLINE_SECONDS", 300.0,
                                "A friend shows online while they have an open event stream or made a request "
                                "within this many seconds; else their last seen time.", gt=60)
    touch_seconds: float = env("FIREBREAK_PRESENCE_TOUCH_SECONDS", 60.0,
                               "The longest a player's last-seen time lags: an API process writes it at most once in "
                               "this many seconds per player (0: on every request).", ge=0, le=3600)

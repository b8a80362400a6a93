"""The chat's Redis keys, on the matches Redis in the match's slot ({<match id>}, as matches/keys.py), so that one
script writes a message, its channel's counter and the wake-up signal together."""

from __future__ import annotations


def messages(match_id: str) -> str:
    """Hash: "<channel>:<seq>" -> the message as JSON (chat/store.py: Message); the newest KEPT of each channel."""
    return f"match:{{{match_id}}}:chat"


def last(match_id: str) -> str:
    """Hash: channel -> the seq of its newest message (1, 2, ...: a channel's cursor)."""
    return f"match:{{{match_id}}}:chat:seq"


def signal(match_id: str) -> str:
    """Stream: one entry per message ({c: channel, s: seq}; never its text or sender), which the API processes'
    chat readers block on (api/chat_hub.py)."""
    return f"match:{{{match_id}}}:chat:signal"


def chatted(player_id: str) -> str:
    """Sorted set in the player's slot: the matches the player wrote in as a spectator -> when last (its seated
    matches are in its my-matches index), so that deleting its account finds every message (the newest KEPT)."""
    return f"player:{{p:{player_id}}}:chatted"


def every(match_id: str) -> list[str]:
    """The chat's keys of a match."""
    return [messages(match_id), last(match_id), signal(match_id)]

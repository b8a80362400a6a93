"""Quick messages a phone player sends with a tap (like Board Game Arena's and Lichess's canned lines), each by a
stable id that a client may show in the player's language; and the presets a bot seat answers with."""

from __future__ import annotations

PRESETS: dict[str, str] = {
    "hello": "Hello!",
    "goodLuck": "Good luck!",
    "goodGame": "Good game!",
    "wellPlayed": "Well played!",
    "thanks": "Thanks!",
    "sorry": "Sorry!",
    "oneMoment": "One moment, please.",
    "yourTurn": "It is your turn.",
    "rematch": "Rematch?",
    "bye": "Bye!",
}

# What a bot seat answers a preset with (one answer per bot seat, none for the others)
BOT_ANSWERS: dict[str, str] = {"hello": "hello", "goodLuck": "goodLuck", "goodGame": "goodGame",
                               "wellPlayed": "thanks", "thanks": "thanks", "bye": "bye"}


def text_of(preset: str) -> str | None:
    """The English text of a preset, or None for an unknown id."""
    return PRESETS.get(preset)

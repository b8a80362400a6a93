"""Player handles: the public, unique name a player is told apart and invited by (docs/guides/players.md, Handles).

A handle is 3 to 24 characters after Unicode NFKC: letters and digits of one script plus '-', '_' and '.', starting
and ending with a letter or digit; a mix of scripts (e.g. a Cyrillic a, U+0430, among Latin letters) is refused as a
look-alike. Two handles are the same handle when their keys are equal: NFKC, casefolded, NFKC again.
"""

from __future__ import annotations

import unicodedata
from enum import StrEnum

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

HANDLE_MIN, HANDLE_MAX = 3, 24
PUNCTUATION = "-_."
SLUG_MAX = 16  # characters of a display name an assigned handle keeps (then '-' and digits)
FALLBACK = "player"  # the slug of a display name that gives none


class HandleReason(StrEnum):
    """Why a handle was refused (stable: BAD_HANDLE's reason)."""

    TOO_SHORT = "too_short"        # fewer than 3 characters after NFKC
    TOO_LONG = "too_long"          # more than 24 characters after NFKC
    CHARACTERS = "characters"      # a character that is no letter, digit, '-', '_' or '.'
    PUNCTUATION = "punctuation"    # starts or ends with '-', '_' or '.'
    MIXED_SCRIPT = "mixed_script"  # letters or digits of more than one script: a look-alike of another handle


_SAYS = {
    HandleReason.TOO_SHORT: f"a handle must be at least {HANDLE_MIN} characters",
    HandleReason.TOO_LONG: f"a handle must be at most {HANDLE_MAX} characters",
    HandleReason.CHARACTERS: "a handle holds only letters, digits, '-', '_' and '.'",
    HandleReason.PUNCTUATION: "a handle starts and ends with a letter or a digit",
    HandleReason.MIXED_SCRIPT: "a handle's letters and digits must all be of one script (no look-alikes)",
}


def says(reason: HandleReason) -> str:
    """What a refusal for this reason tells a person."""
    return _SAYS[reason]


def _allowed(char: str) -> bool:
    return char in PUNCTUATION or unicodedata.category(char)[0] in "LN"


def problem(handle: str) -> tuple[str, HandleReason | None]:
    """The handle as kept (NFKC of the trimmed text) and why it is refused (None: it is a good handle)."""
    text = unicodedata.normalize("NFKC", handle.strip())
    if len(text) < HANDLE_MIN:
        return text, HandleReason.TOO_SHORT
    if len(text) > HANDLE_MAX:
        return text, HandleReason.TOO_LONG
    if not all(_allowed(char) for char in text):
        return text, HandleReason.CHARACTERS
    if text[0] in PUNCTUATION or text[-1] in PUNCTUATION:
        return text, HandleReason.PUNCTUATION
    if confusables.is_mixed_script(text) or confusables.is_dangerous(text):
        return text, HandleReason.MIXED_SCRIPT
    return text, None


def key(handle: str) -> str:
    """The uniqueness key of a handle: NFKC, casefolded, NFKC again (Ann, ANN and fullwidth ann are one handle)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", handle).casefold())


def slug(name: str) -> str:
    """The part of an assigned handle taken from a display name: its letters and digits lowercased, any other run
    of characters one '-', at most 16 characters; 'player' when that leaves fewer than 3 or mixes scripts."""
    out: list[str] = []
    for char in unicodedata.normalize("NFKC", name).lower():
        if unicodedata.category(char)[0] in "LN":
            out.append(char)
        elif out and out[-1] != "-":
            out.append("-")
    text = "".join(out)[:SLUG_MAX].strip("-")
    if len(text) < HANDLE_MIN or problem(text)[1] is not None:
        return FALLBACK
    return text


def candidate(name: str, number: int, digits: int) -> str:
    """A handle to assign a player of that display name: its slug, '-' and a number of that many digits, e.g.
    ann-4821 ('player-4821' when the slug and the number together would break the grammar)."""
    text = f"{slug(name)[:HANDLE_MAX - digits - 1].rstrip('-')}-{number}"
    return text if problem(text)[1] is None else f"{FALLBACK}-{number}"

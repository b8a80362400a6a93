"""What a chat message may say: plain text, at most MAX_LENGTH characters after NFC normalisation, no control
character but a line break and no bidirectional control (an override can make a message read other than it is
written: Trojan Source, CVE-2021-42574); not blank."""

from __future__ import annotations

import unicodedata
from enum import StrEnum

MAX_LENGTH = 500
MAX_RAW = 4 * MAX_LENGTH  # characters read at all: a longer input is refused before it is normalised
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class TextReason(StrEnum):
    """Why a message's text was refused."""

    EMPTY = "empty"
    TOO_LONG = "too_long"
    CONTROL = "control"
    BIDI = "bidi"


SAYS = {
    TextReason.EMPTY: "a message needs some text (or a preset)",
    TextReason.TOO_LONG: f"a message holds at most {MAX_LENGTH} characters",
    TextReason.CONTROL: "a message may hold no control character but a line break",
    TextReason.BIDI: "a message may hold no bidirectional control character (U+202A-202E, U+2066-2069, ...)",
}


def problem(text: str) -> tuple[str, TextReason | None]:
    """The text as kept (NFC, trimmed) and None, or the reason it is refused. Linear in the input, which is cut off
    unread past MAX_RAW characters."""
    if len(text) > MAX_RAW:
        return "", TextReason.TOO_LONG
    clean = unicodedata.normalize("NFC", text).strip()
    if not clean:
        return "", TextReason.EMPTY
    if len(clean) > MAX_LENGTH:
        return "", TextReason.TOO_LONG
    for char in clean:
        if char in BIDI_CONTROLS:
            return "", TextReason.BIDI
        if char != "\n" and unicodedata.category(char) == "Cc":
            return "", TextReason.CONTROL
    return clean, None

"""The registry of playable titles: the shipped ones, plus any a test session registers for itself."""

from __future__ import annotations

from firebreak.domain.contract import EncodedTitle, Title
from firebreak.domain.encoding import is_encoded
from firebreak.domain.errors import UnknownTitle

_EXTRA: dict[str, Title] = {}  # titles registered at run time (tests and benches only; empty in the service)


def _shipped() -> dict[str, Title]:
    from firebreak.domain.greatfire.title import GREAT_FIRE
    from firebreak.domain.london.title import LONDON

    return {GREAT_FIRE.id: GREAT_FIRE, LONDON.id: LONDON}


def _registry() -> dict[str, Title]:
    return {**_shipped(), **_EXTRA}


def get(title_id: str) -> Title:
    """Return the title with this id; raise UnknownTitle otherwise."""
    try:
        return _registry()[title_id]
    except KeyError:
        raise UnknownTitle(f"unknown title {title_id!r}") from None


def all_titles() -> list[Title]:
    """Return every playable title, sorted by id."""
    return sorted(_registry().values(), key=lambda t: t.id)


def encoded_titles() -> list[EncodedTitle]:
    """Return every playable title that provides the encoded contract, sorted by id (the learning adapters' list)."""
    return [title for title in all_titles() if is_encoded(title)]


def register(title: Title) -> None:
    """Add a title for this process only (a test or bench title); raise ValueError if its id is taken."""
    if title.id in _registry():
        raise ValueError(f"a title {title.id!r} is already registered")
    _EXTRA[title.id] = title


def unregister(title_id: str) -> None:
    """Remove a title added by register(); raise ValueError for a shipped or unknown id."""
    if title_id not in _EXTRA:
        raise ValueError(f"{title_id!r} was not added by register()")
    del _EXTRA[title_id]

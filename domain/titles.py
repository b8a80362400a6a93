"""The registry of playable titles."""

from __future__ import annotations

from domain.contract import Title
from domain.errors import UnknownTitle


def _registry() -> dict[str, Title]:
    from domain.greatfire.title import GREAT_FIRE
    from domain.london.title import LONDON

    return {GREAT_FIRE.id: GREAT_FIRE, LONDON.id: LONDON}


def get(title_id: str) -> Title:
    """Return the title with this id; raise UnknownTitle otherwise."""
    try:
        return _registry()[title_id]
    except KeyError:
        raise UnknownTitle(f"unknown title {title_id!r}") from None


def all_titles() -> list[Title]:
    """Return every playable title, sorted by id."""
    return sorted(_registry().values(), key=lambda t: t.id)

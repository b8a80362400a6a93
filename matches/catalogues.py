"""The gettext catalogues (read with Babel) and a phrase (domain/words.py) written in a language: the service's own
catalogue (`api/locale/<language>/LC_MESSAGES/firebreak.po`) and each title's beside it
(`domain/<title>/locale/<language>/...`). Below the API so that what has no request (a push to a closed app) can
be written in a player's language too; api/language.py negotiates a request's language.

A new language is a new catalogue there and one beside each title, no code. Each catalogue is read once per
process; a phrase's message id is its English text, so English needs no translation and anything a catalogue lacks
reads in English.
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Callable
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from firebreak.domain.words import Listed, Param, Phrase, Seat, Words, said

DEFAULT = "en"
DOMAIN = "firebreak"  # the service's own catalogue
LOCALE = Path(__file__).resolve().parent.parent / "api" / "locale"


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages the service speaks: those with a service catalogue (English always)."""
    folders = list(LOCALE.iterdir()) if LOCALE.is_dir() else []
    found = {p.name for p in folders if (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()}
    return tuple(sorted(found | {DEFAULT}))


def _read(path: Path) -> gettext.NullTranslations:
    if not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as text:
        catalog = read_po(text)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@functools.cache
def service(language: str) -> gettext.NullTranslations:
    """The service's catalogue for a language (empty for English)."""
    return _read(LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po")


@functools.cache
def catalogue(locale: Path, domain: str, language: str) -> gettext.NullTranslations:
    """A title's catalogue for a language, falling back on the service's (then on the English message id)."""
    found = _read(locale / language / "LC_MESSAGES" / f"{domain}.po")
    found.add_fallback(service(language))
    return found


def translation(words: Words | None, language: str) -> gettext.NullTranslations:
    """The catalogue a title's phrases are written with (the service's alone for a title without words)."""
    return service(language) if words is None else catalogue(words.locale, words.domain, language)


def write(value: Param, tr: gettext.NullTranslations, name: Callable[[int], str | None]) -> str:
    """A phrase (or a parameter) in the catalogue's language; name(seat) is the seat's player name (None: nobody
    sits there yet). A translation whose placeholders do not fit its message id reads in English.

    A phrase that names no seat reads the same wherever it is said: it is written once per catalogue and kept (the
    same button, "Move a trained band from Aldgate to Bedlam", comes back step after step)."""
    if not isinstance(value, Phrase):
        return _write(value, tr, name, [])
    key = (tr, value)
    found = _written.get(key)
    if found is None:
        seats: list[int] = []
        found = _write(value, tr, name, seats)
        if not seats:
            if len(_written) >= KEPT_WRITTEN:
                _written.clear()
            _written[key] = found
    return found


KEPT_WRITTEN = 50_000  # phrases kept written (all of them forgotten at once past this)
_written: dict[tuple[gettext.NullTranslations, Phrase], str] = {}


def _write(value: Param, tr: gettext.NullTranslations, name: Callable[[int], str | None], seats: list[int]) -> str:
    if isinstance(value, Phrase):
        params = {key: _write(param, tr, name, seats) for key, param in value.params}
        if value.plural is not None and value.counted is not None:
            n = dict(value.params)[value.counted]
            count = n if isinstance(n, int) else 0
            if value.context is None:
                text = tr.ngettext(value.text, value.plural, count)
            else:
                text = tr.npgettext(value.context, value.text, value.plural, count)
            english = value.text if count == 1 else value.plural
        else:
            text = tr.gettext(value.text) if value.context is None else tr.pgettext(value.context, value.text)
            english = value.text
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return english.format(**params)
    if isinstance(value, Seat):
        seats.append(value.seat)
        return name(value.seat) or _write(said("Seat {n}", n=value.seat + 1), tr, name, seats)
    if isinstance(value, Listed):
        return ", ".join(_write(item, tr, name, seats) for item in value.items)
    return str(value)

"""The reader's language: Accept-Language negotiated against the catalogues there are, and a title's phrases
(domain/words.py) written in it with gettext catalogues read by Babel.

The languages are the service's own catalogues (`api/locale/<language>/LC_MESSAGES/firebreak.po`): a new
language is a new catalogue there and one beside each title (`domain/<title>/locale/<language>/...`), no code.
Each catalogue is read once per process; a phrase's message id is its English text, so English needs no
translation and anything a catalogue lacks reads in English.
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from urllib.parse import parse_qs

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from starlette.types import ASGIApp, Receive, Scope, Send

from firebreak.domain.words import Listed, Param, Phrase, Seat, Words, said

DEFAULT = "en"
DOMAIN = "firebreak"  # the service's own catalogue
LOCALE = Path(__file__).parent / "locale"
MAX_HEADER = 512  # longer Accept-Language headers are read this far



class Chosen:
    """A request's (or a WebSocket connection's) language: what its Accept-Language (or ?lang=) asked for among the
    languages the service speaks, else the signed-in player's saved locale once the credential is verified, else
    English. One object per request, shared by every task the request runs (a context variable's value is copied
    into each task: a plain string set after authentication would reach only the task that set it)."""

    __slots__ = ("asked", "code")

    def __init__(self, asked: str | None) -> None:
        self.asked = asked           # the language the request asked for (None: none the service speaks)
        self.code = asked or DEFAULT  # the language answered in

    def saved(self, locale: str) -> None:
        """The signed-in player's saved locale: it speaks unless the request asked for a language."""
        if self.asked is None and locale in languages():
            self.code = locale


current: ContextVar[Chosen | None] = ContextVar("language", default=None)  # set per request (LanguageMiddleware)


def chosen() -> str:
    """The language the current request is answered in (English outside a request)."""
    found = current.get()
    return DEFAULT if found is None else found.code


def saved(locale: str) -> None:
    """The signed-in player's saved locale: the current request speaks it unless it asked for a language."""
    found = current.get()
    if found is not None:
        found.saved(locale)


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages the service speaks: those with a service catalogue (English always)."""
    folders = list(LOCALE.iterdir()) if LOCALE.is_dir() else []
    found = {p.name for p in folders if (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()}
    return tuple(sorted(found | {DEFAULT}))


def saved_locale(tag: str) -> str | None:
    """The locale a player may save for a BCP 47 tag: its language when the service speaks it (de-AT is de), ""
    for "" (forget the saved one), None for anything else."""
    if tag == "":
        return ""
    primary = tag.strip().split("-")[0].lower()
    return primary if len(tag) <= 35 and primary in languages() else None


@functools.cache
def endonym(code: str) -> str:
    """A language's name in itself (Deutsch, Українська), as a picker shows it."""
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


def negotiate(header: str | None) -> str:
    """The language to answer in for an Accept-Language header (RFC 9110): the supported one the reader prefers
    most (a region's tag matches its language: de-AT is de), English when none fits or the header is absent or
    malformed; a q of 0 refuses a language."""
    return asked(header) or DEFAULT


def asked(header: str | None) -> str | None:
    """The supported language an Accept-Language header prefers most (None: it names none the service speaks, or
    it is absent, malformed or only `*`)."""
    if not header:
        return None
    wanted: list[tuple[float, int, str]] = []
    for order, part in enumerate(header[:MAX_HEADER].split(",")):
        tag, _, rest = part.strip().partition(";")
        q = 1.0
        rest = rest.strip()
        if rest.startswith("q="):
            try:
                q = float(rest[2:])
            except ValueError:
                continue
        if tag and 0 < q <= 1:
            wanted.append((-q, order, tag.strip().lower()))
    supported = languages()
    for _, _, tag in sorted(wanted):
        primary = tag.split("-")[0]
        if primary in supported:
            return primary
        if tag == "*":
            return None
    return None


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


class LanguageMiddleware:
    """Sets the request's (or the WebSocket connection's) language from its Accept-Language header; a WebSocket's
    `lang` query parameter comes first (a browser cannot set a WebSocket's headers: it sends its own language). The
    player's saved locale speaks where neither names a language the service speaks (Context.authenticate)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Negotiate the language once, for everything the request answers."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = next((value.decode("latin-1") for key, value in scope.get("headers", ())
                       if key == b"accept-language"), None)
        if scope["type"] == "websocket":
            chosen = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang")
            header = chosen[0] if chosen else header
        token = current.set(Chosen(asked(header)))
        try:
            await self.app(scope, receive, send)
        finally:
            current.reset(token)

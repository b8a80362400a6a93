"""The reader's language: Accept-Language negotiated against the catalogues there are (matches/catalogues.py
reads them and writes a phrase in a language), or the player's saved locale.
"""

from __future__ import annotations

import functools
import re
from contextvars import ContextVar
from urllib.parse import parse_qs

from babel import Locale
from starlette.types import ASGIApp, Receive, Scope, Send

# what the API writes with (matches/catalogues.py), named here for its callers
from firebreak.matches.catalogues import DEFAULT as DEFAULT
from firebreak.matches.catalogues import DOMAIN as DOMAIN
from firebreak.matches.catalogues import LOCALE as LOCALE
from firebreak.matches.catalogues import catalogue as catalogue
from firebreak.matches.catalogues import languages as languages
from firebreak.matches.catalogues import service as service
from firebreak.matches.catalogues import translation as translation
from firebreak.matches.catalogues import write as write

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


def asked_nothing() -> bool:
    """Whether the current request named no language the service speaks (a saved locale would speak)."""
    found = current.get()
    return found is not None and found.asked is None


def saved(locale: str) -> None:
    """The signed-in player's saved locale: the current request speaks it unless it asked for a language."""
    found = current.get()
    if found is not None:
        found.saved(locale)


def locale_pattern() -> str:
    """What a saved locale may be: "" (forget it), or a tag of a language the service speaks, with any region
    (de, de-AT). The REST document says so, so a tag it allows is never refused."""
    return rf"^(|({'|'.join(map(re.escape, languages()))})(-[A-Za-z0-9]{{1,8}})*)$"


def saved_locale(tag: str) -> str | None:
    """The locale a player may save for a tag: its language when the service speaks it (de-AT is de), "" for ""
    (forget the saved one), None for anything else."""
    if len(tag) > 35 or re.fullmatch(locale_pattern(), tag) is None:
        return None
    return tag.split("-")[0]


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

"""The browser client: web/index.html at / and the rest of web/ (ES modules, CSS, the vendored GraphiQL) under
/static; the client's own words in a language as JSON at /static/locale.json (web_catalogue).

The client is plain files with no build step; it talks to the service only through the public GraphQL API. The files
are package data of `firebreak` (firebreak/web: a link to the repository's web/ in a checkout, a copy inside the
wheel once installed), so the service finds them wherever it is installed, never relative to a checkout.
"""

from __future__ import annotations

import functools
import gettext
import hashlib
import json
from importlib import resources
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from firebreak.api import language
from firebreak.domain import titles

WEB_DIR = Path(str(resources.files("firebreak") / "web"))
NO_CACHE = {"cache-control": "no-cache"}  # revalidate (ETag) on each load, so an upgrade is never half-applied
# The page loads its modules, styles and icon from this origin and talks to /graphql here (fetch and WebSocket); a
# title's module sets style attributes (a colour swatch), hence inline styles; no other page may frame it.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


WEB_DOMAIN = "web"  # the web client's own words: web/locale/<language>/LC_MESSAGES/web.po
PLURAL_SAMPLES = range(0, 1000)  # whole numbers whose CLDR category and catalogue form are compared


def plural_indexes(lang: str, expression: str, forms: int) -> dict[str, int]:
    """Which of the catalogue's plural forms each CLDR plural category of the language is (what Intl.PluralRules
    names in the browser), from the catalogue's own plural expression: {"one": 0, "few": 1, "many": 2, ...}. A
    category no whole number falls in (Ukrainian's "other": fractions) is the last form."""
    pick = gettext.c2py(expression)
    rule = Locale.parse(lang).plural_form
    found: dict[str, int] = {}
    for n in PLURAL_SAMPLES:
        if found.setdefault(rule(n), pick(n)) != pick(n):
            raise ValueError(f"{lang}: the catalogue's plural forms do not follow CLDR's categories (at {n})")
    for category in (*rule.tags, "other"):
        found.setdefault(category, forms - 1)
    return found


def _po(path: Path) -> Catalog | None:
    if not path.is_file():
        return None
    with path.open("rb") as text:
        return read_po(text)


def web_catalogue_path(web_dir: Path, lang: str) -> Path:
    """Where a language's catalogue of the web client's words is."""
    return web_dir / "locale" / lang / "LC_MESSAGES" / f"{WEB_DOMAIN}.po"


@functools.cache
def web_catalogue(web_dir: Path, lang: str) -> tuple[bytes, str]:
    """The web client's catalogue for a language as JSON (and its ETag), compiled once per process: the language,
    the map from CLDR plural category to plural form, every translated message (a plural one as its list of forms)
    and the names of the titles' data (districts, cards, boroughs, colours...) by context, from each title's
    catalogue, so that the page writes a map or a card as the service's labels do."""
    messages: dict[str, str | list[str]] = {}
    catalog = _po(web_catalogue_path(web_dir, lang))
    plural = {"one": 0, "other": 1}
    if catalog is not None:
        plural = plural_indexes(lang, catalog.plural_expr, catalog.num_plurals)
        for message in catalog:
            if not message.id or message.fuzzy or message.context:
                continue
            if isinstance(message.id, tuple | list):
                raw = message.string if isinstance(message.string, tuple | list) else (message.string,)
                strings = [str(s or "") for s in raw]
                if all(strings):
                    messages[str(message.id[0])] = strings
            elif isinstance(message.string, str) and message.string:
                messages[message.id] = message.string
    nouns: dict[str, dict[str, str]] = {}
    for title in titles.all_titles():
        words = getattr(title, "words", None)
        if words is None:
            continue
        found = _po(words.locale / lang / "LC_MESSAGES" / f"{words.domain}.po")
        if found is None:
            continue
        for message in found:
            if message.context and isinstance(message.id, str) and isinstance(message.string, str) and message.string:
                nouns.setdefault(message.context, {})[message.id] = message.string
    body = json.dumps({"lang": lang, "plural": plural, "messages": messages, "nouns": nouns}, ensure_ascii=False,
                      sort_keys=True, separators=(",", ":")).encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:32]}"'


class _Revalidated(StaticFiles):
    """Static files that browsers keep but revalidate before each use."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(NO_CACHE)
        return response


def web_routes(web_dir: Path = WEB_DIR) -> list[BaseRoute]:
    """The routes that serve the client (a 404 at / when the folder is missing, e.g. in a trimmed image)."""
    index = web_dir / "index.html"

    async def home(_: Request) -> Response:
        if not index.is_file():
            return PlainTextResponse("the web client is not installed", status_code=404)
        return FileResponse(index, headers={**NO_CACHE, "content-security-policy": CSP})

    async def catalogue(request: Request) -> Response:
        chosen = request.query_params.get("lang")
        lang = language.negotiate(chosen or request.headers.get("accept-language"))
        body, etag = web_catalogue(web_dir, lang)
        headers = {**NO_CACHE, "etag": etag, "vary": "accept-language"}
        if etag in [tag.strip() for tag in request.headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    return [
        Route("/", home),
        Route("/static/locale.json", catalogue),
        Mount("/static", _Revalidated(directory=web_dir, check_dir=False), name="static"),
    ]

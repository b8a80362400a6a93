"""GraphiQL without the internet: strawberry's GraphiQL page with its scripts and styles served from web/vendor/."""

from __future__ import annotations

import base64
import functools
import hashlib
import re

from strawberry.http.ides import get_graphql_ide_html

VENDOR = "/static/vendor/graphiql/"
URLS = {  # strawberry's unpkg URL -> our copy (web/vendor/graphiql/README.md)
    "https://unpkg.com/react@18.2.0/umd/react.production.min.js": "react.production.min.js",
    "https://unpkg.com/react-dom@18.2.0/umd/react-dom.production.min.js": "react-dom.production.min.js",
    "https://unpkg.com/js-cookie@3.0.5/dist/js.cookie.min.js": "js.cookie.min.js",
    "https://unpkg.com/graphiql@3.8.3/graphiql.min.css": "graphiql.min.css",
    "https://unpkg.com/graphiql@3.8.3/graphiql.min.js": "graphiql.min.js",
    "https://unpkg.com/@graphiql/plugin-explorer@1.0.2/dist/style.css": "plugin-explorer.css",
    "https://unpkg.com/@graphiql/plugin-explorer@1.0.2/dist/index.umd.js": "plugin-explorer.umd.js",
}


INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


class ExplorerOutdated(RuntimeError):
    """Raised when strawberry's GraphiQL page names a URL we have no copy of (after a strawberry upgrade)."""


@functools.cache
def offline_graphiql_html() -> str:
    """strawberry's GraphiQL page with every unpkg URL replaced by our vendored copy."""
    html = get_graphql_ide_html(graphql_ide="graphiql")
    for remote, name in URLS.items():
        html = html.replace(remote, VENDOR + name)
    if "https://unpkg.com" in html:
        raise ExplorerOutdated("strawberry's GraphiQL page loads a file not in web/vendor/graphiql (see its README)")
    return html


@functools.cache
def graphiql_policy() -> str:
    """The page's Content-Security-Policy: its files from this origin, its own inline script (by hash) and styles,
    requests to this origin only (fetch and the subscriptions' WebSocket), and no page may frame it."""
    hashes = " ".join("'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
                      for body in INLINE_SCRIPT.findall(offline_graphiql_html()))
    return (f"default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'")

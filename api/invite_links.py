"""A private match's invite link: FIREBREAK_INVITE_URL with the invite code in place of {code}, resolved against
the service's base URL as the caller reached it when the template is relative (the web client's #/join/CODE)."""

from __future__ import annotations

from urllib.parse import quote, urljoin

from starlette.requests import HTTPConnection


def invite_url(template: str, code: str | None, base: str) -> str | None:
    """The invite link of a code (None without a code): the template's {code} filled in, made absolute against
    base (a URL ending in /) when it is relative."""
    if code is None:
        return None
    return urljoin(base, template.replace("{code}", quote(code, safe="")))


def for_request(template: str, code: str | None, connection: HTTPConnection) -> str | None:
    """The invite link of a code for the caller of this request or connection."""
    return invite_url(template, code, str(connection.base_url))

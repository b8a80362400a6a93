"""notifications/outbound.py, what webhook deliveries and Web Push share: Retry-After as seconds or an HTTP date,
a request sent to the address checked for its host (named in Host and to TLS), and one client per origin so no
connection made for one host serves another at the same address."""

from __future__ import annotations

import asyncio
import email.utils

import pytest

from firebreak.notifications import outbound
from firebreak.notifications.webhooks import destinations
from firebreak.notifications.webhooks.settings import WebhookSettings


@pytest.mark.parametrize(("value", "seconds"), [(None, 0.0), ("", 0.0), ("120", 120.0), ("1.5", 1.5), ("-3", 0.0),
                                                ("nan", 0.0), ("inf", 0.0), ("soon", 0.0)])
def test_retry_after_in_seconds(value: str | None, seconds: float) -> None:
    assert outbound.retry_after(value) == seconds


def test_retry_after_as_an_http_date_is_honoured() -> None:
    now = 1_800_000_000.0
    assert outbound.retry_after(email.utils.formatdate(now + 90, usegmt=True), now=now) == 90.0
    assert outbound.retry_after(email.utils.formatdate(now - 90, usegmt=True), now=now) == 0.0


def test_a_request_goes_to_the_address_checked_and_names_the_host() -> None:
    allowed = WebhookSettings(allowed_hosts="127.0.0.0/8").allowed
    url, headers, extensions = asyncio.run(outbound.pinned("http://localhost:8123/hook?x=1", allowed))
    assert (url.host, url.port, url.path, url.query) == ("127.0.0.1", 8123, "/hook", b"x=1")
    assert headers == {"host": "localhost:8123"} and extensions == {"sni_hostname": "localhost"}
    with pytest.raises(destinations.Refused):
        asyncio.run(outbound.pinned("http://localhost:8123/hook", WebhookSettings().allowed))


def test_one_client_per_origin() -> None:
    clients = outbound.OriginClients(timeout=1.0, concurrency=2)
    one = clients.get("https://a.example/push/1")
    assert clients.get("https://a.example/push/2") is one
    assert clients.get("https://b.example/push/1") is not one
    assert clients.get("https://a.example:8443/push/1") is not one
    asyncio.run(clients.aclose())
    assert clients.clients == {}

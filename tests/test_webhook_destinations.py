"""notifications/webhooks/destinations.py: every spelling of an internal address is read as the address a resolver
would connect to and refused; FIREBREAK_WEBHOOK_ALLOWED_HOSTS allows names and networks and refuses anything else;
the settings' own endpoint follows the same rule (issue 47, part 5, item 3)."""

from __future__ import annotations

import asyncio
import ipaddress
import socket

import pytest

from firebreak.matches.envsettings import SettingsError
from firebreak.notifications.webhooks.destinations import Allowed, Refused, check_host, forbidden, literal, vetted
from firebreak.notifications.webhooks.settings import WebhookSettings
from firebreak.notifications.webhooks.signing import new_secret


@pytest.mark.parametrize(("host", "address"), [
    ("127.0.0.1", "127.0.0.1"), ("2130706433", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"),
    ("0x7f000001", "127.0.0.1"), ("127.1", "127.0.0.1"), ("10.1", "10.0.0.1"), ("169.254.43518", "169.254.169.254"),
    ("0", "0.0.0.0"), ("[::1]", "::1"), ("::ffff:127.0.0.1", "::ffff:127.0.0.1"), ("127.0.0.1.", "127.0.0.1"),
])
def test_every_spelling_of_an_address_is_read_as_a_resolver_reads_it(host: str, address: str) -> None:
    assert literal(host) == ipaddress.ip_address(address)
    if ":" not in address:  # the system's resolver agrees (IPv4 spellings)
        resolved = socket.getaddrinfo(host.rstrip("."), 80, socket.AF_INET, socket.SOCK_STREAM)
        assert {info[4][0] for info in resolved} == {address}


@pytest.mark.parametrize("host", ["example.com", "1.2.3.4.5", "256.1.1.1", "08.1.1.1", "0x", "1e100.net",
                                  "hooks.internal", "4294967296"])
def test_a_name_is_no_address(host: str) -> None:
    assert literal(host) is None


@pytest.mark.parametrize(("address", "kind"), [
    ("127.0.0.1", "loopback"), ("10.0.0.1", "private"), ("172.16.5.4", "private"), ("192.168.0.1", "private"),
    ("169.254.169.254", "link-local"), ("0.0.0.0", "unspecified"), ("224.0.0.1", "multicast"),
    ("240.0.0.1", "private"), ("::7f00:1", "reserved"), ("100.64.0.1", "non-global"), ("::1", "loopback"),
    ("::", "unspecified"),
    ("fd00:ec2::254", "private"), ("fe80::1", "link-local"), ("ff02::1", "multicast"),
    ("::ffff:127.0.0.1", "loopback"), ("::ffff:169.254.169.254", "link-local"), ("64:ff9b::a00:1", "private"),
    ("2002:c0a8:101::1", "private"), ("93.184.215.14", None), ("2606:4700::1111", None), ("8.8.8.8", None),
])
def test_internal_addresses_are_refused_and_public_ones_taken(address: str, kind: str | None) -> None:
    assert forbidden(ipaddress.ip_address(address)) == kind


def test_the_allowed_hosts_allow_by_name_and_by_network() -> None:
    allowed = Allowed.of(["Hooks.Internal.", "10.0.0.0/8", "127.0.0.1", "fd00::/8"])
    for host in ("hooks.internal", "10.20.30.40", "0xa.1", "127.0.0.1", "2130706433", "[fd00::5]"):
        check_host(host, allowed)
    for host in ("192.168.0.1", "127.0.0.2", "localhost", "[::1]", "[::ffff:c0a8:1]"):
        with pytest.raises(Refused, match="FIREBREAK_WEBHOOK_ALLOWED_HOSTS"):
            check_host(host, allowed)
    check_host("[::ffff:10.0.0.1]", allowed)  # a mapped address of an allowed network
    for bad in ("*.example.com", "http://x", "10.0.0.0/33", "a b"):
        with pytest.raises(ValueError, match="FIREBREAK_WEBHOOK_ALLOWED_HOSTS"):
            Allowed.of([bad])


def test_a_name_is_judged_by_every_address_it_resolves_to() -> None:
    """localhost resolves to loopback addresses: refused unless allowed by name or network; an allowed name is
    connected to as named (no address pinned); an allowed network pins the address checked."""
    with pytest.raises(Refused, match="loopback"):
        asyncio.run(vetted("localhost", 80, Allowed()))
    assert asyncio.run(vetted("LOCALHOST", 80, Allowed.of(["localhost"]))) is None
    pinned = asyncio.run(vetted("localhost", 80, Allowed.of(["127.0.0.0/8", "::1"])))
    assert pinned is not None and forbidden(ipaddress.ip_address(pinned)) == "loopback"


def test_the_settings_endpoint_follows_the_same_rule() -> None:
    secret = new_secret()
    with pytest.raises(SettingsError, match=r"FIREBREAK_WEBHOOK_URL.*loopback"):
        WebhookSettings.from_env({"FIREBREAK_WEBHOOK_URL": "http://127.0.0.1:9/x", "FIREBREAK_WEBHOOK_SECRET": secret})
    allowed = WebhookSettings.from_env({"FIREBREAK_WEBHOOK_URL": "http://127.0.0.1:9/x",
                                        "FIREBREAK_WEBHOOK_SECRET": secret,
                                        "FIREBREAK_WEBHOOK_ALLOWED_HOSTS": " 127.0.0.1 , hooks.internal,"})
    assert allowed.allowed_hosts == ("127.0.0.1", "hooks.internal")
    with pytest.raises(SettingsError, match="FIREBREAK_WEBHOOK_ALLOWED_HOSTS"):
        WebhookSettings.from_env({"FIREBREAK_WEBHOOK_ALLOWED_HOSTS": "https://hooks.example"})

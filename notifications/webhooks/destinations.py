"""Where deliveries may go: never into the service's own networks (no server-side request forgery through an
endpoint's URL), unless the operator allows a host or a network for a private deployment
(FIREBREAK_WEBHOOK_ALLOWED_HOSTS).

An address is refused when it is not a public one: loopback, private, link-local (the cloud metadata address
169.254.169.254 among them), unique-local, multicast, unspecified, reserved or otherwise not global, an IPv6 address
that carries an IPv4 one (mapped, 6to4, NAT64) judged by the IPv4 address it carries. The check runs twice: when an
endpoint is registered, on the URL's host if it is an address, whatever its spelling (127.0.0.1, 2130706433,
0x7f.1, 0177.0.0.1, [::ffff:127.0.0.1]; and localhost), and before every attempt, on every address its host
resolves to, the attempt then connecting to the address checked (a name cannot resolve elsewhere in between).
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

SETTING = "FIREBREAK_WEBHOOK_ALLOWED_HOSTS"
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_PART = re.compile(r"(0x[0-9a-f]+|0[0-7]*|[1-9][0-9]*)\Z")  # a part of an IPv4 address as a resolver reads it
_NAME = re.compile(r"(?=.{1,253}\Z)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\Z")


class Refused(ValueError):
    """Raised when deliveries may not go to a host: it is, or resolves to, an address that is not public (the
    message says which kind, and how to allow it)."""


def normal(host: str) -> str:
    """A host as compared: lower case, no brackets, no trailing dot."""
    return host.strip().strip("[]").lower().rstrip(".")


def literal(host: str) -> Address | None:
    """The address a host is by itself, in any spelling a resolver takes (dotted, one number, hex or octal parts,
    fewer than four parts; IPv6), or None for a name."""
    host = normal(host)
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    parts = host.split(".")
    if not 1 <= len(parts) <= 4 or not all(_PART.match(part) for part in parts):
        return None
    numbers = [int(p, 16) if p.startswith("0x") else int(p, 8) if p.startswith("0") else int(p) for p in parts]
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(parts)):
        return None
    return ipaddress.IPv4Address(sum(n << 8 * (3 - i) for i, n in enumerate(head)) + last)


def carried(address: Address) -> Address:
    """The IPv4 address an IPv6 one carries (mapped, 6to4, NAT64), else the address itself."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address.sixtofour is not None:
            return address.sixtofour
        if address in NAT64:
            return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address


def forbidden(address: Address) -> str | None:
    """Why deliveries may not go to this address (the kind of address), or None for a public one."""
    address = carried(address)
    kinds = (("unspecified", address.is_unspecified), ("loopback", address.is_loopback),
             ("link-local", address.is_link_local), ("multicast", address.is_multicast),
             ("private", address.is_private), ("reserved", address.is_reserved), ("non-global", not address.is_global))
    return next((kind for kind, found in kinds if found), None)


@dataclass(frozen=True)
class Allowed:
    """The hosts (by name) and networks deliveries may reach although they are not public."""

    names: frozenset[str] = frozenset()
    networks: tuple[Network, ...] = ()
    setting: str = SETTING  # the variable that allows them, named by a refusal (push has its own)

    @classmethod
    def of(cls, entries: Iterable[str], setting: str = SETTING) -> Allowed:
        """From the setting's entries: host names, addresses and networks (10.0.0.0/8); raise ValueError for
        anything else."""
        names: set[str] = set()
        networks: list[Network] = []
        for entry in entries:
            entry = normal(entry)
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
                continue
            except ValueError:
                pass
            if not _NAME.match(entry) or literal(entry) is not None:
                raise ValueError(f"{setting} takes host names, addresses and networks (10.0.0.0/8), comma-separated, "
                                 f"not {entry[:60]!r}")
            names.add(entry)
        return cls(frozenset(names), tuple(networks), setting)

    def address(self, address: Address) -> bool:
        """Whether an address is in an allowed network (an IPv6 one also by the IPv4 address it carries)."""
        return any(a in network for a in {address, carried(address)} for network in self.networks)


def check_host(host: str, allowed: Allowed) -> None:
    """At registration: raise Refused when the host is, by itself, an address deliveries may not reach (a name is
    checked when a delivery resolves it), or localhost."""
    name = normal(host)
    if name in allowed.names:
        return
    address = literal(name)
    if address is None:
        if name == "localhost" or name.endswith(".localhost"):
            raise Refused(f"the URL's host is localhost, a loopback address: deliveries may not go there unless "
                          f"{allowed.setting} allows it")
        return
    _judge(address, allowed, "the URL's host is")


async def vetted(host: str, port: int, allowed: Allowed) -> str | None:
    """Before an attempt: the address to connect to for host:port, every address the host resolves to checked
    (None: a host allowed by name, connected to as named); raise Refused, or OSError when it does not resolve."""
    name = normal(host)
    if name in allowed.names:
        return None
    found = await asyncio.get_running_loop().getaddrinfo(name, port, type=socket.SOCK_STREAM)
    addresses = [ipaddress.ip_address(str(info[4][0]).partition("%")[0]) for info in found]
    if not addresses:
        raise OSError(f"{name} resolves to no address")
    for address in addresses:
        _judge(address, allowed, "the endpoint's host resolves to")
    return str(addresses[0])


def _judge(address: Address, allowed: Allowed, says: str) -> None:
    kind = forbidden(address)
    if kind is not None and not allowed.address(address):
        raise Refused(f"{says} a {kind} address ({address}): deliveries may not go there unless {allowed.setting} "
                      "allows it")

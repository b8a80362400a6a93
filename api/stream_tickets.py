"""The one-time ticket that opens the player's event stream where no Authorization header can be sent (a browser's
EventSource): POST /v1/me/events/ticket (GraphQL's createEventsTicket) hands one out for the caller's credential, and
GET /v1/me/events?ticket= takes it once (api/tickets.py: kept as its SHA-256, 60 seconds, single use).

A ticket holds the player and what the credential it was made from is (its kind; its session family or personal
access token; the player's token version; when it expires), never the credential itself. Redeeming it, and the
stream it opens every `events_recheck_seconds` after, check that this credential still holds as verifying it would
(signed out here or everywhere, a token revoked, the credential expired): a ticket is never worth more than its
credential, and outlives it neither unused nor as a stream.

Long-lived credentials never go in a URL: a refresh token, an access token or a personal access token presented as
a ticket (or as ?access_token=) is refused as such, looked up nowhere.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from firebreak.api.services import Services
from firebreak.api.tickets import TicketKind
from firebreak.players import keys
from firebreak.players.authenticate import player_credential
from firebreak.players.directory import ID
from firebreak.players.errors import Reason, Unauthenticated
from firebreak.players.records import Player, Principal, Via
from firebreak.players.sessions import REFRESH_PREFIX

TICKETS = TicketKind("fbe_", "events-ticket", 60)  # a stream ticket lives a minute unless used
IN_URL = ("a credential is never taken in a URL (it would be kept in logs and histories): send it as "
          "Authorization, or open the stream with ?ticket= from POST /v1/me/events/ticket")


class CredentialInUrl(Unauthenticated):
    """Raised when a credential is put in a URL (?access_token=, or a refresh or access token as a ticket): refused
    as malformed, and never looked up."""

    def __init__(self) -> None:
        super().__init__(Reason.MALFORMED)
        self.message = IN_URL
        self.args = (IN_URL,)


def credential_shaped(value: str) -> bool:
    """Whether a value has the shape of a credential rather than a stream ticket: a refresh token, a personal access
    token or a JWT (any of our access tokens or the operator's)."""
    return value.startswith(REFRESH_PREFIX) or player_credential(f"Bearer {value}") is not None


@dataclass(frozen=True)
class Held:
    """What a stream ticket stands for: the player and the credential it was made from (never the credential)."""

    player: str
    via: Via
    version: int
    session: str | None = None
    token: str | None = None
    expires: float | None = None

    def to_json(self) -> str:
        """The stored form."""
        return json.dumps({"player": self.player, "via": self.via.value, "ver": self.version,
                           "session": self.session, "token": self.token, "exp": self.expires}, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str) -> Held | None:
        """Read a stored ticket (None for anything that is not one)."""
        try:
            data = json.loads(raw)
            held = cls(str(data["player"]), Via(data["via"]), int(data["ver"]), data.get("session"),
                       data.get("token"), None if data.get("exp") is None else float(data["exp"]))
        except (ValueError, KeyError, TypeError):
            return None
        return held if ID.match(held.player) else None


async def issue(services: Services, principal: Principal, expires: float | None) -> tuple[str, int]:
    """A fresh stream ticket for the principal's credential (which expires then: None for a kind that says not, a
    personal access token: rechecks find its end), and how many seconds it lives."""
    held = Held(principal.player.id, principal.via, principal.player.token_version, principal.session_id,
                principal.token_id, expires)
    return await TICKETS.issue(services.store.redis, held.to_json())


async def redeem(services: Services, ticket: str) -> Held:
    """What a ticket stands for, taking it, once its credential is found to still hold (raise Unauthenticated:
    MALFORMED for a credential put in its place, INVALID for a ticket unknown, used or expired, or why its
    credential no longer holds)."""
    if credential_shaped(ticket):
        raise CredentialInUrl()
    raw = await TICKETS.redeem(services.store.redis, ticket)
    held = None if raw is None else Held.from_json(raw)
    if held is None:
        raise Unauthenticated(Reason.INVALID)
    refused = await recheck(services, held)
    if refused is not None:
        raise refused
    return held


async def recheck(services: Services, held: Held) -> Unauthenticated | None:
    """Whether the credential a ticket was made from still holds, as verifying it would find (its refusal, or None):
    our session's access token while the player's token version and its session family stand; a personal access
    token while it is kept and not expired; the operator's JWT while its player is; none of a banned player (and,
    for all, until it expires: the stream's guard ends it then)."""
    if held.expires is not None and time.time() >= held.expires:
        return Unauthenticated(Reason.EXPIRED)
    redis = services.store.redis
    pipe = redis.pipeline(transaction=False)
    pipe.hgetall(keys.player(held.player))
    if held.via is Via.SESSION and held.session is not None:
        pipe.hget(keys.family(held.player, held.session), "ver")
    elif held.via is Via.ACCESS_TOKEN and held.token is not None:
        pipe.hget(keys.token(held.player, held.token), "expires")
    replies = await pipe.execute()
    if not replies[0]:  # no such player (an account deleted)
        return Unauthenticated(Reason.UNKNOWN)
    if Player.from_fields(held.player, replies[0]).banned():
        return Unauthenticated(Reason.BANNED)
    version = replies[0].get("ver")
    if held.via is Via.SESSION:
        family = replies[1] if len(replies) > 1 else None
        if str(version) != str(held.version) or family != version:
            return Unauthenticated(Reason.REVOKED)
    elif held.via is Via.ACCESS_TOKEN:
        ends = replies[1] if len(replies) > 1 else None
        if ends is None:
            return Unauthenticated(Reason.REVOKED)
        if float(ends) <= time.time():
            return Unauthenticated(Reason.EXPIRED)
    return None

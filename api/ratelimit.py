"""What the API rate-limits: every mutation (per bearer token and per client address) and every failed
authentication (per client address; past the limit the client's credentials are refused for a while)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    SelectionSetNode,
)
from graphql.utilities import get_operation_ast

from firebreak.chat.config import ChatSettings
from firebreak.matches import keys
from firebreak.matches.config import Settings
from firebreak.matches.ratelimit import Charge, Rate, RateLimiter, Verdict, client_bucket, token_bucket
from firebreak.matches.refusals import Refusal
from firebreak.matches.store import hash_token
from firebreak.players.config import PlayerSettings

MAX_BLOCKED = 10_000  # client addresses remembered as blocked by one process (expired ones are dropped first)


def rate_limited(retry_after: float) -> GraphQLError:
    """The GraphQL error of a refused request: code RATE_LIMITED and retryAfter in seconds."""
    seconds = max(0.001, math.ceil(retry_after * 1000) / 1000)
    return GraphQLError(f"too many requests; retry after {seconds:g} s",
                        extensions={"code": Refusal.RATE_LIMITED.value, "retryAfter": seconds})


def retry_after_header(retry_after: float) -> str:
    """Retry-After for HTTP: whole seconds, at least 1."""
    return str(max(1, math.ceil(retry_after)))


def root_fields(document: DocumentNode, operation_name: str | None) -> int:
    """How many root fields the operation selects (each mutation field is one request to the limiter)."""
    operation = get_operation_ast(document, operation_name)
    if operation is None:
        return 1
    fragments = {d.name.value: d.selection_set for d in document.definitions if isinstance(d, FragmentDefinitionNode)}

    def count(selection_set: SelectionSetNode, seen: set[str]) -> int:
        total = 0
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                total += 1
            elif isinstance(selection, InlineFragmentNode):
                total += count(selection.selection_set, seen)
            elif isinstance(selection, FragmentSpreadNode) and selection.name.value not in seen:
                seen.add(selection.name.value)
                nested = fragments.get(selection.name.value)
                total += count(nested, seen) if nested is not None else 0
        return total

    return max(1, count(operation.selection_set, set()))


@dataclass
class Limits:
    """The limits of one API process: the shared buckets in Redis, and the clients it refuses credentials from."""

    settings: Settings
    limiter: RateLimiter
    players: PlayerSettings = field(default_factory=PlayerSettings)
    blocked: dict[str, float] = field(default_factory=dict)  # client -> time.monotonic() when it may try again

    def __post_init__(self) -> None:
        s = self.settings
        self.client_rate = Rate(s.rate_client_per_second, s.rate_client_burst)
        self.token_rate = Rate(s.rate_token_per_second, s.rate_token_burst)
        self.chat_rate = ChatSettings.from_env().rate

    async def mutations(self, client: str, token: str | None, count: int) -> Verdict:
        """Take `count` mutations from the client's bucket and, with a token, from the token's (a limit that is off
        takes nothing: its bucket is not even named)."""
        charges = []
        if self.client_rate.enabled:
            charges.append(Charge(client_bucket(client, "mutations"), self.client_rate, count))
        if token and self.token_rate.enabled:
            charges.append(Charge(token_bucket(hash_token(token), "mutations"), self.token_rate, count))
        return await self.limiter.take(charges)

    async def registration(self, client: str) -> Verdict:
        """Take one guest sign-in from the client's registrations bucket (FIREBREAK_RATE_REGISTRATION_*)."""
        return await self.limiter.take([Charge(client_bucket(client, "registrations"),
                                               self.players.registration_rate)])

    async def export(self, player: str) -> Verdict:
        """Take one data export from the player's exports bucket (FIREBREAK_RATE_EXPORTS_*; its key names the
        player only by a hash)."""
        rate = self.players.export_rate
        if not rate.enabled:
            return Verdict(True, 0.0)
        return await self.limiter.take([Charge(keys.rate_bucket("exports", f"player:{hash_token(player)}"), rate)])

    async def chat(self, sender: str) -> Verdict:
        """Take one chat message from the sender's bucket (FIREBREAK_CHAT_*; sender: api/chat.py's who())."""
        return await self.limiter.take([Charge(keys.rate_bucket("chat", sender), self.chat_rate)])

    async def auth_failed(self, client: str) -> Verdict:
        """Count a failed authentication; once the client has none left, block its credentials until refilled."""
        s = self.settings
        verdict = await self.limiter.take([Charge(client_bucket(client, "auth-failures"),
                                                  Rate(s.rate_auth_failures_per_second, s.rate_auth_failures_burst))])
        if not verdict.allowed:
            now = time.monotonic()
            if len(self.blocked) >= MAX_BLOCKED:
                self.blocked = {c: until for c, until in self.blocked.items() if until > now}
            # blocked until the bucket holds one attempt again
            self.blocked[client] = now + verdict.retry_after
        return verdict

    def blocked_for(self, client: str) -> float:
        """Seconds during which this client's credentials are still refused (0: not blocked)."""
        until = self.blocked.get(client)
        if until is None:
            return 0.0
        left = until - time.monotonic()
        if left <= 0:
            del self.blocked[client]
            return 0.0
        return left

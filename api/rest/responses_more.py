"""More REST answer bodies as pydantic models (see responses.py): rematches, invitations, seeks, exports,
leaderboards and the admin API's webhooks."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from firebreak.api.rest.responses import (
    GAMES,
    JSON,
    MU,
    PROVISIONAL,
    RANK,
    RATING_VALUE,
    SIGMA,
    Answer,
    Match,
    RatingChange,
    RematchOffer,
    d,
    enum_of,
)
from firebreak.matches.lifecycle import EndReason
from firebreak.matchmaking.seeks import SeekStatus


class Rematched(Answer):
    """The rematch (the same for every caller), the caller's seat in it, and its offer."""

    matchId: Annotated[str, d("The rematch's id (the match exists once every person accepted).")]
    seat: Annotated[int, d("The caller's seat in the rematch.")]
    match: Annotated[Match | None, d("The rematch as the caller sees it; null until every person accepted.")]
    offer: RematchOffer


class PlayersInvited(Answer):
    """The players are invited."""

    matchId: str
    playerIds: list[str]
    invitedAt: float


class Inviter(Answer):
    """The player who sent an invitation."""

    id: str
    name: str | None
    handle: Annotated[str | None, d("The player's handle (null: the player is gone).")] = None


class Invitation(Answer):
    """An open invitation to a waiting match."""

    match: Match
    sender: Annotated[Inviter | None, Field(alias="from", description="The inviting player (null: the host token).")]
    invitedAt: Annotated[float, d("When (epoch seconds).")]


class InvitationList(Answer):
    """The player's open invitations, newest first."""

    items: list[Invitation]


class InvitationAnswered(Answer):
    """The invitation is answered."""

    matchId: str
    accepted: bool
    seat: int | None
    token: Annotated[str | None, d("The seat's secret, shown once (null: declined).")]
    started: bool


class Seek(Answer):
    """A player's seek: what it asks for and where it is."""

    id: str
    status: Annotated[str, enum_of([status.name for status in SeekStatus],
                                   "MATCHING: its table is being made into a match.")]
    title: str
    seats: int
    options: Annotated[JSON, d("The pool's options, defaults filled.")]
    botsAfterSeconds: float | None
    createdAt: Annotated[float, d("When it was made (epoch seconds).")]
    expiresAt: Annotated[float, d("When it expires unless matched (epoch seconds).")]
    endedAt: Annotated[float | None, d("When it was matched, cancelled or expired.")]
    matchId: Annotated[str | None, d("The match it was seated in (MATCHED).")]
    seat: Annotated[int | None, d("The player's seat in that match (MATCHED).")]


class SeekList(Answer):
    """The player's seeks, newest first."""

    items: list[Seek]


class ExportSeat(Answer):
    """Who sat in a seat."""

    seat: int
    kind: Annotated[str, enum_of(["player", "bot", "anonymous", "deleted", "open"],
                                 "player: bound to a player (player holds the id); bot: a bot of `level`; anonymous: "
                                 "a person who joined without a player credential; deleted: a player who deleted "
                                 "their account since (no id); open: never taken (a cancelled match).")]
    name: str = ""
    player: str | None = None
    handle: Annotated[str | None, d("The player's handle now (player seats; null: the player is gone).")] = None
    level: str | None = None
    program: bool = False
    control: Annotated[str | None, enum_of(["takenOver", "resigned", None], "Why the service played a person's seat "
                                                                           "at the end (null: its owner did).")] = None


class SeatRatingChange(RatingChange):
    """How the match moved one seat's rating."""

    seat: int
    key: Annotated[str, d("The player's id, or bot:<level> for a bot level.")]


class MatchExport(Answer):
    """A finished match, self-contained: it replays through the title's engine to the same result."""

    format: Literal["firebreak.match-export"]
    version: Annotated[Literal[1], d("The document's version.")]
    id: str
    title: str
    seatCount: int
    options: Annotated[JSON, d("The options the match was created with (defaults filled in).")]
    seed: Annotated[int, d("The engine's seed: the title's new match of this seed, seat count and options is where "
                           "the log starts.")]
    seats: list[ExportSeat]
    createdAt: float
    startedAt: float | None
    endedAt: float
    endReason: Annotated[str, enum_of([reason.name for reason in EndReason])]
    finalVersion: Annotated[int, d("How many steps the log holds.")]
    log: list[Annotated[JSON, d("One step: {seat, action} (with bot or takeover when the service chose it), {system: "
                                "true} for a non-player step, or {service, events} for a step of the service's that "
                                "changes no game state; pre: events the service stored before the engine's (a "
                                "spectator's part only).")]]
    result: Annotated[JSON | None, d("{endReason, reason, winners, resigned, scores: [{seat, total, parts}]} as the "
                                     "match gave it.")]
    ratingChanges: Annotated[list[SeatRatingChange], d("The rating changes the match made, by seat (empty: not "
                                                       "rated, or not applied yet).")]


class LeaderboardEntry(Answer):
    """One rated player or bot level on a title's leaderboard."""

    rank: Annotated[int, RANK]
    player: Annotated[str | None, d("The player's id (null: a bot level).")]
    botLevel: Annotated[str | None, d("The bot level rated here (null: a player).")]
    name: Annotated[str, d("The player's display name, or \"<level> bot\".")]
    handle: Annotated[str | None, d("The player's handle (null: a bot level, or a player gone).")]
    rating: Annotated[int, RATING_VALUE]
    provisional: Annotated[bool, PROVISIONAL]
    games: Annotated[int, GAMES]
    mu: Annotated[float, MU]
    sigma: Annotated[float, SIGMA]
    cursor: Annotated[str, d("Pass as after to list the entries after this one.")]


class Leaderboard(Answer):
    """A page of a title's leaderboard, highest rating first; pass endCursor as after for the next."""

    items: list[LeaderboardEntry]
    endCursor: str | None
    hasNextPage: bool


class WebhookEndpoint(Answer):
    """A webhook endpoint (never its secrets)."""

    id: Annotated[str, d("default: the settings' FIREBREAK_WEBHOOK_URL.")]
    url: str
    eventTypes: Annotated[list[str], d("The types it takes (empty: every type).")]
    description: str
    created: float
    fromSettings: bool
    secretCount: Annotated[int, d("Secrets signing each delivery (2 while rotating).")]


class WebhookEndpointList(Answer):
    """Every webhook endpoint."""

    items: list[WebhookEndpoint]


class WebhookEndpointCreated(Answer):
    """The added endpoint and its secret."""

    endpoint: WebhookEndpoint
    secret: Annotated[str, d("Its whsec_ secret, shown this once.")]


class WebhookSecretRotated(Answer):
    """The endpoint's new secret."""

    endpoint: WebhookEndpoint
    secret: Annotated[str, d("The new whsec_ secret, shown this once.")]


class WebhookEndpointDeleted(Answer):
    """The removed endpoint."""

    id: str
    abandoned: Annotated[int, d("Deliveries not yet done, now marked failed.")]


class WebhookDelivery(Answer):
    """One event's delivery to one endpoint."""

    id: Annotated[str, d("The webhook-id header of every attempt.")]
    endpointId: str
    playerId: str
    eventId: str
    type: str
    status: Annotated[str, enum_of(["pending", "sending", "succeeded", "failed"])]
    attempts: int
    created: float
    nextAttempt: float | None
    lastAttempt: float | None
    lastStatus: int | None
    lastError: str | None
    latencySeconds: float | None
    finished: float | None
    payload: Annotated[JSON, d("The body sent: {type, timestamp, data}.")]


class WebhookDeliveryPage(Answer):
    """A page of kept deliveries, newest first."""

    items: list[WebhookDelivery]
    endCursor: str | None
    hasNextPage: bool


class WebhookRedelivered(Answer):
    """The delivery, due again now."""

    delivery: WebhookDelivery



class PushSubscription(Answer):
    """One of the player's push registrations (a browser's PushSubscription; its keys are never shown again)."""

    id: Annotated[str, Field(description="The registration's id (the same for the same endpoint).")]
    kind: Annotated[str, Field(description="webpush (a browser) or fcm (a native app's device token).")]
    endpoint: Annotated[str, Field(description="The push endpoint; for fcm, fcm: and the token's first characters.")]
    created: float


class PushSubscriptionList(Answer):
    """The player's push registrations, oldest first."""

    items: list[PushSubscription]


class PushSubscriptionRegistered(Answer):
    """The registration made (or replaced, for an endpoint registered before)."""

    subscription: PushSubscription


class PushSubscriptionRemoved(Answer):
    """Whether a registration was removed."""

    id: str
    removed: Annotated[bool, Field(description="false: the player had no registration with this id.")]


class PushPreferences(Answer):
    """Every pushed kind and whether the player wants it pushed."""

    yourTurn: bool
    matchEnded: bool
    invited: bool
    rematchOffered: bool
    seekMatched: bool
    seatTakenOver: bool
    friendRequested: bool
    friendAccepted: bool


class VapidPublicKey(Answer):
    """The key browsers subscribe with."""

    publicKey: Annotated[str, Field(description="The VAPID public key (an uncompressed P-256 point, base64url): "
                                                "PushManager.subscribe's applicationServerKey.")]

"""The expected failures as GraphQL types (members of the result unions), found by the registry's type names."""

from __future__ import annotations

import strawberry

from firebreak.api import problem_words
from firebreak.matches.refusals import VERSIONED, Refusal, registered
from firebreak.players.errors import BadHandle as HandleRefused
from firebreak.players.errors import PlayerError, Reason
from firebreak.players.errors import PlayerNotFound as PlayerGone
from firebreak.players.errors import Unauthenticated as PlayersUnauthenticated


@strawberry.interface
class Problem:
    """An expected failure: a stable code to branch on and a message for people."""

    code: str = strawberry.field(description="A stable machine-readable code, e.g. STALE_VERSION, ILLEGAL_ACTION.")
    message: str = strawberry.field(description="What went wrong, for people (never contains a token), in the "
                                                "reader's language: in English the precise message, in another "
                                                "language what the code means.")

    def __post_init__(self) -> None:
        """The message in the request's language (api/problem_words.py)."""
        self.message = problem_words.said(self.code, self.message)


@strawberry.type
class MatchNotFound(Problem):
    """No match has this id (or it has expired)."""


@strawberry.type
class Unauthorized(Problem):
    """The bearer token is missing or is not valid for this match."""


@strawberry.type
class InvalidInput(Problem):
    """The request's values are not acceptable (unknown title, seat count, option, seat, bot level...)."""


@strawberry.type
class SeatTaken(Problem):
    """The seat asked for is taken (or every seat is)."""


@strawberry.type
class MatchStarted(Problem):
    """The match has started: its seats can no longer change."""


@strawberry.type
class IllegalAction(Problem):
    """The action is malformed or not legal now; nothing changed."""

    version: int | None = strawberry.field(description="The match's current version.")


@strawberry.type
class NotYourTurn(Problem):
    """Another seat (or the service) owes the decision; nothing changed."""

    version: int | None = strawberry.field(description="The match's current version.")


@strawberry.type
class StaleVersion(Problem):
    """The match is no longer at expectedVersion; read it again and resubmit if still wanted."""

    current_version: int = strawberry.field(description="The version the match is at now.")


@strawberry.type
class MatchOver(Problem):
    """The match has ended."""

    version: int | None = strawberry.field(description="The match's final version.")


@strawberry.type
class MatchNotStarted(Problem):
    """Seats are still open; the match starts when every seat is taken."""


@strawberry.type
class Unauthenticated(Problem):
    """A player credential is needed and none was sent, or the one sent is malformed, expired, forged or revoked
    (reason says which); nothing changed."""

    reason: str = strawberry.field(description="missing, malformed, expired, invalid, algorithm, revoked, reused, "
                                               "unknown, not_configured or unavailable.")


@strawberry.type
class ForbiddenScope(Problem):
    """The credential is valid but may not do this (a personal access token managing the account, or one without
    the scope the operation needs); nothing changed."""


@strawberry.type
class AlreadySeated(Problem):
    """The player already holds a seat of this match (one seat per player per match)."""


@strawberry.type
class TooManyTokens(Problem):
    """The player holds the most personal access tokens allowed: revoke one first."""


@strawberry.type
class TokenNotFound(Problem):
    """The player has no personal access token with this id."""


@strawberry.type
class IdentityTaken(Problem):
    """The operator's identity belongs to another player already."""


@strawberry.type
class AlreadyLinked(Problem):
    """The player is linked to another identity of the operator's provider already."""


@strawberry.type
class SeatTakenOver(Problem):
    """The service's bot plays this seat since its clock ran out: take it back with reclaimSeat, then act; nothing
    changed."""

    version: int | None = strawberry.field(description="The match's current version.")


@strawberry.type
class SeatResigned(Problem):
    """The seat has resigned: it no longer acts, resigns again or reclaims; nothing changed."""

    version: int | None = strawberry.field(description="The match's current version.")


@strawberry.type
class NotTakenOver(Problem):
    """The seat is not taken over (its owner plays it): there is nothing to reclaim; nothing changed."""

    version: int | None = strawberry.field(description="The match's current version.")


@strawberry.type
class NotCreator(Problem):
    """Only the match's creator (its host token, or the player who created it) may do this; nothing changed."""


@strawberry.type
class MatchNotOver(Problem):
    """A rematch needs the match to be over; it is not yet."""


@strawberry.type
class InviteCodeNotFound(Problem):
    """No waiting match has this invite code (counted as a failed authentication)."""


@strawberry.type
class PlayerNotFound(Problem):
    """No player has this id (or handle)."""


@strawberry.type
class AlreadyInvited(Problem):
    """The player is invited to this match already."""


@strawberry.type
class InvitationNotFound(Problem):
    """The player has no open invitation to this match."""


@strawberry.type
class NoRematchOffer(Problem):
    """No rematch offer of this match stands to accept or decline: offer one."""


@strawberry.type
class TooManySeeks(Problem):
    """The player already seeks in this pool, or holds the most open seeks allowed: cancel one first."""


@strawberry.type
class SeekNotFound(Problem):
    """The player has no seek with this id."""


@strawberry.type
class SeekNotWaiting(Problem):
    """The seek is no longer waiting (being matched, matched, cancelled or expired); nothing changed."""


@strawberry.type
class AdminUnauthorized(Problem):
    """The operation needs the operator's admin token as the bearer credential."""


@strawberry.type
class WebhookNotFound(Problem):
    """No webhook endpoint added through the admin API has this id."""


@strawberry.type
class DeliveryNotFound(Problem):
    """No kept webhook delivery has this id."""


@strawberry.type
class RatedNeedsPlayer(Problem):
    """A rated match seats players and bots only: join it with a player credential."""


@strawberry.type
class NotAccepted(Problem):
    """The other player does not take this from you now (a friend request, an invitation, a rematch offer); the
    service does not say why. Nothing changed."""


@strawberry.type
class AlreadyFriends(Problem):
    """The two players are friends already; nothing changed."""


@strawberry.type
class FriendNotFound(Problem):
    """This player is not your friend; nothing changed."""


@strawberry.type
class FriendRequestNotFound(Problem):
    """No friend request between you and this player waits for this answer; nothing changed."""


@strawberry.type
class TooManyFriends(Problem):
    """You have as many friends (with the requests you sent) as allowed: remove one first."""


@strawberry.type
class TooManyFriendRequests(Problem):
    """You have as many friend requests waiting for an answer as allowed: cancel one first."""


@strawberry.type
class TooManyBlocks(Problem):
    """You block as many players as allowed: unblock one first."""


@strawberry.type
class PlayerBlocked(Problem):
    """You block this player: unblock them first; nothing changed."""


@strawberry.type
class BadHandle(Problem):
    """The handle breaks the grammar (3-24 characters after NFKC, letters and digits of one script and '-', '_',
    '.', starting and ending with a letter or digit); nothing changed."""

    reason: str = strawberry.field(description="too_short, too_long, characters, punctuation or mixed_script.")


@strawberry.type
class HandleTaken(Problem):
    """Another player holds this handle (compared case-folded after NFKC); nothing changed."""


@strawberry.type
class BadMessage(Problem):
    """The chat message breaks a rule (reason: empty, too_long, control or bidi); nothing was sent."""

    reason: str = strawberry.field(description="empty, too_long, control or bidi.")


@strawberry.type
class ChatNotAllowed(Problem):
    """This chat channel is not the caller's to read or write."""


@strawberry.type
class Muted(Problem):
    """The operator muted the player: no chat until the mute ends."""

    until: float = strawberry.field(description="When the mute ends (epoch seconds).")


@strawberry.type
class ReportNotFound(Problem):
    """No report has this id."""


@strawberry.type
class Reauthenticate(Problem):
    """Deleting the account needs a recent sign-in: sign in again and ask again; nothing changed."""


TYPES: dict[str, type[Problem]] = {kind.__name__: kind for kind in (
    MatchNotFound, Unauthorized, InvalidInput, SeatTaken, MatchStarted, IllegalAction, NotYourTurn, StaleVersion,
    MatchOver, MatchNotStarted, Unauthenticated, ForbiddenScope, AlreadySeated, TooManyTokens, TokenNotFound,
    IdentityTaken, AlreadyLinked, SeatTakenOver, SeatResigned, NotTakenOver, NotCreator, MatchNotOver, NoRematchOffer,
    InviteCodeNotFound, PlayerNotFound, AlreadyInvited, InvitationNotFound, TooManySeeks, SeekNotFound,
    SeekNotWaiting, AdminUnauthorized, WebhookNotFound, DeliveryNotFound, RatedNeedsPlayer, BadHandle, HandleTaken,
    Reauthenticate, BadMessage, ChatNotAllowed, Muted, ReportNotFound)}


def problem_type(code: str) -> type[Problem]:
    """The result type carrying a code: the registry's, InvalidInput for a title's own code (its options)."""
    refusal = registered(code)
    name = None if refusal is None else refusal.graphql
    return TYPES[name] if name is not None else InvalidInput


TYPES.update({kind.__name__: kind for kind in (  # the social room's (social/)
    NotAccepted, AlreadyFriends, FriendNotFound, FriendRequestNotFound, TooManyFriends, TooManyFriendRequests,
    TooManyBlocks, PlayerBlocked)})


def player_problem(error: PlayerError) -> Problem:
    """The result type of a players layer's refusal (its code is a registered one)."""
    if isinstance(error, PlayerGone):  # the credential's player is gone
        error = PlayersUnauthenticated(Reason.UNKNOWN)
    if isinstance(error, PlayersUnauthenticated):
        return Unauthenticated(code=error.code, message=error.message, reason=error.reason.value)
    if isinstance(error, HandleRefused):
        return BadHandle(code=error.code, message=error.message, reason=error.reason.value)
    return problem_type(error.code)(code=error.code, message=error.message)



def versioned_problem(refusal: Refusal, message: str, version: int | None, code: str | None = None) -> Problem:
    """The result type of a refused act or seat operation: currentVersion for STALE_VERSION, version for a refusal
    that carries it; code is the one answered (an illegal action's rules code), the refusal's by default."""
    kind = problem_type(refusal)
    answered = refusal if code is None else code
    if refusal is Refusal.STALE_VERSION:
        return StaleVersion(code=answered, message=message, current_version=version or 0)
    if refusal in VERSIONED:
        return kind(code=answered, message=message, version=version)  # type: ignore[call-arg]
    return kind(code=answered, message=message)

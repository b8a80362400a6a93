"""Lobby area: titles, listing matches, creating, joining and adding bots."""

from __future__ import annotations

from typing import Annotated, cast

import strawberry

from firebreak.api import invite_links
from firebreak.api.bounds import MAX_PAGE
from firebreak.api.context import Info
from firebreak.api.schema.match import Match
from firebreak.api.schema.problems import (
    AlreadySeated,
    ForbiddenScope,
    InvalidInput,
    InviteCodeNotFound,
    MatchNotFound,
    MatchStarted,
    NotAccepted,
    RatedNeedsPlayer,
    SeatTaken,
    Unauthenticated,
    Unauthorized,
    player_problem,
    problem_type,
)
from firebreak.api.schema.title import Title
from firebreak.api.schema.types import JSON, MatchStatus
from firebreak.domain import titles
from firebreak.matches import invite_codes, lifecycle, listing
from firebreak.matches.callers import Caller
from firebreak.matches.lobby import LobbyError
from firebreak.matches.refusals import Refusal
from firebreak.players.errors import PlayerError


@strawberry.type
class MatchPage:
    """A page of matches, newest first; pass endCursor as `after` for the next page."""

    items: list[Match] = strawberry.field(description="The matches of this page.")
    end_cursor: str | None = strawberry.field(description="Pass as `after` for the next page (null: none).")
    has_next_page: bool = strawberry.field(description="Whether another page follows.")


@strawberry.input
class ClockInput:
    """A turn clock for every seat: a Fischer clock (initialSeconds to start with, above 0 and at most 7 days, plus
    incrementSeconds, 0 to 1 day, each time the seat's owner acts), a per-move limit (perMoveSeconds, above 0 and
    at most 14 days: correspondence time), or both (a decision must then fit both). Out of range: InvalidInput
    BAD_OPTIONS."""

    initial_seconds: float | None = strawberry.field(
        default=None, description="Each seat's Fischer time at the start, in seconds (null: no Fischer clock).")
    increment_seconds: float = strawberry.field(default=0.0,
                                                description="Seconds added to a seat's time each time it acts.")
    per_move_seconds: float | None = strawberry.field(
        default=None, description="The most each decision may take, in seconds (up to 14 days; null: no limit).")


@strawberry.input
class CreateMatchInput:
    """What to play: a title id, the number of seats, options, optionally a seed (a seeded match is
    reproducible; anyone who knows the seed can know the hidden cards) and a turn clock (none: no time limit)."""

    title: str = strawberry.field(description="A title id (titles).")
    seats: int = strawberry.field(description="The number of seats, within the title's minSeats-maxSeats.")
    options: JSON | None = strawberry.field(
        default=None, description="An object of option values by name (Title.options); left out: defaults.")
    seed: int | None = strawberry.field(default=None, description="Makes the match reproducible (keep it secret).")
    clock: ClockInput | None = strawberry.field(default=None, description="A turn clock; null: no time limit.")
    private: bool = strawberry.field(
        default=False, description="A private match: not in the lobby lists; its creator (the host token, the "
                                   "creating player's credential) joins it by matchId, anyone else by its invite "
                                   "code (MatchCreated.inviteCode) or as a player its host invites "
                                   "(invitePlayers).")
    rated: bool = strawberry.field(
        default=False, description="A rated match: once played out (FINISHED or RESIGNED) it moves its players' and "
                                   "bots' ratings. Only players (joined with a player credential: else "
                                   "RatedNeedsPlayer) and bots sit in it, and it takes no seed (InvalidInput "
                                   "BAD_OPTIONS).")


@strawberry.input
class JoinMatchInput:
    """The match to join (by id, or a private match by its invite code), the seat wanted (null: the first free one)
    and a display name (null: the player's name with a player credential)."""

    match_id: strawberry.ID | None = strawberry.field(
        default=None, description="The match to join (null: the match of code).")
    code: str | None = strawberry.field(
        default=None, description="A private match's invite code (a wrong one: InviteCodeNotFound, counted as a "
                                  "failed authentication).")
    name: str | None = strawberry.field(
        default=None, description="A display name (up to 40 characters shown); null: the signed-in player's name "
                                  "(\"player\" without a player credential).")
    seat: int | None = strawberry.field(default=None, description="The seat wanted; null: the first free one.")


@strawberry.input
class AddBotInput:
    """The match, the seat (null: the first free one) and the bot level (one of the title's botLevels)."""

    match_id: strawberry.ID = strawberry.field(description="The match to seat the bot in.")
    level: str = strawberry.field(description="One of the title's botLevels names.")
    seat: int | None = strawberry.field(default=None, description="The seat; null: the first free one.")


@strawberry.type
class MatchCreated:
    """A new waiting match. hostToken (shown once) lets its holder add bots and invite players; a private match's
    inviteCode (shown once) lets whoever is given it join."""

    match_id: strawberry.ID = strawberry.field(description="The new match's id.")
    host_token: str = strawberry.field(description="Lets its holder add bots; shown once, keep it secret.")
    invite_code: str | None = strawberry.field(
        default=None, description="A private match's invite code, shown once (joinMatch(input: {code})); null for "
                                  "a listed match.")
    invite_url: str | None = strawberry.field(
        default=None, description="The invite code as a link to hand to friends (FIREBREAK_INVITE_URL: by default "
                                  "the web client's #/join/CODE page); null for a listed match.")
    match: Match = strawberry.field(description="The new match.")


@strawberry.type
class SeatJoined:
    """The caller's seat and its secret token, shown once: send it as Authorization: Bearer <token>. Joined with
    a player credential, the seat is also the player's: that credential (from any device) acts for it too."""

    match_id: strawberry.ID = strawberry.field(description="The match joined.")
    seat: int = strawberry.field(description="The caller's seat.")
    token: str = strawberry.field(description="The seat's secret token, shown once.")
    started: bool = strawberry.field(description="Whether this took the last free seat (the match has started).")
    player: strawberry.ID | None = strawberry.field(
        default=None, description="The player the seat is bound to (null: joined without a player credential).")


@strawberry.type
class BotAdded:
    """A bot sits in the seat."""

    match_id: strawberry.ID = strawberry.field(description="The match.")
    seat: int = strawberry.field(description="The bot's seat.")
    level: str = strawberry.field(description="The bot's level.")
    started: bool = strawberry.field(description="Whether this took the last free seat (the match has started).")


CreateMatchResult = Annotated[
    MatchCreated | InvalidInput | Unauthenticated,
    strawberry.union("CreateMatchResult", description="The new match, or why none was created."),
]
JoinMatchResult = Annotated[
    SeatJoined | MatchNotFound | SeatTaken | MatchStarted | InvalidInput | AlreadySeated | Unauthenticated
    | ForbiddenScope | InviteCodeNotFound | RatedNeedsPlayer | NotAccepted,
    strawberry.union("JoinMatchResult", description="The seat taken, or why not."),
]
AddBotResult = Annotated[
    BotAdded | MatchNotFound | SeatTaken | MatchStarted | Unauthorized | InvalidInput | Unauthenticated
    | ForbiddenScope,
    strawberry.union("AddBotResult", description="The bot seated, or why not."),
]
LobbyProblem = (MatchNotFound | SeatTaken | MatchStarted | Unauthorized | InvalidInput | AlreadySeated
                | Unauthenticated | ForbiddenScope | InviteCodeNotFound | RatedNeedsPlayer)


def _problem(exc: LobbyError) -> LobbyProblem:
    problem = problem_type(exc.code)(code=exc.code, message=str(exc))
    return cast(LobbyProblem, problem)


@strawberry.type
class LobbyQuery:
    """Lobby reads."""

    @strawberry.field
    def titles(self) -> list[Title]:
        """The playable titles with their seat range, options and bot levels."""
        return [Title.of(t) for t in titles.all_titles()]

    @strawberry.field
    async def matches(
        self, info: Info,
        status: Annotated[MatchStatus, strawberry.argument(description="Which matches to list.")]
        = MatchStatus.WAITING,
        first: Annotated[int, strawberry.argument(description="The page size (1-100).")] = 20,
        after: Annotated[str | None, strawberry.argument(description="A previous page's endCursor.")] = None,
        title: Annotated[str | None, strawberry.argument(description="Only matches of this title id.")] = None,
        seat_count: Annotated[int | None, strawberry.argument(description="Only matches of this many seats.")]
        = None,
        free_seats: Annotated[int | None, strawberry.argument(
            description="Only matches with at least this many open seats (waiting ones).")] = None,
    ) -> MatchPage:
        """Matches of a status, newest first, each read as the caller where the caller sits in it (a seat's token,
        or the player's seat), else as a spectator: a token belongs to one match, so a listing never refuses one.
        Private matches are never listed. With filters, a page examines at most 500 matches after the cursor: it
        may come back short (even empty) with hasNextPage true; go on from its endCursor."""
        first = max(1, min(first, MAX_PAGE))
        listed = lifecycle.MatchStatus[status.name]
        caller = await info.context.caller()
        page, more, cursor = await listing.page(info.context.services.lobby, listed, first, after,
                                                listing.Filters(title, seat_count, free_seats))
        items = [Match.of(loaded, caller) for loaded in page]
        return MatchPage(items=items, end_cursor=cursor, has_next_page=more)


@strawberry.type
class LobbyMutation:
    """Lobby writes."""

    @strawberry.mutation
    async def create_match(
        self, info: Info, input: Annotated[CreateMatchInput, strawberry.argument(description="What to play.")],
    ) -> CreateMatchResult:
        """Create a waiting match; it starts by itself when every seat is taken."""
        refused = await info.context.authenticate()
        if isinstance(refused, PlayerError):
            return cast(Unauthenticated, player_problem(refused))
        host_player = None if refused is None else refused.player.id
        options = input.options
        if options is not None and not isinstance(options, dict):
            return InvalidInput(code=Refusal.BAD_OPTIONS, message="options must be a JSON object")
        services = info.context.services
        try:
            clock = None if input.clock is None else (input.clock.initial_seconds, input.clock.increment_seconds)
            per_move = None if input.clock is None else input.clock.per_move_seconds
            created = await services.lobby.create(input.title, input.seats, options, input.seed, clock, per_move,
                                                  input.private, host_player, rated=input.rated)
        except LobbyError as exc:
            return InvalidInput(code=exc.code, message=str(exc))
        loaded = await services.store.load(created.match_id)
        assert loaded is not None
        return MatchCreated(match_id=strawberry.ID(created.match_id), host_token=created.host_token,
                            invite_code=created.invite_code, match=Match.of(loaded, None),
                            invite_url=invite_links.for_request(services.settings.invite_url, created.invite_code,
                                                                info.context.request))

    @strawberry.mutation
    async def join_match(
        self, info: Info, input: Annotated[JoinMatchInput, strawberry.argument(description="The seat wanted.")],
    ) -> JoinMatchResult:
        """Take a seat as a person; the token in the answer is shown only this once. With a player credential the
        seat is bound to the player (one seat per player per match: AlreadySeated)."""
        caller = await info.context.playing_caller()
        if not isinstance(caller, Caller):
            return cast(Unauthenticated | ForbiddenScope, player_problem(caller))
        name = input.name
        if name is None and caller.player is not None:
            principal = await info.context.principal()
            name = None if principal is None else principal.player.name
        services = info.context.services
        match_id = None if input.match_id is None else str(input.match_id)
        if input.code is not None:
            info.context.check_not_blocked(credential=True)
            found = await invite_codes.match_of(services.store.redis, input.code)
            if found is None or match_id not in (None, found):
                await info.context.auth_failed()
                return InviteCodeNotFound(code=Refusal.BAD_INVITE_CODE, message="no waiting match has this code")
            match_id = found
        if match_id is None:
            return MatchNotFound(code=Refusal.MATCH_NOT_FOUND, message="give matchId or code")
        try:
            seated = await services.lobby.join(match_id, input.seat, name, caller.player, caller.program,
                                               by_code=input.code is not None, token=caller.token)
        except LobbyError as exc:
            return _problem(exc)  # type: ignore[return-value]
        assert seated.token is not None
        return SeatJoined(match_id=strawberry.ID(seated.match_id), seat=seated.seat, token=seated.token,
                          started=seated.started,
                          player=None if caller.player is None else strawberry.ID(caller.player))

    @strawberry.mutation
    async def add_bot(
        self, info: Info, input: Annotated[AddBotInput, strawberry.argument(description="The bot wanted.")],
    ) -> AddBotResult:
        """Seat a bot (needs the host token, the credential of the player who created the match, a seat token of
        the match, or the credential of a player seated in it, as the bearer token)."""
        info.context.check_not_blocked()
        caller = await info.context.playing_caller()
        if not isinstance(caller, Caller):
            return cast(Unauthenticated | ForbiddenScope, player_problem(caller))
        try:
            seated = await info.context.services.lobby.add_bot(str(input.match_id), input.seat, input.level, caller)
        except LobbyError as exc:
            if exc.code == Refusal.UNAUTHORIZED:
                await info.context.token_refused(caller)
            return _problem(exc)  # type: ignore[return-value]
        return BotAdded(match_id=strawberry.ID(seated.match_id), seat=seated.seat, level=input.level,
                        started=seated.started)

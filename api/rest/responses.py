"""The REST answer bodies as pydantic models: the OpenAPI document's response schemas are generated from them, and
the tests check every answer the service gives against those schemas. Handlers build the answers as plain JSON
(the act path renders with orjson; see the figures in bench/act_path.py), so a model here is the contract, not a
step of serving. Names and fields are GraphQL's (camelCase); enums by name."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from firebreak.api.rest.problems import rest_codes
from firebreak.api.rest.titled import typed
from firebreak.domain.contract import OptionKind
from firebreak.matches import rematch_offers
from firebreak.matches.lifecycle import EndReason, MatchStatus
from firebreak.matches.mypage import Outcome
from firebreak.players.records import PlayerKind, Scope


def enum_of(values: Iterable[str | None], description: str = "") -> WithJsonSchema:
    """The schema of a string among these values (None among them: or null)."""
    schema: dict[str, Any] = {"enum": list(values)}
    if description:
        schema["description"] = description
    return WithJsonSchema(schema)


def d(text: str) -> Any:
    """A field's description."""
    return Field(description=text)


END_REASONS = [reason.name for reason in EndReason]
STATUSES = [status.name for status in MatchStatus]
JSON = dict[str, Any]
# a title's view, action, event: documented as the registered titles' own (titled.py), served as the engine wrote them
VIEW = Annotated[JSON, typed("View")]
ACTION = Annotated[JSON, typed("Action")]
EVENT = Annotated[JSON, typed("GameEvent")]


class Answer(BaseModel):
    """An answer body (open: a client must ignore members it does not know)."""

    model_config = ConfigDict(populate_by_name=True)


class Problem(Answer):
    """RFC 9457 problem details, with the GraphQL code and, per code, more members."""

    type: Annotated[str, d("A URI reference to the problem's entry in the docs.")]
    title: str
    status: int
    detail: str
    code: Annotated[str, Field(examples=sorted(code.value for code in rest_codes()),
                               description="The code GraphQL uses for the same refusal (instead of ILLEGAL_ACTION, a "
                                           "rules error may carry a more precise code, e.g. MALFORMED_ACTION).")]
    currentVersion: Annotated[int, d("STALE_VERSION: the match's version now.")] = 0
    version: Annotated[int | None, d("ILLEGAL_ACTION, NOT_YOUR_TURN, MATCH_OVER: the match's version "
                                     "(unchanged).")] = None
    retryAfter: Annotated[float, d("RATE_LIMITED: seconds to wait.")] = 0.0
    reason: Annotated[str, d("UNAUTHENTICATED: why the credential was refused (missing, malformed, expired, invalid, "
                             "algorithm, revoked, reused, unknown, not_configured, unavailable); BAD_HANDLE: the "
                             "rule the handle breaks (too_short, too_long, characters, punctuation, "
                             "mixed_script).")] = ""
    errors: Annotated[list[Fault], d("VALIDATION_FAILED (and a refusal of a bound): each place the request breaks "
                                     "its schema.")] = []


class Fault(Answer):
    """Where and why."""

    pointer: str = ""
    detail: str


class OptionSpec(Answer):
    """One option a title accepts when a match is created."""

    name: Annotated[str, d("The key in the options object.")]
    kind: Annotated[str, enum_of([kind.name for kind in OptionKind], "BOOL: true/false; INT: a whole number; CHOICE.")]
    default: Annotated[Any, d("The value used when the option is left out.")]
    description: str
    choices: list[str]
    nullable: bool
    minimum: int | None
    maximum: int | None
    seats: list[int]


class ScoreColumn(Answer):
    """One named part of a final score."""

    key: str
    label: str
    description: str


class BotLevel(Answer):
    """A bot level a seat of this title can be given."""

    name: str
    description: str


class Title(Answer):
    """A playable game."""

    id: str
    name: str
    minSeats: int
    maxSeats: int
    options: list[OptionSpec]
    scoreColumns: list[ScoreColumn]
    botLevels: Annotated[list[BotLevel], d("random first")]


class TitleSchemas(Answer):
    """JSON Schemas of the title's dynamic parts (also published under docs/schemas/<title>/)."""

    view: Annotated[JSON, d("A JSON Schema (2020-12): Match.view.")]
    action: Annotated[JSON, d("A JSON Schema (2020-12): one of Match.legalActions.")]
    event: Annotated[JSON, d("A JSON Schema (2020-12): one event of a step.")]
    result: Annotated[JSON, d("A JSON Schema (2020-12): Match.result.")]


class TitleDetail(Title):
    """A playable game, with its schemas and board data."""

    schemas: TitleSchemas
    board: Annotated[Any, d("The static data a client draws (the title's client module knows its shape); null for a "
                            "title without any.")]


class TitleList(Answer):
    """The playable titles."""

    items: list[Title]


class SeatInfo(Answer):
    """Who sits in a seat (never their token)."""

    seat: int
    taken: bool
    name: str | None
    kind: Annotated[str | None, d("human | bot")]
    level: str | None
    takenOver: Annotated[bool, d("The service's bot plays it until its owner reclaims it.")]
    resigned: Annotated[bool, d("Its owner resigned: the service's bot plays it to the end.")]
    program: Annotated[bool, d("A human seat played by its player's program (joined with a personal access token "
                               "of the bot scope).")]
    player: Annotated[str | None, d("The id of the player the seat is bound to (null: none).")]
    deleted: Annotated[bool, d("The seat's player deleted their account since: the seat shows a deleted player, "
                               "with no player id or handle.")] = False
    handle: Annotated[str | None, d("GET /v1/matches/{id}/seats/{seat} only: the handle of the player the seat is "
                                    "bound to, as it is now (null: none).")] = None


class SeatClock(Answer):
    """One seat's turn clock as of this read."""

    seat: int
    secondsLeft: float
    running: bool
    takenOver: bool


class MatchClock(Answer):
    """The match's turn clock: a Fischer clock (initialSeconds null: none), a per-move limit, or both."""

    initialSeconds: float | None
    incrementSeconds: float
    perMoveSeconds: float | None
    seats: list[SeatClock]


class ScorePart(Answer):
    """One part."""

    key: str
    value: int


class SeatScore(Answer):
    """A seat's final score."""

    seat: int
    total: int
    parts: list[ScorePart]


class MatchResult(Answer):
    """How an over match came out."""

    endReason: Annotated[str, enum_of(END_REASONS)]
    reason: str
    columns: list[ScoreColumn]
    scores: list[SeatScore]
    winners: list[int]
    resigned: Annotated[list[int], d("The seats that resigned.")]


class MatchRef(Answer):
    """The rematch's id."""

    id: str


class RematchOffer(Answer):
    """A rematch offer of an over match (seats are the over match's; bot seats accept at once)."""

    status: Annotated[str, enum_of([status.upper() for status in rematch_offers.STATUSES])]
    by: Annotated[int, d("The seat that offered it.")]
    accepted: Annotated[list[int], d("The seats that accepted (the offerer's and the bots' included).")]
    declined: Annotated[list[int], d("The seat that declined it, if one did.")]
    expiresAt: Annotated[float, d("When it expires unless everyone accepted by then (epoch seconds).")]


class Match(Answer):
    """A match as the caller may see it (the GraphQL Match type's fields, events apart)."""

    id: str
    title: str
    status: Annotated[str, enum_of(STATUSES)]
    version: Annotated[int, d("Rises by one per applied step; send it back as expectedVersion.")]
    seatCount: int
    options: JSON
    seats: list[SeatInfo]
    clock: MatchClock | None
    endReason: Annotated[str | None, enum_of([*END_REASONS, None])]
    you: Annotated[int | None, d("The caller's seat, or null for a spectator.")]
    toAct: Annotated[list[int], d("Seats owing a decision now.")]
    serviceToAct: Annotated[bool, d("The next step is the service's (a bot seat, a non-player turn).")]
    view: Annotated[VIEW, d("The caller's view of the game (a spectator's without a seat token): the title's own, "
                            "told apart by `title`.")]
    legalActions: Annotated[list[ACTION], d("The caller's legal actions now, each with its label (what it does, in the "
                                            "language of Accept-Language); submit any of them as is (act ignores "
                                            "the label).")]
    result: MatchResult | None
    rematch: Annotated[MatchRef | None, d("The match's rematch once every person accepted its offer (GET "
                                          "/v1/matches/{id} only).")] = None
    rematchOffer: Annotated[RematchOffer | None, d("The over match's rematch offer, standing or last (GET "
                                                   "/v1/matches/{id} only).")] = None


class MatchPage(Answer):
    """A page of matches, newest first; pass endCursor as after for the next."""

    items: list[Match]
    endCursor: str | None
    hasNextPage: bool


class MatchCreated(Answer):
    """A new waiting match."""

    matchId: str
    hostToken: Annotated[str, d("Shown once: lets its holder add bots.")]
    inviteCode: Annotated[str | None, d("A private match's invite code, shown once (null: listed).")]
    inviteUrl: Annotated[str | None, d("The invite code as a link to hand to friends (FIREBREAK_INVITE_URL: by "
                                       "default the web client's #/join/CODE page; null: listed).")]
    match: Match


class SeatJoined(Answer):
    """The caller's seat and its token."""

    matchId: str
    seat: int
    token: Annotated[str, d("The seat's secret, shown once: Authorization: Bearer.")]
    started: bool
    player: Annotated[str | None, d("The player the seat is bound to (null: joined without a player credential).")]


class BotAdded(Answer):
    """A bot sits in the seat."""

    matchId: str
    seat: int
    level: str
    started: bool


EVENTS = Annotated[list[EVENT], d("The step's events, redacted for the caller, each with its label (what it means, in "
                                  "the language of Accept-Language).")]


class ActionAccepted(Answer):
    """The action was applied: the caller's events and the match as the caller now sees it (left out when the
    request said Prefer: return=minimal)."""

    version: Annotated[int, d("The match's new version.")]
    events: EVENTS
    match: Match = None  # type: ignore[assignment]  # left out, never null


class Resignation(Answer):
    """The caller's seat resigned: the match ended (matchEnded) or the service's bot plays it."""

    matchId: str
    seat: int
    version: int
    matchEnded: bool
    match: Match


class SeatReclaimed(Answer):
    """The caller plays their seat again; its clock restarted."""

    matchId: str
    seat: int
    version: int
    match: Match


class SeatLeft(Answer):
    """The seat of the waiting match is free again."""

    matchId: str
    seat: int


class MatchCancelled(Answer):
    """The waiting match is over (endReason CANCELLED), off the lobby."""

    matchId: str


class MatchEvent(Answer):
    """The events of one applied step; version is the match's version after it."""

    version: int
    events: EVENTS


class EventPage(Answer):
    """Steps after a version, oldest first."""

    items: list[MatchEvent]


SCOPES = enum_of([scope.name for scope in Scope])
PLAYER_KINDS = enum_of([kind.name for kind in PlayerKind])


class Player(Answer):
    """A player: id, display name, handle, GUEST or EXTERNAL."""

    id: str
    name: str
    handle: Annotated[str, d("The player's public handle, unique across the service (e.g. ann-4821).")]
    kind: Annotated[str, PLAYER_KINDS]


class AccessToken(Answer):
    """A personal access token as listed (never its secret)."""

    id: str
    name: str
    scopes: list[Annotated[str, SCOPES]]
    created: Annotated[float, d("When it was made (epoch seconds).")]
    expires: Annotated[float | None, d("When it stops working (null: never).")]


RATING_VALUE = d("The displayed rating (a newcomer shows 1500; 200 points ahead finishes ahead about 3 times in 4).")
PROVISIONAL = d("Whether the rating is still provisional (fewer than 10 rated matches).")
MU = d("OpenSkill's estimate of the skill (Plackett-Luce; a newcomer has 25).")
SIGMA = d("OpenSkill's uncertainty of mu (a newcomer has 25/3).")
GAMES = d("Rated matches played in the title.")
RANK = d("The place on the title's leaderboard (1: the top; bot levels are on it too).")


class Rating(Answer):
    """The player's rating in one title and their rank on its leaderboard."""

    title: str
    value: Annotated[int, RATING_VALUE]
    provisional: Annotated[bool, PROVISIONAL]
    games: Annotated[int, GAMES]
    rank: Annotated[int, RANK]
    mu: Annotated[float, MU]
    sigma: Annotated[float, SIGMA]


class Me(Answer):
    """The signed-in player and its personal access tokens."""

    id: str
    name: str
    handle: Annotated[str, d("The player's public handle, unique across the service (PATCH /v1/me changes it).")]
    kind: Annotated[str, PLAYER_KINDS]
    accessTokens: list[AccessToken]
    ratings: Annotated[list[Rating], d("The player's rating in every title they have played rated, by title id.")]
    yourTurnCount: Annotated[int, d("How many of the player's live matches wait on the player to act (the "
                                    "matches GET /v1/me/matches lists first); a yourTurn event raises it.")]
    locale: Annotated[str | None, d("The player's saved locale (PATCH /v1/me), null when none is saved.")]
    language: Annotated[str, d("The language this answer is written in: the request's Accept-Language when it "
                               "names one the service speaks, else the saved locale, else en.")]


class Session(Answer):
    """A signed-in session."""

    accessToken: Annotated[str, d("A short-lived bearer credential of the player.")]
    accessTokenExpiresIn: Annotated[int, d("Seconds the access token is valid.")]
    refreshToken: Annotated[str, d("Swaps for a new session once (POST /v1/auth/refresh); an already used one signs "
                                   "the whole session out.")]
    refreshTokenExpiresIn: Annotated[int, d("Seconds the session lives unless refreshed.")]
    player: Player


class SignedOut(Answer):
    """The session (or every session of the player) is signed out."""

    everywhere: bool


class AccessTokenList(Answer):
    """The player's live tokens, oldest first."""

    items: list[AccessToken]


class AccessTokenCreated(Answer):
    """A new personal access token."""

    token: Annotated[str, d("The secret, shown once: Authorization: Bearer.")]
    accessToken: AccessToken


class AccessTokenRevoked(Answer):
    """The token stopped working."""

    id: str


class ProfileUpdated(Answer):
    """The player's profile as it now is."""

    player: Player
    locale: Annotated[str | None, d("The player's saved locale, null when none is saved.")]


class Language(Answer):
    """A language the service speaks."""

    code: Annotated[str, d("Its code (en, de, uk): what Accept-Language and a saved locale name.")]
    name: Annotated[str, d("Its name in itself (Deutsch, Українська).")]


class LanguageList(Answer):
    """The languages the service speaks."""

    items: list[Language]


class AccountDeleted(Answer):
    """The account is deleted: every credential of it stopped working at once; the workers finish the rest within
    moments."""

    deletedAt: Annotated[float, d("When the deletion was asked (epoch seconds).")]


class IdentityLinked(Answer):
    """The operator's identity is linked to the player."""

    player: Player


class RatingChange(Answer):
    """How a finished rated match moved the player's rating."""

    before: Annotated[int, d("The displayed rating before the match.")]
    after: Annotated[int, d("The displayed rating after it.")]
    delta: Annotated[int, d("after - before.")]
    place: Annotated[int, d("The player's place in the match (1: first; equal places are ties).")]
    provisional: Annotated[bool, d("Whether the rating after the match is still provisional.")]


class MyMatch(Answer):
    """One of the player's matches, as the player's seat sees it."""

    id: str
    title: str
    status: Annotated[str, enum_of(STATUSES)]
    version: Annotated[int, d("The match's version (expectedVersion of an action).")]
    seat: Annotated[int, d("The player's seat.")]
    yourTurn: Annotated[bool, d("Whether the player owes a decision now.")]
    clockDeadline: Annotated[float | None, d("When the player's time runs out (epoch seconds); null without a clock "
                                             "or while the player's clock is not running.")]
    lastActivity: Annotated[float, d("When the match last changed (epoch seconds).")]
    others: Annotated[list[SeatInfo], d("The other seats: names and kinds (open ones while waiting).")]
    endReason: Annotated[str | None, enum_of([*END_REASONS, None])]
    winners: Annotated[list[int] | None, d("The winning seats once over (null before; [] for an abandoned match).")]
    outcome: Annotated[str | None, enum_of([*(outcome.name for outcome in Outcome), None],
                                           "How it came out for the player once over (null before, and when nobody "
                                           "won).")]
    cursor: Annotated[str, d("Pass as after to list the matches after this one.")]
    rated: Annotated[bool, d("Whether the match is rated.")]
    ratingChange: Annotated[RatingChange | None, d("How the match moved the player's rating (null: not rated, not "
                                                   "over, not played out, or not applied yet).")]
    rematchOffer: Annotated[RematchOffer | None, d("An over match's rematch offer, standing or last (GET "
                                                   "/v1/me/matches only).")] = None


class MyMatchPage(Answer):
    """A page of the player's matches: their turn first (oldest waiting first), then the rest by last activity; pass
    endCursor as after for the next."""

    items: list[MyMatch]
    endCursor: str | None
    hasNextPage: bool

"""The REST request bodies as pydantic models: the routes validate every body with its model (strict types, no
unknown member), and the OpenAPI document's request schemas are generated from the same models, so what is
documented is what is enforced. Names and fields are GraphQL's (camelCase).

A bound that the layer behind the route enforced before these models did (a clock's seconds, a title id, a bot
level, a printable name, a title's seat counts and options) keeps that layer's refusal code: its field carries
Refuse(code), or its validator raises an error named after the code, and a value out of it is answered with the code
instead of VALIDATION_FAILED (see checking.py). Title ids, bot level names and options are read from the registry
when a body is checked and when the document is written, so a title added at start (FIREBREAK_TITLES) is in both;
a bound that is a setting (limits.py) is the running service's in both. An integer member takes a JSON number
without a fraction (5.0), as JSON Schema's integer does."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

from firebreak.api.language import locale_pattern, saved_locale
from firebreak.api.rest.limits import Below
from firebreak.api.rest.options import by_title, playable, whole
from firebreak.api.rest.text import Printable
from firebreak.api.rest.titled import typed
from firebreak.domain import titles
from firebreak.domain.bots import levels
from firebreak.matches.clocks import MAX_INCREMENT, MAX_INITIAL, MAX_PER_MOVE
from firebreak.matches.refusals import Refusal
from firebreak.notifications.webhooks.service import EVENT_TYPES
from firebreak.players.access import MAX_LIFETIME
from firebreak.players.directory import DEVICE_MAX, DEVICE_MIN, NAME_MAX
from firebreak.players.invitations import MAX_AT_ONCE
from firebreak.players.records import Scope

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1  # GraphQL's Int


@dataclass(frozen=True)
class Refuse:
    """Annotated metadata: a value of the right type that breaks the field's bounds is refused with this code (only
    the bounds of these pydantic error types, when given)."""

    code: Refusal
    only: frozenset[str] = frozenset()


class Registered:
    """Annotated metadata: the field's enum, documented as the registry has it when the document is written."""

    def __init__(self, names: Callable[[], list[str]]) -> None:
        self.names = names

    def __get_pydantic_json_schema__(self, core: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        """The field's schema with the names of now as its enum."""
        schema = handler(core)
        schema["enum"] = self.names()
        return schema


def title_ids() -> list[str]:
    """Every registered title's id."""
    return [title.id for title in titles.all_titles()]


def level_names() -> list[str]:
    """Every bot level of any registered title (whether a title has the level is the match's to say)."""
    return list(dict.fromkeys(name for title in titles.all_titles() for name in levels(title)))


def one_of(names: Callable[[], list[str]], code: Refusal) -> AfterValidator:
    """A validator that refuses a string not among names() with the code."""

    def check(value: str) -> str:
        if value not in names():
            raise PydanticCustomError(code.value, "must be one of {names}", {"names": ", ".join(names())})
        return value

    return AfterValidator(check)


def _distinct(value: list[str]) -> list[str]:
    if len(set(value)) != len(value):
        raise PydanticCustomError(Refusal.TOO_MANY_INVITATIONS.value, "the ids must be distinct")
    return value


def event_types() -> list[str]:
    """The webhook event types."""
    return list(EVENT_TYPES)


def choice(names: Iterable[str]) -> Any:
    """The type of a string among names (a parameter's enum), refused as VALIDATION_FAILED otherwise."""
    fixed = list(names)
    return Annotated[str, one_of(lambda: fixed, Refusal.VALIDATION_FAILED), Registered(lambda: fixed)]


def title_param() -> Any:
    """The type of a path parameter naming a registered title (another: 404 TITLE_NOT_FOUND)."""
    return Annotated[str, one_of(title_ids, Refusal.TITLE_NOT_FOUND), Registered(title_ids)]


ScopeName = Literal["PLAY", "BOT"]
if set(get_args(ScopeName)) != set(Scope.__members__):  # pragma: no cover - a new scope must be named here too
    raise RuntimeError("ScopeName must name every Scope")


WHOLE = BeforeValidator(whole)  # after the bounds in an Annotated, so that they stay JSON Schema's keywords
Int32 = Annotated[int, Field(ge=INT32_MIN, le=INT32_MAX), WHOLE]
TitleId = Annotated[str, one_of(title_ids, Refusal.UNKNOWN_TITLE), Registered(title_ids),
                    Field(description="A title id (GET /v1/titles).")]
Seats = Annotated[int, Field(ge=INT32_MIN, le=INT32_MAX, description="The number of seats (Title.minSeats-maxSeats)."),
                  WHOLE]
Options = Annotated[dict[str, Any] | None, Field(description="Option name -> value (Title.options).")]


class Body(BaseModel):
    """A request body: strict JSON types (no "3" for 3, no 1 for true), and no member the schema does not name."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Clock(Body):
    """A turn clock for every seat: a Fischer clock (initialSeconds to start with, above 0 and at most 7 days, plus
    incrementSeconds, 0 to 1 day, each time the seat's owner acts), a per-move limit (perMoveSeconds, above 0 and at
    most 14 days: correspondence time), or both. Out of range: 422 BAD_OPTIONS."""

    initialSeconds: Annotated[float | None, Field(gt=0, le=MAX_INITIAL), Refuse(Refusal.BAD_OPTIONS)] = None
    incrementSeconds: Annotated[float, Field(ge=0, le=MAX_INCREMENT), Refuse(Refusal.BAD_OPTIONS)] = 0.0
    perMoveSeconds: Annotated[float | None, Field(gt=0, le=MAX_PER_MOVE, description="The most each decision may "
                                                  "take (seconds)."), Refuse(Refusal.BAD_OPTIONS)] = None

    model_config = ConfigDict(json_schema_extra={"anyOf": [
        {"required": ["initialSeconds"], "properties": {"initialSeconds": {"type": "number"}}},
        {"required": ["perMoveSeconds"], "properties": {"perMoveSeconds": {"type": "number"},
                                                        "incrementSeconds": {"const": 0}}}]})

    @model_validator(mode="after")
    def _a_clock(self) -> Clock:
        """initialSeconds or perMoveSeconds (or both); an increment only with initialSeconds (a Fischer clock)."""
        if self.initialSeconds is None and self.perMoveSeconds is None:
            raise PydanticCustomError(Refusal.BAD_OPTIONS.value, "initialSeconds or perMoveSeconds is needed")
        if self.initialSeconds is None and self.incrementSeconds:
            raise PydanticCustomError(Refusal.BAD_OPTIONS.value, "incrementSeconds needs initialSeconds")
        return self


class CreateMatch(Body):
    """What to play: a title id, the number of seats, options (Title.options; defaults filled in), optionally a seed
    (a seeded match is reproducible; anyone who knows the seed can know the hidden cards) and a turn clock (none: no
    time limit)."""

    title: TitleId
    seats: Seats
    options: Options = None
    seed: Annotated[Int32 | None, Field(description="The seed; random when left out.")] = None
    private: Annotated[bool | None, Field(description="true: not listed; its creator (the host token, the creating "
                                                      "player's credential) takes a seat by its id, anyone else by "
                                                      "the answer's inviteCode (shown once) or an invitation.")] = None
    rated: Annotated[bool | None, Field(description="true: a rated match (once played out it moves its players' and "
                                                    "bots' ratings; only players and bots sit in it: else 403 "
                                                    "RATED_NEEDS_PLAYER; no seed: else 422 BAD_OPTIONS).")] = None
    clock: Clock | None = None

    model_config = ConfigDict(json_schema_extra=lambda schema: _create_extra(schema))

    @model_validator(mode="after")
    def _playable(self) -> CreateMatch:
        """The title takes this seat count and these options; a rated match takes no seed."""
        if self.rated and self.seed is not None:
            raise PydanticCustomError(Refusal.BAD_OPTIONS.value, "a rated match takes no seed (whoever knows it "
                                                                 "knows the hidden cards)")
        self.options = playable(self.title, self.seats, self.options)
        return self


def _create_extra(schema: dict[str, Any]) -> None:
    """CreateMatch's schema: a branch per title and seat count, and a rated match without a seed."""
    by_title(schema)
    schema["allOf"].append({"if": {"required": ["rated"], "properties": {"rated": {"const": True}}},
                            "then": {"properties": {"seed": {"type": "null"}}}})


class JoinMatch(Body):
    """A display name (left out: the player's name with a player credential, else "player"), and the seat wanted
    (null or left out: the first free one)."""

    name: str | None = None
    seat: Int32 | None = None


class AddBot(Body):
    """The bot level (Title.botLevels) and the seat (null or left out: the first free one)."""

    level: Annotated[str, one_of(level_names, Refusal.UNKNOWN_BOT_LEVEL), Registered(level_names),
                     Field(description="A bot level of the match's title (Title.botLevels); one no title has: 422 "
                                       "UNKNOWN_BOT_LEVEL.")]
    seat: Int32 | None = None


class Act(Body):
    """An action copied as is from legalActions, and the version it was listed at."""

    action: Annotated[Any, typed("Action"), Field(description="One of the match's legalActions (a JSON object), "
                                                              "checked against its title's action schema.")]
    expectedVersion: Annotated[Int32, Field(description="The match version the action was read at.")]


class InvitePlayers(Body):
    """The players to invite, by id and/or by handle (1 to 20 distinct players in all)."""

    playerIds: Annotated[list[str], Field(max_length=MAX_AT_ONCE, json_schema_extra={"uniqueItems": True},
                                          description="Player ids (distinct)."),
                         AfterValidator(_distinct), Refuse(Refusal.TOO_MANY_INVITATIONS)] = []
    handles: Annotated[list[str], Field(max_length=MAX_AT_ONCE, json_schema_extra={"uniqueItems": True},
                                        description="Player handles (compared case-folded)."),
                       AfterValidator(_distinct), Refuse(Refusal.TOO_MANY_INVITATIONS)] = []

    model_config = ConfigDict(json_schema_extra={"anyOf": [
        {"required": ["playerIds"], "properties": {"playerIds": {"minItems": 1}}},
        {"required": ["handles"], "properties": {"handles": {"minItems": 1}}}]})

    @model_validator(mode="after")
    def _someone(self) -> InvitePlayers:
        """At least one player, by id or by handle (the schema's anyOf says the same to a client)."""
        if not self.playerIds and not self.handles:
            raise PydanticCustomError(Refusal.TOO_MANY_INVITATIONS.value, "name 1 to 20 distinct players")
        return self


class AnswerInvitation(Body):
    """accept: true takes a seat bound to the player, false declines; a display name (left out: the player's)."""

    accept: bool
    name: str | None = None


class JoinByCode(Body):
    """A private match's invite code, a display name and the seat wanted (null: the first free)."""

    code: str
    name: str | None = None
    seat: Int32 | None = None


class PlaceSeek(Body):
    """What to play (as CreateMatch takes it) and whether bots may fill a short table after a wait."""

    title: TitleId
    seats: Seats
    options: Options = None
    botsAfterSeconds: Annotated[Annotated[float, Field(ge=0), Below("seek_ttl", Refusal.BAD_BOTS_AFTER)] | None,
                                Field(description="Fill a table still short of players with the title's bots after "
                                                  "this many seconds (0 to below the seek's lifetime, the setting "
                                                  "FIREBREAK_SEEK_TTL; null: never)."),
                                Refuse(Refusal.BAD_BOTS_AFTER)] = None

    model_config = ConfigDict(json_schema_extra=lambda schema: by_title(schema))

    @model_validator(mode="after")
    def _playable(self) -> PlaceSeek:
        """The title takes this seat count and these options."""
        self.options = playable(self.title, self.seats, self.options)
        return self


class SignInAsGuest(Body):
    """A display name and the device's id (a secret the app keeps: the same id signs the same guest in again)."""

    name: Annotated[str, Printable(1, NAME_MAX, True, Refusal.BAD_NAME),
                    Field(description="1 to 40 printable characters once trimmed (kept from the first sign-in).")]
    deviceId: Annotated[str, Field(min_length=DEVICE_MIN, max_length=DEVICE_MAX),
                        Printable(DEVICE_MIN, DEVICE_MAX, False, Refusal.BAD_DEVICE_ID),
                        Field(description="16 to 200 printable characters, random, kept on the device."),
                        Refuse(Refusal.BAD_DEVICE_ID)]


class RefreshSession(Body):
    """A session's refresh token (each works once)."""

    refreshToken: str


class CreateAccessToken(Body):
    """A name for the token, its scopes (PLAY, BOT) and optionally a lifetime in seconds."""

    name: Annotated[str, Printable(1, NAME_MAX, True, Refusal.BAD_NAME),
                    Field(description="1 to 40 printable characters once trimmed.")]
    scopes: Annotated[list[ScopeName], Field(min_length=1, description="PLAY and/or BOT."), Refuse(Refusal.BAD_SCOPES)]
    expiresInSeconds: Annotated[Annotated[int, Field(gt=0, le=MAX_LIFETIME), WHOLE] | None,
                                Field(description="Seconds it lives (null: until revoked)."),
                                Refuse(Refusal.BAD_SCOPES)] = None


def _locale(value: str) -> str:
    if saved_locale(value) is None:
        raise PydanticCustomError(Refusal.UNSUPPORTED_LOCALE.value, "must be a language of GET /v1/languages")
    return value


class UpdateProfile(Body):
    """A new handle, display name and/or saved locale (a member left out is left as it is)."""

    handle: Annotated[str | None, Field(description="3 to 24 characters after NFKC: letters and digits of one script "
                                                    "and '-', '_', '.', starting and ending with a letter or digit "
                                                    "(unique, compared case-folded).")] = None
    name: Annotated[Annotated[str, Printable(1, NAME_MAX, True, Refusal.BAD_NAME)] | None,
                    Field(description="1 to 40 printable characters once trimmed.")] = None
    locale: Annotated[Annotated[str, AfterValidator(_locale)] | None,
                      Field(max_length=35, json_schema_extra={"pattern": locale_pattern()},
                            description="The language to be answered in when a request's Accept-Language names "
                                        "none the service speaks: a BCP 47 tag of a language GET /v1/languages "
                                        "lists (de-AT saves de); \"\" forgets it.")] = None


class LinkIdentity(Body):
    """A JWT of the operator's identity provider for the account to link."""

    token: str


# An http(s) URL to a host (a name or an IPv4 address) with an optional port, path, query and fragment, and no
# credentials; whitespace around it is trimmed (what str.strip removes: no code point above U+3000 is whitespace, a
# test keeps it so). Every URL it matches passes the endpoints' check_url (a test keeps that too).
_BLANK = "".join(char for char in map(chr, range(0x3001)) if char.isspace())
URL = (rf"^[{_BLANK}]*[Hh][Tt][Tt][Pp][Ss]?://[^{_BLANK}/?#@\[\]:]+(?::[0-9]{{1,5}})?(?:[/?#][^{_BLANK}]*)?"
       rf"[{_BLANK}]*$")


class CreateWebhookEndpoint(Body):
    """A new webhook endpoint: where to POST, which event types (empty or left out: every type)."""

    url: Annotated[str, Field(max_length=2000), Field(pattern=URL, description="An http(s) URL with a host (a DNS "
                                                  "name or an IP address; no credentials in it)."),
                   Refuse(Refusal.BAD_WEBHOOK, frozenset({"string_pattern_mismatch"}))]  # too long: as before
    eventTypes: list[Annotated[str, one_of(event_types, Refusal.BAD_WEBHOOK), Registered(event_types)]] | None = None
    description: Annotated[Annotated[str, Printable(0, 200, True, Refusal.BAD_WEBHOOK)] | None,
                           Field(max_length=200, description="At most 200 printable characters once trimmed.")] = None


class RotateWebhookSecret(Body):
    """keepPrevious (default true): the previous secret signs too, until the next rotation."""

    keepPrevious: bool = True


class PushKeys(Body):
    """A PushSubscription's keys, as its toJSON() gives them."""

    p256dh: Annotated[str, Field(max_length=200, description="The browser's P-256 public key, base64url.")]
    auth: Annotated[str, Field(max_length=100, description="The 16-byte auth secret, base64url.")]


class RegisterPushSubscription(Body):
    """A browser's PushSubscription (PushSubscription.toJSON(): endpoint and keys)."""

    endpoint: Annotated[str, Field(max_length=2000, description="The push service URL the browser gave.")]
    keys: PushKeys


class RegisterPushDevice(Body):
    """A native app's FCM registration token."""

    token: Annotated[str, Field(max_length=4096, description="The FCM registration token the app got.")]


class UpdatePushPreferences(Body):
    """Kinds turned on (true) or off (false); a kind left out stays as it is."""

    yourTurn: bool | None = None
    matchEnded: bool | None = None
    invited: bool | None = None
    rematchOffered: bool | None = None
    seekMatched: bool | None = None
    seatTakenOver: bool | None = None
    friendRequested: bool | None = None
    friendAccepted: bool | None = None


class PlayerRef(Body):
    """The other player, by id or by handle (both: they must name the same player)."""

    playerId: Annotated[str | None, Field(max_length=64, description="The player's id.")] = None
    handle: Annotated[str | None, Field(max_length=100, description="The player's handle (compared case-folded).")] = (
        None)

    model_config = ConfigDict(json_schema_extra={"anyOf": [{"required": ["playerId"]}, {"required": ["handle"]}]})


class SendChatMessage(Body):
    """A chat message: the channel, and a text or a preset (not both)."""

    channel: Annotated[Literal["SEATS", "SPECTATORS"], Field(description="The channel.")]
    text: Annotated[str | None, Field(description="Plain text, 1 to 500 characters after NFC normalisation.")] = None
    preset: Annotated[str | None, Field(description="A preset's id (GET /v1/chat/presets).")] = None



class FileReport(Body):
    """What is reported: a player, or a chat message (matchId, channel and seq together); why; a note."""

    reason: Annotated[Literal["SPAM", "ABUSE", "CHEATING", "NAME", "OTHER"], Field(description="Why.")]
    playerId: Annotated[str | None, Field(description="The player reported.")] = None
    matchId: Annotated[str | None, Field(description="A reported message's match.")] = None
    channel: Annotated[Literal["SEATS", "SPECTATORS"] | None, Field(description="A reported message's channel.")] = None
    seq: Annotated[Int32 | None, Field(description="A reported message's seq.")] = None
    note: Annotated[str | None, Field(max_length=1000, description="At most 1000 characters.")] = None


class ResolveReport(Body):
    """What was done about a report."""

    resolution: Annotated[str | None, Field(max_length=1000,
                                            description="At most 1000 characters, for the audit log.")] = None


class Penalty(Body):
    """How long (seconds; a ban's null or left out: for good) and a note for the audit log."""

    seconds: Annotated[float | None, Field(ge=1, le=10 * 365 * 24 * 3600, description="1 second to 10 years.")] = None
    note: Annotated[str | None, Field(max_length=1000, description="At most 1000 characters.")] = None


REQUESTS: list[type[Body]] = [CreateMatch, JoinMatch, AddBot, Act, InvitePlayers, AnswerInvitation, JoinByCode,
                              PlaceSeek, SignInAsGuest, RefreshSession, CreateAccessToken, LinkIdentity,
                              CreateWebhookEndpoint, RotateWebhookSecret, RegisterPushSubscription,
                              RegisterPushDevice, UpdatePushPreferences, UpdateProfile, PlayerRef, SendChatMessage,
                              FileReport, ResolveReport, Penalty]

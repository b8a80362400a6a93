"""The JSON Schemas (2020-12, as OpenAPI 3.1 takes them) of the REST bodies: requests, which the routes enforce,
and responses, which the tests check every answer against. Names and fields are GraphQL's (camelCase)."""

from __future__ import annotations

from typing import Any

from firebreak.api.rest.problems import rest_codes
from firebreak.domain.contract import OptionKind
from firebreak.matches.lifecycle import EndReason, MatchStatus
from firebreak.matches.mypage import Outcome
from firebreak.matchmaking.seeks import SeekStatus
from firebreak.players.records import PlayerKind, Scope

INT32 = {"type": "integer", "minimum": -(2**31), "maximum": 2**31 - 1}  # GraphQL's Int
ANY: dict[str, Any] = {"description": "Any JSON value."}


def ref(name: str) -> dict[str, Any]:
    """A reference to a component schema."""
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema, or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def obj(properties: dict[str, Any], description: str, required: list[str] | None = None) -> dict[str, Any]:
    """An object schema; every property is required unless `required` says otherwise."""
    return {"type": "object", "description": description, "properties": properties,
            "required": list(properties) if required is None else required}


def array(items: dict[str, Any], description: str = "") -> dict[str, Any]:
    """An array schema."""
    schema: dict[str, Any] = {"type": "array", "items": items}
    if description:
        schema["description"] = description
    return schema


STR = {"type": "string"}
INT = {"type": "integer"}
BOOL = {"type": "boolean"}
JSON_OBJECT = {"type": "object"}

REQUESTS: dict[str, dict[str, Any]] = {
    "CreateMatch": {
        "type": "object", "additionalProperties": False, "required": ["title", "seats"],
        "description": "What to play: a title id, the number of seats, options (Title.options; defaults filled in), "
                       "optionally a seed (a seeded match is reproducible; anyone who knows the seed can know the "
                       "hidden cards) and a turn clock (none: no time limit).",
        "properties": {
            "title": {"type": "string", "description": "A title id (GET /v1/titles)."},
            "seats": {**INT32, "description": "The number of seats (Title.minSeats-maxSeats)."},
            "options": {"type": ["object", "null"], "description": "Option name -> value (Title.options)."},
            "seed": {**INT32, "type": ["integer", "null"], "description": "The seed; random when left out."},
            "private": {"type": ["boolean", "null"], "description": "true: not listed; the answer's inviteCode "
                                                                   "(shown once) or an invitation reaches it."},
            "rated": {"type": ["boolean", "null"], "description": "true: a rated match (once played out it moves its "
                                                                 "players' and bots' ratings; only players and bots "
                                                                 "sit in it: else 403 RATED_NEEDS_PLAYER; no seed: "
                                                                 "else 422 BAD_OPTIONS)."},
            "clock": {
                "type": ["object", "null"], "additionalProperties": False,
                "description": "A turn clock for every seat: a Fischer clock (initialSeconds to start with, above 0 "
                               "and at most 7 days, plus incrementSeconds, 0 to 1 day, each time the seat's owner "
                               "acts), a per-move limit (perMoveSeconds, above 0 and at most 14 days: "
                               "correspondence time), or both. Out of range: 422 BAD_OPTIONS.",
                "properties": {"initialSeconds": {"type": ["number", "null"]}, "incrementSeconds": {"type": "number"},
                               "perMoveSeconds": {"type": ["number", "null"],
                                                  "description": "The most each decision may take (seconds)."}},
            },
        },
    },
    "JoinMatch": {
        "type": "object", "additionalProperties": False, "required": [],
        "description": "A display name (left out: the player's name with a player credential, else \"player\"), and "
                       "the seat wanted (null or left out: the first free one).",
        "properties": {"name": {"type": ["string", "null"]}, "seat": {**INT32, "type": ["integer", "null"]}},
    },
    "AddBot": {
        "type": "object", "additionalProperties": False, "required": ["level"],
        "description": "The bot level (Title.botLevels) and the seat (null or left out: the first free one).",
        "properties": {"level": {"type": "string"}, "seat": {**INT32, "type": ["integer", "null"]}},
    },
    "Act": {
        "type": "object", "additionalProperties": False, "required": ["action", "expectedVersion"],
        "description": "An action copied as is from legalActions, and the version it was listed at.",
        "properties": {"action": {"description": "One of the match's legalActions (a JSON object)."},
                       "expectedVersion": {**INT32, "description": "The match version the action was read at."}},
    },
}

OPTION_SPEC = obj({
    "name": {**STR, "description": "The key in the options object."},
    "kind": {"enum": [kind.name for kind in OptionKind],
             "description": "BOOL: true/false; INT: a whole number; CHOICE."},
    "default": {**ANY, "description": "The value used when the option is left out."},
    "description": STR, "choices": array(STR), "nullable": BOOL,
    "minimum": {"type": ["integer", "null"]}, "maximum": {"type": ["integer", "null"]}, "seats": array(INT),
}, "One option a title accepts when a match is created.")
SCORE_COLUMN = obj({"key": STR, "label": STR, "description": STR}, "One named part of a final score.")
BOT_LEVEL = obj({"name": STR, "description": STR}, "A bot level a seat of this title can be given.")
TITLE_PROPERTIES: dict[str, Any] = {
    "id": STR, "name": STR, "minSeats": INT, "maxSeats": INT,
    "options": array(ref("OptionSpec")), "scoreColumns": array(ref("ScoreColumn")),
    "botLevels": array(ref("BotLevel"), "random first"),
}
SEAT_INFO = obj({"seat": INT, "taken": BOOL, "name": {"type": ["string", "null"]},
                 "kind": {"type": ["string", "null"], "description": "human | bot"},
                 "level": {"type": ["string", "null"]},
                 "takenOver": {**BOOL, "description": "The service's bot plays it until its owner reclaims it."},
                 "resigned": {**BOOL, "description": "Its owner resigned: the service's bot plays it to the end."},
                 "program": {**BOOL, "description": "A human seat played by its player's program (joined with a "
                                                    "personal access token of the bot scope)."},
                 "player": {"type": ["string", "null"],
                            "description": "The id of the player the seat is bound to (null: none)."}},
                "Who sits in a seat (never their token).")
SEAT_CLOCK = obj({"seat": INT, "secondsLeft": {"type": "number"}, "running": BOOL, "takenOver": BOOL},
                 "One seat's turn clock as of this read.")
MATCH_CLOCK = obj({"initialSeconds": {"type": ["number", "null"]}, "incrementSeconds": {"type": "number"},
                   "perMoveSeconds": {"type": ["number", "null"]}, "seats": array(ref("SeatClock"))},
                  "The match's turn clock: a Fischer clock (initialSeconds null: none), a per-move limit, or both.")
SEAT_SCORE = obj({"seat": INT, "total": INT, "parts": array(obj({"key": STR, "value": INT}, "One part."))},
                 "A seat's final score.")
END_REASONS: list[str | None] = [reason.name for reason in EndReason]
MATCH_RESULT = obj({"endReason": {"enum": END_REASONS}, "reason": STR,
                    "columns": array(ref("ScoreColumn")), "scores": array(ref("SeatScore")), "winners": array(INT),
                    "resigned": array(INT, "The seats that resigned.")},
                   "How an over match came out.")
MATCH = obj({
    "id": STR, "title": STR, "status": {"enum": [status.name for status in MatchStatus]},
    "version": {**INT, "description": "Rises by one per applied step; send it back as expectedVersion."},
    "seatCount": INT, "options": JSON_OBJECT, "seats": array(ref("SeatInfo")),
    "clock": nullable(ref("MatchClock")), "endReason": {"enum": [*END_REASONS, None]},
    "you": {"type": ["integer", "null"], "description": "The caller's seat, or null for a spectator."},
    "toAct": array(INT, "Seats owing a decision now."),
    "serviceToAct": {**BOOL, "description": "The next step is the service's (a bot seat, a non-player turn)."},
    "view": {**JSON_OBJECT, "description": "The caller's view of the game (a spectator's without a seat token)."},
    "legalActions": array(JSON_OBJECT, "The caller's legal actions now; submit any of them as is."),
    "result": nullable(ref("MatchResult")),
    "rematch": {**nullable(obj({"id": STR}, "The rematch's id.")),
                "description": "The match's rematch once one was asked for (GET /v1/matches/{id} only)."},
}, "A match as the caller may see it (the GraphQL Match type's fields, events apart).")
MATCH["required"] = [name for name in MATCH["required"] if name != "rematch"]
EVENTS = array(JSON_OBJECT, "The step's events, redacted for the caller.")
PROBLEM = {
    "type": "object", "description": "RFC 9457 problem details, with the GraphQL code and, per code, more members.",
    "required": ["type", "title", "status", "detail", "code"],
    "properties": {
        "type": {**STR, "description": "A URI reference to the problem's entry in the docs."},
        "title": STR, "status": INT, "detail": STR,
        "code": {"type": "string", "examples": sorted(code.value for code in rest_codes()),
                 "description": "The code GraphQL uses for the same refusal (instead of ILLEGAL_ACTION, a rules "
                                "error may carry a more precise code, e.g. MALFORMED_ACTION)."},
        "currentVersion": {**INT, "description": "STALE_VERSION: the match's version now."},
        "version": {"type": ["integer", "null"], "description": "ILLEGAL_ACTION, NOT_YOUR_TURN, MATCH_OVER: the "
                                                                "match's version (unchanged)."},
        "retryAfter": {"type": "number", "description": "RATE_LIMITED: seconds to wait."},
        "reason": {"type": "string", "description": "UNAUTHENTICATED: why the credential was refused (missing, "
                                                    "malformed, expired, invalid, algorithm, revoked, reused, "
                                                    "unknown, not_configured, unavailable)."},
        "errors": array(obj({"pointer": STR, "detail": STR}, "Where and why.", ["detail"]),
                        "VALIDATION_FAILED: each place the request breaks its schema."),
    },
}

RESPONSES: dict[str, dict[str, Any]] = {
    "Problem": PROBLEM,
    "OptionSpec": OPTION_SPEC,
    "ScoreColumn": SCORE_COLUMN,
    "BotLevel": BOT_LEVEL,
    "Title": obj(TITLE_PROPERTIES, "A playable game."),
    "TitleDetail": obj({**TITLE_PROPERTIES, "schemas": obj(
        {part: {**JSON_OBJECT, "description": f"A JSON Schema (2020-12): {what}."} for part, what in (
            ("view", "Match.view"), ("action", "one of Match.legalActions"),
            ("event", "one event of a step"), ("result", "Match.result"))},
        "JSON Schemas of the title's dynamic parts (also published under docs/schemas/<title>/)."), "board": {
        **ANY, "description": "The static data a client draws (the title's client module knows its shape); null "
                              "for a title without any."}}, "A playable game, with its schemas and board data."),
    "TitleList": obj({"items": array(ref("Title"))}, "The playable titles."),
    "SeatInfo": SEAT_INFO,
    "SeatClock": SEAT_CLOCK,
    "MatchClock": MATCH_CLOCK,
    "SeatScore": SEAT_SCORE,
    "MatchResult": MATCH_RESULT,
    "Match": MATCH,
    "MatchPage": obj({"items": array(ref("Match")), "endCursor": {"type": ["string", "null"]},
                      "hasNextPage": BOOL}, "A page of matches, newest first; pass endCursor as after for the next."),
    "MatchCreated": obj({"matchId": STR, "hostToken": {**STR, "description": "Shown once: lets its holder add "
                                                                               "bots."},
                         "inviteCode": {"type": ["string", "null"],
                                        "description": "A private match's invite code, shown once (null: listed)."},
                         "match": ref("Match")}, "A new waiting match."),
    "SeatJoined": obj({"matchId": STR, "seat": INT, "token": {**STR, "description": "The seat's secret, shown "
                                                                                      "once: Authorization: Bearer."},
                       "started": BOOL,
                       "player": {"type": ["string", "null"],
                                  "description": "The player the seat is bound to (null: joined without a player "
                                                 "credential)."}},
                      "The caller's seat and its token."),
    "BotAdded": obj({"matchId": STR, "seat": INT, "level": STR, "started": BOOL}, "A bot sits in the seat."),
    "ActionAccepted": obj({"version": {**INT, "description": "The match's new version."}, "events": EVENTS,
                           "match": ref("Match")},
                          "The action was applied: the caller's events and the match as the caller now sees it "
                          "(left out when the request said Prefer: return=minimal).", ["version", "events"]),
    "Resignation": obj({"matchId": STR, "seat": INT, "version": INT, "matchEnded": BOOL, "match": ref("Match")},
                       "The caller's seat resigned: the match ended (matchEnded) or the service's bot plays it."),
    "SeatReclaimed": obj({"matchId": STR, "seat": INT, "version": INT, "match": ref("Match")},
                         "The caller plays their seat again; its clock restarted."),
    "SeatLeft": obj({"matchId": STR, "seat": INT}, "The seat of the waiting match is free again."),
    "MatchCancelled": obj({"matchId": STR}, "The waiting match is over (endReason CANCELLED), off the lobby."),
    "MatchEvent": obj({"version": INT, "events": EVENTS}, "The events of one applied step; version is the "
                                                           "match's version after it."),
    "EventPage": obj({"items": array(ref("MatchEvent"))}, "Steps after a version, oldest first."),
}

SCOPES = {"enum": [scope.name for scope in Scope]}
PLAYER_KINDS = {"enum": [kind.name for kind in PlayerKind]}
REQUESTS.update({
    "SignInAsGuest": {
        "type": "object", "additionalProperties": False, "required": ["name", "deviceId"],
        "description": "A display name and the device's id (a secret the app keeps: the same id signs the same guest "
                       "in again).",
        "properties": {"name": {**STR, "description": "1 to 40 printable characters (kept from the first sign-in)."},
                       "deviceId": {**STR, "description": "16 to 200 printable characters, random, kept on the "
                                                          "device."}},
    },
    "RefreshSession": {
        "type": "object", "additionalProperties": False, "required": ["refreshToken"],
        "description": "A session's refresh token (each works once).",
        "properties": {"refreshToken": STR},
    },
    "CreateAccessToken": {
        "type": "object", "additionalProperties": False, "required": ["name", "scopes"],
        "description": "A name for the token, its scopes (PLAY, BOT) and optionally a lifetime in seconds.",
        "properties": {"name": STR, "scopes": {"type": "array", "items": SCOPES},
                       "expiresInSeconds": {"type": ["integer", "null"]}},
    },
    "LinkIdentity": {
        "type": "object", "additionalProperties": False, "required": ["token"],
        "description": "A JWT of the operator's identity provider for the account to link.",
        "properties": {"token": STR},
    },
})
PLAYER = obj({"id": STR, "name": STR, "kind": PLAYER_KINDS}, "A player: id, display name, GUEST or EXTERNAL.")
ACCESS_TOKEN = obj({"id": STR, "name": STR, "scopes": array(SCOPES),
                    "created": {"type": "number", "description": "When it was made (epoch seconds)."},
                    "expires": {"type": ["number", "null"], "description": "When it stops working (null: never)."}},
                   "A personal access token as listed (never its secret).")
RESPONSES.update({
    "Player": PLAYER,
    "Me": obj({"id": STR, "name": STR, "kind": PLAYER_KINDS, "accessTokens": array(ref("AccessToken"))},
              "The signed-in player and its personal access tokens."),
    "Session": obj({
        "accessToken": {**STR, "description": "A short-lived bearer credential of the player."},
        "accessTokenExpiresIn": {**INT, "description": "Seconds the access token is valid."},
        "refreshToken": {**STR, "description": "Swaps for a new session once (POST /v1/auth/refresh); an already "
                                               "used one signs the whole session out."},
        "refreshTokenExpiresIn": {**INT, "description": "Seconds the session lives unless refreshed."},
        "player": ref("Player")}, "A signed-in session."),
    "SignedOut": obj({"everywhere": BOOL}, "The session (or every session of the player) is signed out."),
    "AccessToken": ACCESS_TOKEN,
    "AccessTokenList": obj({"items": array(ref("AccessToken"))}, "The player's live tokens, oldest first."),
    "AccessTokenCreated": obj({"token": {**STR, "description": "The secret, shown once: Authorization: Bearer."},
                               "accessToken": ref("AccessToken")}, "A new personal access token."),
    "AccessTokenRevoked": obj({"id": STR}, "The token stopped working."),
    "IdentityLinked": obj({"player": ref("Player")}, "The operator's identity is linked to the player."),
})

RESPONSES.update({
    "MyMatch": obj({
        "id": STR, "title": STR, "status": {"enum": [status.name for status in MatchStatus]},
        "version": {**INT, "description": "The match's version (expectedVersion of an action)."},
        "seat": {**INT, "description": "The player's seat."},
        "yourTurn": {**BOOL, "description": "Whether the player owes a decision now."},
        "clockDeadline": {"type": ["number", "null"], "description": "When the player's time runs out (epoch "
                                                                     "seconds); null without a clock or while the "
                                                                     "player's clock is not running."},
        "lastActivity": {"type": "number", "description": "When the match last changed (epoch seconds)."},
        "others": array(ref("SeatInfo"), "The other seats: names and kinds (open ones while waiting)."),
        "endReason": {"enum": [*END_REASONS, None]},
        "winners": {"type": ["array", "null"], "items": INT,
                    "description": "The winning seats once over (null before; [] for an abandoned match)."},
        "outcome": {"enum": [*(outcome.name for outcome in Outcome), None],
                    "description": "How it came out for the player once over (null before, and when nobody won)."},
        "cursor": {**STR, "description": "Pass as after to list the matches after this one."},
    }, "One of the player's matches, as the player's seat sees it."),
    "MyMatchPage": obj({"items": array(ref("MyMatch")), "endCursor": {"type": ["string", "null"]},
                        "hasNextPage": BOOL},
                       "A page of the player's matches: their turn first (oldest waiting first), then the rest by "
                       "last activity; pass endCursor as after for the next."),
})

COMPONENTS: dict[str, dict[str, Any]] = {**REQUESTS, **RESPONSES}

REQUESTS.update({
    "InvitePlayers": {
        "type": "object", "additionalProperties": False, "required": ["playerIds"],
        "description": "The players to invite (1 to 20 distinct ids).",
        "properties": {"playerIds": {"type": "array", "items": STR}},
    },
    "AnswerInvitation": {
        "type": "object", "additionalProperties": False, "required": ["accept"],
        "description": "accept: true takes a seat bound to the player, false declines; a display name (left out: "
                       "the player's).",
        "properties": {"accept": BOOL, "name": {"type": ["string", "null"]}},
    },
    "JoinByCode": {
        "type": "object", "additionalProperties": False, "required": ["code"],
        "description": "A private match's invite code, a display name and the seat wanted (null: the first free).",
        "properties": {"code": STR, "name": {"type": ["string", "null"]},
                       "seat": {**INT32, "type": ["integer", "null"]}},
    },
})
INVITER = obj({"id": STR, "name": {"type": ["string", "null"]}}, "The player who sent an invitation.")
RESPONSES.update({
    "Rematched": obj({"matchId": STR, "seat": {**INT, "description": "The caller's seat in the rematch."},
                      "match": ref("Match")}, "The rematch (the same for every caller) and the caller's seat in it."),
    "PlayersInvited": obj({"matchId": STR, "playerIds": array(STR), "invitedAt": {"type": "number"}},
                          "The players are invited."),
    "Invitation": obj({"match": ref("Match"), "from": {**nullable(INVITER), "description": "The inviting player "
                                                                                          "(null: the host token)."},
                       "invitedAt": {"type": "number", "description": "When (epoch seconds)."}},
                      "An open invitation to a waiting match."),
    "InvitationList": obj({"items": array(ref("Invitation"))}, "The player's open invitations, newest first."),
    "InvitationAnswered": obj({"matchId": STR, "accepted": BOOL, "seat": {"type": ["integer", "null"]},
                               "token": {"type": ["string", "null"], "description": "The seat's secret, shown "
                                                                                     "once (null: declined)."},
                               "started": BOOL}, "The invitation is answered."),
})
REQUESTS["PlaceSeek"] = {
    "type": "object", "additionalProperties": False, "required": ["title", "seats"],
    "description": "What to play (as CreateMatch takes it) and whether bots may fill a short table after a wait.",
    "properties": {
        "title": {"type": "string", "description": "A title id (GET /v1/titles)."},
        "seats": {**INT32, "description": "The number of seats (Title.minSeats-maxSeats)."},
        "options": {"type": ["object", "null"], "description": "Option name -> value (Title.options)."},
        "botsAfterSeconds": {"type": ["number", "null"],
                             "description": "Fill a table still short of players with the title's bots after this "
                                            "many seconds (0 to below the seek's lifetime; null: never)."},
    },
}
SEEK_STATUSES = [status.name for status in SeekStatus]
RESPONSES.update({
    "Seek": obj({
        "id": STR, "status": {"enum": SEEK_STATUSES, "description": "MATCHING: its table is being made into a match."},
        "title": STR, "seats": INT, "options": {**JSON_OBJECT, "description": "The pool's options, defaults filled."},
        "botsAfterSeconds": {"type": ["number", "null"]},
        "createdAt": {"type": "number", "description": "When it was made (epoch seconds)."},
        "expiresAt": {"type": "number", "description": "When it expires unless matched (epoch seconds)."},
        "endedAt": {"type": ["number", "null"], "description": "When it was matched, cancelled or expired."},
        "matchId": {"type": ["string", "null"], "description": "The match it was seated in (MATCHED)."},
        "seat": {"type": ["integer", "null"], "description": "The player's seat in that match (MATCHED)."},
    }, "A player's seek: what it asks for and where it is."),
    "SeekList": obj({"items": array(ref("Seek"))}, "The player's seeks, newest first."),
})
COMPONENTS.update({**REQUESTS, **RESPONSES})

EXPORT_SEAT = obj({
    "seat": INT, "kind": {"enum": ["player", "bot", "anonymous", "open"],
                          "description": "player: bound to a player (player holds the id); bot: a bot of `level`; "
                                         "anonymous: a person who joined without a player credential; open: "
                                         "never taken (a cancelled match)."},
    "name": STR, "player": {"type": ["string", "null"]}, "level": {"type": ["string", "null"]},
    "program": BOOL, "control": {"enum": ["takenOver", "resigned", None],
                                 "description": "Why the service played a person's seat at the end (null: its owner "
                                                "did)."}}, "Who sat in a seat.", ["seat", "kind"])
RESPONSES.update({
    "MatchExport": obj({
        "format": {"const": "firebreak.match-export"},
        "version": {"const": 1, "description": "The document's version."},
        "id": STR, "title": STR, "seatCount": INT,
        "options": {**JSON_OBJECT, "description": "The options the match was created with (defaults filled in)."},
        "seed": {**INT, "description": "The engine's seed: the title's new match of this seed, seat count and options "
                                       "is where the log starts."},
        "seats": array(EXPORT_SEAT),
        "createdAt": {"type": "number"}, "startedAt": {"type": ["number", "null"]}, "endedAt": {"type": "number"},
        "endReason": {"enum": [reason.value for reason in EndReason]},
        "finalVersion": {**INT, "description": "How many steps the log holds."},
        "log": array({**JSON_OBJECT, "description": "One step: {seat, action} (with bot or takeover when the "
                                                    "service chose it), {system: true} for a non-player step, or "
                                                    "{service, events} for a step of the service's that changes no "
                                                    "game state; pre: events the service stored before the "
                                                    "engine's (a spectator's part only)."}),
        "result": {**nullable(JSON_OBJECT), "description": "{endReason, reason, winners, resigned, scores: [{seat, "
                                                           "total, parts}]} as the match gave it."},
    }, "A finished match, self-contained: it replays through the title's engine to the same result."),
})
COMPONENTS.update(RESPONSES)
NUMBER_OR_NULL = {"type": ["number", "null"]}
REQUESTS.update({
    "CreateWebhookEndpoint": {
        "type": "object", "additionalProperties": False, "required": ["url"],
        "description": "A new webhook endpoint: where to POST, which event types (empty or left out: every type).",
        "properties": {"url": {**STR, "maxLength": 2000, "description": "An http(s) URL."},
                       "eventTypes": {"type": "array", "items": STR},
                       "description": {**STR, "maxLength": 200}},
    },
    "RotateWebhookSecret": {
        "type": "object", "additionalProperties": False, "required": [],
        "description": "keepPrevious (default true): the previous secret signs too, until the next rotation.",
        "properties": {"keepPrevious": BOOL},
    },
})
RESPONSES.update({
    "WebhookEndpoint": obj({
        "id": {**STR, "description": "default: the settings' FIREBREAK_WEBHOOK_URL."}, "url": STR,
        "eventTypes": {**array(STR), "description": "The types it takes (empty: every type)."},
        "description": STR, "created": {"type": "number"},
        "fromSettings": BOOL, "secretCount": {**INT, "description": "Secrets signing each delivery (2 while "
                                                                    "rotating)."}},
        "A webhook endpoint (never its secrets)."),
    "WebhookEndpointList": obj({"items": array(ref("WebhookEndpoint"))}, "Every webhook endpoint."),
    "WebhookEndpointCreated": obj({"endpoint": ref("WebhookEndpoint"),
                                   "secret": {**STR, "description": "Its whsec_ secret, shown this once."}},
                                  "The added endpoint and its secret."),
    "WebhookSecretRotated": obj({"endpoint": ref("WebhookEndpoint"),
                                 "secret": {**STR, "description": "The new whsec_ secret, shown this once."}},
                                "The endpoint's new secret."),
    "WebhookEndpointDeleted": obj({"id": STR, "abandoned": {**INT, "description": "Deliveries not yet done, now "
                                                                                   "marked failed."}},
                                  "The removed endpoint."),
    "WebhookDelivery": obj({
        "id": {**STR, "description": "The webhook-id header of every attempt."}, "endpointId": STR,
        "playerId": STR, "eventId": STR, "type": STR,
        "status": {"enum": ["pending", "sending", "succeeded", "failed"]},
        "attempts": INT, "created": {"type": "number"}, "nextAttempt": NUMBER_OR_NULL,
        "lastAttempt": NUMBER_OR_NULL, "lastStatus": {"type": ["integer", "null"]},
        "lastError": {"type": ["string", "null"]}, "latencySeconds": NUMBER_OR_NULL, "finished": NUMBER_OR_NULL,
        "payload": {**JSON_OBJECT, "description": "The body sent: {type, timestamp, data}."}},
        "One event's delivery to one endpoint."),
    "WebhookDeliveryPage": obj({"items": array(ref("WebhookDelivery")), "endCursor": {"type": ["string", "null"]},
                                "hasNextPage": BOOL}, "A page of kept deliveries, newest first."),
    "WebhookRedelivered": obj({"delivery": ref("WebhookDelivery")}, "The delivery, due again now."),
})
PROVISIONAL = {**BOOL, "description": "Whether the rating is still provisional (fewer than 10 rated matches)."}
RATING_VALUE = {**INT, "description": "The displayed rating (a newcomer shows 1500; 200 points ahead finishes ahead "
                                      "about 3 times in 4)."}
MU = {"type": "number", "description": "OpenSkill's estimate of the skill (Plackett-Luce; a newcomer has 25)."}
SIGMA = {"type": "number", "description": "OpenSkill's uncertainty of mu (a newcomer has 25/3)."}
GAMES = {**INT, "description": "Rated matches played in the title."}
RANK = {**INT, "description": "The place on the title's leaderboard (1: the top; bot levels are on it too)."}
RESPONSES.update({
    "Rating": obj({"title": STR, "value": RATING_VALUE, "provisional": PROVISIONAL, "games": GAMES, "rank": RANK,
                   "mu": MU, "sigma": SIGMA}, "The player's rating in one title and their rank on its leaderboard."),
    "LeaderboardEntry": obj({
        "rank": RANK, "player": {"type": ["string", "null"], "description": "The player's id (null: a bot level)."},
        "botLevel": {"type": ["string", "null"], "description": "The bot level rated here (null: a player)."},
        "name": {**STR, "description": "The player's display name, or \"<level> bot\"."},
        "rating": RATING_VALUE, "provisional": PROVISIONAL, "games": GAMES, "mu": MU, "sigma": SIGMA,
        "cursor": {**STR, "description": "Pass as after to list the entries after this one."},
    }, "One rated player or bot level on a title's leaderboard."),
    "Leaderboard": obj({"items": array(ref("LeaderboardEntry")), "endCursor": {"type": ["string", "null"]},
                        "hasNextPage": BOOL},
                       "A page of a title's leaderboard, highest rating first; pass endCursor as after for the next."),
    "RatingChange": obj({
        "before": {**INT, "description": "The displayed rating before the match."},
        "after": {**INT, "description": "The displayed rating after it."},
        "delta": {**INT, "description": "after - before."},
        "place": {**INT, "description": "The player's place in the match (1: first; equal places are ties)."},
        "provisional": {**BOOL, "description": "Whether the rating after the match is still provisional."},
    }, "How a finished rated match moved the player's rating."),
})
RESPONSES["Me"]["properties"]["ratings"] = array(ref("Rating"), "The player's rating in every title they have "
                                                                "played rated, by title id.")
RESPONSES["Me"]["required"].append("ratings")
RESPONSES["MyMatch"]["properties"].update({
    "rated": {**BOOL, "description": "Whether the match is rated."},
    "ratingChange": {**nullable(ref("RatingChange")),
                     "description": "How the match moved the player's rating (null: not rated, not over, not played "
                                    "out, or not applied yet)."}})
RESPONSES["MyMatch"]["required"] += ["rated", "ratingChange"]
RESPONSES["MatchExport"]["properties"]["ratingChanges"] = array(obj({
    "seat": INT, "key": {**STR, "description": "The player's id, or bot:<level> for a bot level."},
    **RESPONSES["RatingChange"]["properties"]}, "How the match moved one seat's rating."),
    "The rating changes the match made, by seat (empty: not rated, or not applied yet).")
RESPONSES["MatchExport"]["required"].append("ratingChanges")
COMPONENTS.update({**REQUESTS, **RESPONSES})

"""Every refusal code the service answers, once: its HTTP status, the GraphQL result type that carries it and what
it means. The lobby, the pipeline and both API surfaces name codes only through Refusal; a title's own rules codes
(e.g. MALFORMED_ACTION) pass through an illegal action's answer unregistered."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

OK = 200  # the status of a GraphQL answer whose errors carry a request-level code


class Refusal(StrEnum):
    """A stable machine-readable refusal code (its value is the code itself)."""

    MALFORMED_JSON = "MALFORMED_JSON"
    JSON_TOO_DEEP = "JSON_TOO_DEEP"
    BAD_REQUEST = "BAD_REQUEST"
    UNAUTHORIZED = "UNAUTHORIZED"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    NOT_FOUND = "NOT_FOUND"
    MATCH_NOT_FOUND = "MATCH_NOT_FOUND"
    SEAT_NOT_FOUND = "SEAT_NOT_FOUND"
    TITLE_NOT_FOUND = "TITLE_NOT_FOUND"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    STALE_VERSION = "STALE_VERSION"
    SEAT_TAKEN = "SEAT_TAKEN"
    MATCH_STARTED = "MATCH_STARTED"
    MATCH_NOT_STARTED = "MATCH_NOT_STARTED"
    MATCH_OVER = "MATCH_OVER"
    SEAT_TAKEN_OVER = "SEAT_TAKEN_OVER"
    SEAT_RESIGNED = "SEAT_RESIGNED"
    NOT_TAKEN_OVER = "NOT_TAKEN_OVER"
    NOT_CREATOR = "NOT_CREATOR"
    BODY_TOO_LARGE = "BODY_TOO_LARGE"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    VALIDATION_FAILED = "VALIDATION_FAILED"
    ILLEGAL_ACTION = "ILLEGAL_ACTION"
    BAD_IDEMPOTENCY_KEY = "BAD_IDEMPOTENCY_KEY"
    BAD_OPTIONS = "BAD_OPTIONS"
    UNKNOWN_TITLE = "UNKNOWN_TITLE"
    BAD_SEAT = "BAD_SEAT"
    UNKNOWN_BOT_LEVEL = "UNKNOWN_BOT_LEVEL"
    RATE_LIMITED = "RATE_LIMITED"
    INTERNAL = "INTERNAL"
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"
    QUERY_TOO_DEEP = "QUERY_TOO_DEEP"
    QUERY_TOO_COMPLEX = "QUERY_TOO_COMPLEX"
    TOO_MANY_ALIASES = "TOO_MANY_ALIASES"
    SUBSCRIPTION_NEEDS_WEBSOCKET = "SUBSCRIPTION_NEEDS_WEBSOCKET"
    UNAUTHENTICATED = "UNAUTHENTICATED"
    FORBIDDEN_SCOPE = "FORBIDDEN_SCOPE"
    ALREADY_SEATED = "ALREADY_SEATED"
    BAD_NAME = "BAD_NAME"
    BAD_DEVICE_ID = "BAD_DEVICE_ID"
    BAD_SCOPES = "BAD_SCOPES"
    TOO_MANY_TOKENS = "TOO_MANY_TOKENS"
    TOKEN_NOT_FOUND = "TOKEN_NOT_FOUND"
    IDENTITY_TAKEN = "IDENTITY_TAKEN"
    ALREADY_LINKED = "ALREADY_LINKED"
    BAD_CURSOR = "BAD_CURSOR"
    MATCH_NOT_OVER = "MATCH_NOT_OVER"
    BAD_INVITE_CODE = "BAD_INVITE_CODE"
    PLAYER_NOT_FOUND = "PLAYER_NOT_FOUND"
    ALREADY_INVITED = "ALREADY_INVITED"
    INVITATION_NOT_FOUND = "INVITATION_NOT_FOUND"
    TOO_MANY_INVITATIONS = "TOO_MANY_INVITATIONS"
    TOO_MANY_SEEKS = "TOO_MANY_SEEKS"
    SEEK_NOT_FOUND = "SEEK_NOT_FOUND"
    SEEK_NOT_WAITING = "SEEK_NOT_WAITING"
    BAD_BOTS_AFTER = "BAD_BOTS_AFTER"
    ADMIN_UNAUTHORIZED = "ADMIN_UNAUTHORIZED"
    WEBHOOK_NOT_FOUND = "WEBHOOK_NOT_FOUND"
    DELIVERY_NOT_FOUND = "DELIVERY_NOT_FOUND"
    BAD_WEBHOOK = "BAD_WEBHOOK"
    BAD_PUSH_SUBSCRIPTION = "BAD_PUSH_SUBSCRIPTION"
    RATED_NEEDS_PLAYER = "RATED_NEEDS_PLAYER"
    CURSOR_EXPIRED = "CURSOR_EXPIRED"
    BAD_HANDLE = "BAD_HANDLE"
    HANDLE_TAKEN = "HANDLE_TAKEN"
    NO_REMATCH_OFFER = "NO_REMATCH_OFFER"
    NOT_ACCEPTED = "NOT_ACCEPTED"
    NOT_YOURSELF = "NOT_YOURSELF"
    ALREADY_FRIENDS = "ALREADY_FRIENDS"
    FRIEND_NOT_FOUND = "FRIEND_NOT_FOUND"
    FRIEND_REQUEST_NOT_FOUND = "FRIEND_REQUEST_NOT_FOUND"
    TOO_MANY_FRIENDS = "TOO_MANY_FRIENDS"
    TOO_MANY_FRIEND_REQUESTS = "TOO_MANY_FRIEND_REQUESTS"
    TOO_MANY_BLOCKS = "TOO_MANY_BLOCKS"
    PLAYER_BLOCKED = "PLAYER_BLOCKED"
    BAD_SEARCH = "BAD_SEARCH"
    REAUTHENTICATE = "REAUTHENTICATE"
    BAD_MESSAGE = "BAD_MESSAGE"
    CHAT_NOT_ALLOWED = "CHAT_NOT_ALLOWED"
    MUTED = "MUTED"
    BAD_REPORT = "BAD_REPORT"
    REPORT_NOT_FOUND = "REPORT_NOT_FOUND"
    UNSUPPORTED_LOCALE = "UNSUPPORTED_LOCALE"

    @property
    def status(self) -> int:
        """The HTTP status it is answered with (a GraphQL-only code: that of its GraphQL answer)."""
        return ENTRIES[self].status

    @property
    def graphql(self) -> str | None:
        """The GraphQL result type that carries it (None: a request-level code, answered as a GraphQL error)."""
        return ENTRIES[self].graphql

    @property
    def description(self) -> str:
        """What it means, for the docs."""
        return ENTRIES[self].description

    @property
    def rest(self) -> bool:
        """Whether the REST surface answers it (GraphQL-only codes are not in the OpenAPI document)."""
        return ENTRIES[self].rest


@dataclass(frozen=True)
class Entry:
    """What the registry knows of a code."""

    status: int
    graphql: str | None
    description: str
    rest: bool = True


ENTRIES: dict[Refusal, Entry] = {
    Refusal.MALFORMED_JSON: Entry(400, None, "The body is not valid JSON (or not UTF-8)."),
    Refusal.JSON_TOO_DEEP: Entry(400, None, "The body (or a JSON parameter) nests deeper than the service reads."),
    Refusal.BAD_REQUEST: Entry(400, None, "The body is not a JSON object."),
    Refusal.UNAUTHORIZED: Entry(401, "Unauthorized",
                                "The bearer token is missing, malformed, or not valid for this match."),
    Refusal.NOT_YOUR_TURN: Entry(403, "NotYourTurn",
                                 "Another seat (or the service) owes the decision; nothing changed."),
    Refusal.NOT_FOUND: Entry(404, None, "No such path."),
    Refusal.MATCH_NOT_FOUND: Entry(404, "MatchNotFound", "No match has this id (or it has expired)."),
    Refusal.SEAT_NOT_FOUND: Entry(404, None, "The match has no such seat."),
    Refusal.TITLE_NOT_FOUND: Entry(404, None, "No title has this id."),
    Refusal.METHOD_NOT_ALLOWED: Entry(405, None, "The path does not take this method (see the Allow header)."),
    Refusal.STALE_VERSION: Entry(409, "StaleVersion",
                                 "The match is no longer at expectedVersion (currentVersion says where it is); read "
                                 "it again and resubmit if still wanted."),
    Refusal.SEAT_TAKEN: Entry(409, "SeatTaken", "The seat asked for is taken (or every seat is)."),
    Refusal.MATCH_STARTED: Entry(409, "MatchStarted", "The match has started: its seats can no longer change."),
    Refusal.MATCH_NOT_STARTED: Entry(409, "MatchNotStarted",
                                     "Seats are still open; the match starts when every seat is taken."),
    Refusal.MATCH_OVER: Entry(409, "MatchOver", "The match has ended: it can still be read, but takes no more "
                                                "actions (409, not 410: the match itself is not gone)."),
    Refusal.SEAT_TAKEN_OVER: Entry(409, "SeatTakenOver",
                                   "The service's bot plays this seat since its clock ran out: take it back with "
                                   "reclaimSeat (POST /v1/matches/{id}/reclaim), then act; nothing changed."),
    Refusal.SEAT_RESIGNED: Entry(409, "SeatResigned", "The seat has resigned: it no longer acts, resigns again or "
                                                      "reclaims (the service's bot plays it to the end)."),
    Refusal.NOT_TAKEN_OVER: Entry(409, "NotTakenOver", "The seat is not taken over (its owner plays it): there "
                                                       "is nothing to reclaim; nothing changed."),
    Refusal.NOT_CREATOR: Entry(403, "NotCreator", "Only the match's creator (its host token, or the player who "
                                                  "created it) may do this (cancelMatch, invitePlayers); nothing "
                                                  "changed."),
    Refusal.BODY_TOO_LARGE: Entry(413, None, "The body is larger than the service accepts."),
    Refusal.UNSUPPORTED_MEDIA_TYPE: Entry(415, None, "The body must be sent as application/json."),
    Refusal.VALIDATION_FAILED: Entry(422, None, "The body or a parameter does not match the operation's schema "
                                                "(errors lists where)."),
    Refusal.ILLEGAL_ACTION: Entry(422, "IllegalAction", "The action is not legal now (the title may give a more "
                                                        "precise code, e.g. MALFORMED_ACTION); nothing changed."),
    Refusal.BAD_IDEMPOTENCY_KEY: Entry(422, "IllegalAction", "The Idempotency-Key header must be 1-128 characters."),
    Refusal.BAD_OPTIONS: Entry(422, "InvalidInput",
                               "The seat count or an option is not one the title accepts (Title.options)."),
    Refusal.UNKNOWN_TITLE: Entry(422, "InvalidInput", "No title has this id (createMatch's title)."),
    Refusal.BAD_SEAT: Entry(422, "InvalidInput", "The seat number is outside the match's seats."),
    Refusal.UNKNOWN_BOT_LEVEL: Entry(422, "InvalidInput", "The title has no bot of this level (Title.botLevels)."),
    Refusal.RATE_LIMITED: Entry(429, None, "Too many requests: wait retryAfter seconds (also the Retry-After header)."),
    Refusal.INTERNAL: Entry(500, None, "An unexpected fault of the service (no details are given)."),
    Refusal.SERVICE_UNAVAILABLE: Entry(503, None, "The service cannot reach its store; retry after Retry-After "
                                                  "seconds (a write's outcome is unknown: retry it with the same "
                                                  "Idempotency-Key, or re-read)."),
    Refusal.QUERY_TOO_DEEP: Entry(OK, None, "The query nests fields deeper than the service runs.", rest=False),
    Refusal.QUERY_TOO_COMPLEX: Entry(OK, None, "The query expands to more selections (or same-named fields to "
                                               "merge) than the service validates.", rest=False),
    Refusal.TOO_MANY_ALIASES: Entry(OK, None, "The query has more aliases than the service accepts.", rest=False),
    Refusal.SUBSCRIPTION_NEEDS_WEBSOCKET: Entry(OK, None, "A subscription was sent over plain HTTP; subscriptions are "
                                                          "served over WebSocket.", rest=False),
    Refusal.UNAUTHENTICATED: Entry(401, "Unauthenticated",
                                   "A player credential (a session's access token, a personal access token, the "
                                   "operator's JWT, a refresh token) is missing where one is needed, or is malformed, "
                                   "expired, forged or revoked; reason says which (never the credential)."),
    Refusal.FORBIDDEN_SCOPE: Entry(403, "ForbiddenScope",
                                   "The credential is valid but may not do this: a personal access token acts and "
                                   "joins (scopes play, bot), while managing the account (tokens, sign-out, linking) "
                                   "needs a signed-in session or the operator's JWT."),
    Refusal.ALREADY_SEATED: Entry(409, "AlreadySeated", "The player already holds a seat of this match (one seat "
                                                        "per player per match)."),
    Refusal.BAD_NAME: Entry(422, "InvalidInput", "A display or token name must be 1 to 40 printable characters."),
    Refusal.BAD_DEVICE_ID: Entry(422, "InvalidInput", "A device id must be 16 to 200 printable characters (a secret "
                                                      "the device keeps)."),
    Refusal.BAD_SCOPES: Entry(422, "InvalidInput", "A personal access token needs one or more of the scopes play and "
                                                   "bot, and a lifetime (if any) of 1 second to 10 years."),
    Refusal.TOO_MANY_TOKENS: Entry(409, "TooManyTokens", "The player holds the most personal access tokens allowed: "
                                                         "revoke one first."),
    Refusal.TOKEN_NOT_FOUND: Entry(404, "TokenNotFound", "The player has no personal access token with this id."),
    Refusal.IDENTITY_TAKEN: Entry(409, "IdentityTaken", "The operator's identity belongs to another player already."),
    Refusal.ALREADY_LINKED: Entry(409, "AlreadyLinked", "The player is linked to another identity of the operator's "
                                                        "provider already."),
    Refusal.BAD_CURSOR: Entry(422, None, "The after argument is not a cursor of this list (pass a page's endCursor or "
                                         "an edge's cursor as it was given)."),
    Refusal.MATCH_NOT_OVER: Entry(409, "MatchNotOver", "A rematch or an export needs the match to be over; it is not "
                                                       "yet."),
    Refusal.BAD_INVITE_CODE: Entry(404, "InviteCodeNotFound",
                                   "No waiting match has this invite code (a wrong code counts as a failed "
                                   "authentication: too many and the client is blocked for a while)."),
    Refusal.PLAYER_NOT_FOUND: Entry(404, "PlayerNotFound", "No player has this id (or handle)."),
    Refusal.ALREADY_INVITED: Entry(409, "AlreadyInvited", "The player is invited to this match already."),
    Refusal.INVITATION_NOT_FOUND: Entry(404, "InvitationNotFound",
                                        "The player has no open invitation to this match (never invited, already "
                                        "answered, or the match is gone)."),
    Refusal.UNSUPPORTED_LOCALE: Entry(422, "InvalidInput", "The locale is not a language the service speaks "
                                                           "(Query.languages, GET /v1/languages); \"\" forgets the "
                                                           "saved one."),
    Refusal.TOO_MANY_INVITATIONS: Entry(422, "InvalidInput", "An invitation names 1 to 20 distinct players at a "
                                                             "time, and a match has at most 100 invitations."),
    Refusal.TOO_MANY_SEEKS: Entry(409, "TooManySeeks", "The player is already seeking in this pool (same title, seat "
                                                       "count and options), or holds the most open seeks allowed: "
                                                       "cancel one first."),
    Refusal.SEEK_NOT_FOUND: Entry(404, "SeekNotFound", "The player has no seek with this id (or it is long gone)."),
    Refusal.SEEK_NOT_WAITING: Entry(409, "SeekNotWaiting", "The seek is no longer waiting (being matched, matched, "
                                                           "cancelled or expired): status says which; nothing "
                                                           "changed."),
    Refusal.BAD_BOTS_AFTER: Entry(422, "InvalidInput", "botsAfterSeconds must be 0 or more and less than the seek's "
                                                       "lifetime (FIREBREAK_SEEK_TTL)."),
    Refusal.ADMIN_UNAUTHORIZED: Entry(401, "AdminUnauthorized",
                                      "The operation needs the operator's admin token (FIREBREAK_ADMIN_TOKEN) as "
                                      "the bearer credential: none was sent, or another one (counted as a failed "
                                      "authentication), or no admin token is set."),
    Refusal.WEBHOOK_NOT_FOUND: Entry(404, "WebhookNotFound", "No webhook endpoint added through the admin API has "
                                                             "this id (the settings' endpoint is changed in the "
                                                             "settings)."),
    Refusal.DELIVERY_NOT_FOUND: Entry(404, "DeliveryNotFound", "No kept webhook delivery has this id."),
    Refusal.BAD_WEBHOOK: Entry(422, "InvalidInput", "A webhook endpoint needs an http(s) URL with a host and no "
                                                    "credentials (not an internal address, unless "
                                                    "FIREBREAK_WEBHOOK_ALLOWED_HOSTS allows it), known event types, "
                                                    "and a description of at most 200 printable characters (at most "
                                                    "100 endpoints)."),
    Refusal.BAD_PUSH_SUBSCRIPTION: Entry(422, "InvalidInput",
                                         "A push registration needs a browser PushSubscription's http(s) endpoint "
                                         "(not an internal address, unless FIREBREAK_PUSH_ALLOWED_HOSTS allows it), "
                                         "keys.p256dh (a P-256 public key) and keys.auth (16 bytes), base64url; a "
                                         "preference change names pushed kinds only."),
    Refusal.RATED_NEEDS_PLAYER: Entry(403, "RatedNeedsPlayer",
                                      "A rated match seats players and bots only: join it with a player credential "
                                      "(a signed-in session, a personal access token or the operator's JWT); "
                                      "nothing changed."),
    Refusal.CURSOR_EXPIRED: Entry(410, None, "The player's events after this cursor are no longer all kept (a feed "
                                             "keeps its newest 1000): read me.matches afresh and follow the events "
                                             "without a cursor (from now on), or with after \"0\" (the oldest kept)."),
    Refusal.BAD_HANDLE: Entry(422, "BadHandle", "A handle must be 3 to 24 characters after NFKC, letters and digits "
                                                "of one script and '-', '_', '.', starting and ending with a letter "
                                                "or digit; reason says which rule it breaks."),
    Refusal.HANDLE_TAKEN: Entry(409, "HandleTaken", "Another player holds this handle (handles are compared "
                                                    "case-folded after NFKC); nothing changed."),
    Refusal.NO_REMATCH_OFFER: Entry(409, "NoRematchOffer", "No rematch offer of this match stands to accept or "
                                                           "decline (none was made, or it was declined, expired or "
                                                           "accepted by everyone): offerRematch makes one."),
    Refusal.NOT_ACCEPTED: Entry(409, "NotAccepted",
                                "The other player does not take this from you now (a friend request, an invitation, a "
                                "rematch offer); the service does not say why (their lists may be full, or they may "
                                "take none from you). Nothing changed."),
    Refusal.NOT_YOURSELF: Entry(422, "InvalidInput", "A player cannot befriend or block themselves."),
    Refusal.ALREADY_FRIENDS: Entry(409, "AlreadyFriends", "The two players are friends already; nothing changed."),
    Refusal.FRIEND_NOT_FOUND: Entry(404, "FriendNotFound", "This player is not your friend; nothing changed."),
    Refusal.FRIEND_REQUEST_NOT_FOUND: Entry(404, "FriendRequestNotFound",
                                            "No friend request between you and this player waits for this answer "
                                            "(never made, or answered, cancelled or ended by a block)."),
    Refusal.TOO_MANY_FRIENDS: Entry(409, "TooManyFriends", "You have as many friends, with the friend requests you "
                                                           "sent, as FIREBREAK_FRIENDS_MAX allows: remove one (or "
                                                           "cancel a request) first."),
    Refusal.TOO_MANY_FRIEND_REQUESTS: Entry(409, "TooManyFriendRequests",
                                            "You have as many friend requests waiting for an answer as "
                                            "FIREBREAK_FRIEND_REQUESTS_MAX allows: cancel one first."),
    Refusal.TOO_MANY_BLOCKS: Entry(409, "TooManyBlocks", "You block as many players as FIREBREAK_BLOCKS_MAX allows: "
                                                         "unblock one first."),
    Refusal.PLAYER_BLOCKED: Entry(409, "PlayerBlocked", "You block this player: unblock them first; nothing "
                                                        "changed."),
    Refusal.BAD_SEARCH: Entry(422, None, "A search prefix is 1 to 24 characters a handle may hold (letters, digits, "
                                         "'-', '_', '.'); it is compared case-folded, as handles are."),
    Refusal.REAUTHENTICATE: Entry(403, "Reauthenticate",
                                  "Deleting the account needs a recent sign-in: sign in again (a new session, or a "
                                  "fresh token of the operator's provider) and ask within "
                                  "FIREBREAK_DELETION_REAUTH_SECONDS. Nothing changed."),
    Refusal.BAD_MESSAGE: Entry(422, "BadMessage", "A chat message is plain text of 1 to 500 characters after NFC "
                                                  "normalisation, with no control character but a line break and no "
                                                  "bidirectional control, or a known preset (not both); reason says "
                                                  "which rule it breaks. Nothing was sent."),
    Refusal.CHAT_NOT_ALLOWED: Entry(403, "ChatNotAllowed", "This channel is not the caller's: the seats' channel is "
                                                           "read and written by the match's seated persons only; "
                                                           "the spectators' channel is written by signed-in players "
                                                           "without a seat (seats read it)."),
    Refusal.BAD_REPORT: Entry(422, "InvalidInput", "A report names a player or a chat message you may read "
                                                   "(matchId, channel and seq), not yourself, with a reason (spam, "
                                                   "abuse, cheating, name, other) and a note of at most 1000 "
                                                   "characters without control or bidirectional characters; an "
                                                   "admin action's duration is 1 second to 10 years."),
    Refusal.REPORT_NOT_FOUND: Entry(404, "ReportNotFound", "No report has this id."),
    Refusal.MUTED: Entry(403, "Muted", "The operator has muted this player: no chat until the mute ends (until says "
                                       "when)."),
}


VERSIONED = frozenset({Refusal.ILLEGAL_ACTION, Refusal.NOT_YOUR_TURN, Refusal.MATCH_OVER, Refusal.SEAT_TAKEN_OVER,
                       Refusal.SEAT_RESIGNED, Refusal.NOT_TAKEN_OVER})
"""The refusals of an act or a seat operation that carry the match's version (STALE_VERSION carries it as
currentVersion instead)."""


def registered(code: str) -> Refusal | None:
    """The registered refusal of this code, or None (a title's own rules code)."""
    try:
        return Refusal(code)
    except ValueError:
        return None

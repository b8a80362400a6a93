"""What each refusal means, said to a person: a REST problem's `detail` and a GraphQL problem's `message` in a
language other than English (issue 50: "Problem details (title, detail) too").

In English a problem keeps its precise message (written for developers: which field, which limit); in another
language it says what its code means in the reader's words, from the service's catalogue (context "problem
detail"), since a person reading German or Ukrainian is better served by a sentence in their language than by a
precise one in English. A program reads `code` (and the members each code adds), never the words.
"""

from __future__ import annotations

from firebreak.api import language
from firebreak.domain.words import noun
from firebreak.matches.refusals import Refusal

CONTEXT = "problem detail"
ILLEGAL = "This move is not allowed now; nothing changed."  # and a title's own rules codes (MALFORMED_ACTION...)

SAID: dict[str, str] = {
    Refusal.MALFORMED_JSON: "The request could not be read.",
    Refusal.JSON_TOO_DEEP: "The request is nested too deeply.",
    Refusal.BAD_REQUEST: "The request could not be read.",
    Refusal.UNAUTHORIZED: "You may not do this in this match.",
    Refusal.NOT_YOUR_TURN: "It is not your turn; nothing changed.",
    Refusal.NOT_FOUND: "There is nothing here.",
    Refusal.MATCH_NOT_FOUND: "This match does not exist or has expired.",
    Refusal.SEAT_NOT_FOUND: "This match has no such seat.",
    Refusal.TITLE_NOT_FOUND: "There is no such game.",
    Refusal.METHOD_NOT_ALLOWED: "This cannot be done here.",
    Refusal.STALE_VERSION: "The match has moved on meanwhile: look at it again, then make your move.",
    Refusal.SEAT_TAKEN: "This seat is taken.",
    Refusal.MATCH_STARTED: "The match has already started.",
    Refusal.MATCH_NOT_STARTED: "The match has not started yet: it is waiting for players.",
    Refusal.MATCH_OVER: "The match is over.",
    Refusal.SEAT_TAKEN_OVER: "Your time ran out and a bot plays your seat: take it back first.",
    Refusal.SEAT_RESIGNED: "You have resigned from this match.",
    Refusal.NOT_TAKEN_OVER: "You are playing this seat yourself; there is nothing to take back.",
    Refusal.NOT_CREATOR: "Only the player who created the match may do this.",
    Refusal.BODY_TOO_LARGE: "The request is too large.",
    Refusal.UNSUPPORTED_MEDIA_TYPE: "The request is not in a form the service reads.",
    Refusal.VALIDATION_FAILED: "Some of what was sent is not acceptable.",
    Refusal.ILLEGAL_ACTION: ILLEGAL,
    Refusal.BAD_IDEMPOTENCY_KEY: "The request could not be read.",
    Refusal.BAD_OPTIONS: "These players or options do not fit this game.",
    Refusal.UNKNOWN_TITLE: "There is no such game.",
    Refusal.BAD_SEAT: "This match has no such seat.",
    Refusal.UNKNOWN_BOT_LEVEL: "There is no bot of this level for this game.",
    Refusal.RATE_LIMITED: "Too many requests: please wait a moment and try again.",
    Refusal.INTERNAL: "Something went wrong on our side. Please try again.",
    Refusal.SERVICE_UNAVAILABLE: "The service is briefly unavailable. Please try again in a moment.",
    Refusal.QUERY_TOO_DEEP: "The request asks for too much at once.",
    Refusal.QUERY_TOO_COMPLEX: "The request asks for too much at once.",
    Refusal.TOO_MANY_ALIASES: "The request asks for too much at once.",
    Refusal.SUBSCRIPTION_NEEDS_WEBSOCKET: "Live updates need a WebSocket connection.",
    Refusal.UNAUTHENTICATED: "Please sign in again.",
    Refusal.FORBIDDEN_SCOPE: "This key may not do this: sign in to do it.",
    Refusal.ALREADY_SEATED: "You already have a seat in this match.",
    Refusal.BAD_NAME: "A name must be 1 to 40 characters long.",
    Refusal.BAD_DEVICE_ID: "This device could not be recognised.",
    Refusal.BAD_SCOPES: "A key needs at least one permission and a valid lifetime.",
    Refusal.TOO_MANY_TOKENS: "You have too many keys: remove one first.",
    Refusal.TOKEN_NOT_FOUND: "There is no such key.",
    Refusal.IDENTITY_TAKEN: "This account is already linked to another player.",
    Refusal.ALREADY_LINKED: "You are already linked to another account.",
    Refusal.BAD_CURSOR: "This list has changed: load it again from the start.",
    Refusal.MATCH_NOT_OVER: "The match is not over yet.",
    Refusal.BAD_INVITE_CODE: "No waiting match has this invite code.",
    Refusal.PLAYER_NOT_FOUND: "There is no such player.",
    Refusal.ALREADY_INVITED: "This player is already invited.",
    Refusal.INVITATION_NOT_FOUND: "This invitation is no longer open.",
    Refusal.TOO_MANY_INVITATIONS: "Too many invitations at once.",
    Refusal.TOO_MANY_SEEKS: "You are already looking for a match like this.",
    Refusal.SEEK_NOT_FOUND: "There is no such search for a match.",
    Refusal.SEEK_NOT_WAITING: "This search for a match has already ended.",
    Refusal.BAD_BOTS_AFTER: "The wait before bots join is out of range.",
    Refusal.ADMIN_UNAUTHORIZED: "Only the operator may do this.",
    Refusal.WEBHOOK_NOT_FOUND: "There is no such webhook.",
    Refusal.DELIVERY_NOT_FOUND: "There is no such delivery.",
    Refusal.BAD_WEBHOOK: "This webhook address is not acceptable.",
    Refusal.BAD_PUSH_SUBSCRIPTION: "Notifications could not be turned on for this device.",
    Refusal.RATED_NEEDS_PLAYER: "A rated match needs you to sign in.",
    Refusal.CURSOR_EXPIRED: "Too much has happened since: load the list again.",
    Refusal.BAD_HANDLE: "A handle must be 3 to 24 letters or digits, and may hold '-', '_' and '.'.",
    Refusal.HANDLE_TAKEN: "This handle is taken.",
    Refusal.NO_REMATCH_OFFER: "There is no rematch offer to answer.",
    Refusal.NOT_ACCEPTED: "The other player does not accept this now.",
    Refusal.NOT_YOURSELF: "You cannot do this to yourself.",
    Refusal.ALREADY_FRIENDS: "You are already friends.",
    Refusal.FRIEND_NOT_FOUND: "This player is not your friend.",
    Refusal.FRIEND_REQUEST_NOT_FOUND: "There is no such friend request.",
    Refusal.TOO_MANY_FRIENDS: "You have as many friends as allowed: remove one first.",
    Refusal.TOO_MANY_FRIEND_REQUESTS: "You have too many open friend requests: cancel one first.",
    Refusal.TOO_MANY_BLOCKS: "You block as many players as allowed: unblock one first.",
    Refusal.PLAYER_BLOCKED: "You block this player: unblock them first.",
    Refusal.BAD_SEARCH: "Search with 1 to 24 letters or digits.",
    Refusal.REAUTHENTICATE: "Please sign in again first.",
    Refusal.BAD_MESSAGE: "A message must be 1 to 500 characters of plain text.",
    Refusal.CHAT_NOT_ALLOWED: "You cannot use this chat.",
    Refusal.MUTED: "You are muted and cannot chat for now.",
    Refusal.BAD_REPORT: "This report cannot be made.",
    Refusal.REPORT_NOT_FOUND: "There is no such report.",
    Refusal.UNSUPPORTED_LOCALE: "This language is not available.",
}


def sentences() -> list[str]:
    """Every sentence the catalogues translate (scripts/catalogues.py)."""
    return sorted(set(SAID.values()))


def said(code: str, precise: str, lang: str | None = None) -> str:
    """A problem's words for a person in the language (the request's by default): the precise message in English,
    else what its code means in that language."""
    lang = lang or language.chosen()
    if lang == language.DEFAULT:
        return precise
    sentence = SAID.get(code, ILLEGAL)  # a code not registered is a title's rules code: an illegal action's
    return language.write(noun(CONTEXT, sentence), language.service(lang), lambda seat: None)

"""REST chat beside the board (GraphQL's sendChatMessage, chat and chatPresets; api/chat.py holds the rules)."""

from __future__ import annotations

from typing import Literal

from firebreak.api import chat
from firebreak.api.rest import requests as R
from firebreak.api.rest.problems import player_refusal, problem
from firebreak.api.rest.table import PATH_ID, Auth, Call, Operation, Param, Reply
from firebreak.chat import presets
from firebreak.chat.store import PAGE, Channel
from firebreak.matches.refusals import Refusal
from firebreak.players.errors import PlayerError


def _refusal(error: chat.ChatError) -> Exception:
    extra: dict[str, str | float] = {}
    if error.reason is not None:
        extra["reason"] = error.reason.value
    if error.until is not None:
        extra["until"] = error.until
    return problem(error.code, error.message, **extra)


async def send(call: Call) -> Reply:
    """Send a message to a channel of the match; 201 with the message as kept."""
    body = call.form(R.SendChatMessage)
    context = call.context
    principal = await context.authenticate()
    if isinstance(principal, PlayerError):
        raise player_refusal(principal)
    try:
        loaded = await chat.load(call.services, call.params["id"])
        await context.seat_in(loaded)
        sent = await chat.send(call.services, loaded, await context.caller(), principal, Channel[body.channel],
                               body.text, body.preset)
    except chat.ChatError as exc:
        raise _refusal(exc) from None
    shown = await chat.shown(call.services, [sent], frozenset())
    return Reply({"chatMessage": chat.message_json(shown[0])}, 201)


async def read(call: Call) -> Reply:
    """A page of a channel after a cursor, oldest first."""
    context = call.context
    try:
        loaded = await chat.load(call.services, call.params["id"])
        await context.seat_in(loaded)
        caller = await context.caller()
        channel = Channel[call.params["channel"]]
        chat.may_read(loaded, caller, channel)
        shown, cursor, more = await chat.page(call.services, loaded, channel, max(0, call.params["after"]),
                                              call.params["first"], caller.player)
    except chat.ChatError as exc:
        raise _refusal(exc) from None
    return Reply({"items": [chat.message_json(item) for item in shown], "endCursor": cursor, "hasNextPage": more})


async def list_presets(_call: Call) -> Reply:
    """The quick messages."""
    return Reply({"items": [{"id": key, "text": text} for key, text in presets.PRESETS.items()]})


CHANNEL = Param("channel", "query", Literal["SEATS", "SPECTATORS"], "SEATS: the seated persons' channel (theirs "
                "alone); SPECTATORS: written by signed-in players without a seat, read by anyone who may read the "
                "match.", required=True)
AFTER = Param("after", "query", int, "Messages after this seq (0: from the oldest kept; then the endCursor "
              "answered).", default=0)
FIRST = Param("first", "query", int, f"At most this many messages (clamped to 1-{PAGE}).", default=50)
RULES = ("The seats' channel is read and written by the match's seated persons (a seat's token, or the credential "
         "of the player a seat is bound to); the spectators' channel is written by signed-in players without a "
         "seat and read by anyone who may read the match, seats too. ")
OPERATIONS = [
    Operation("POST", "/v1/matches/{id}/chat", "sendChatMessage", "chat", "Send a chat message",
              RULES + "A message is plain text of 1 to 500 characters after NFC normalisation (no control "
              "character but a line break, no bidirectional control: 422 BAD_MESSAGE with reason), or a preset (GET "
              "/v1/chat/presets), not both; a preset in the seats' channel gets the bot seats' answers. A muted "
              "player gets 403 MUTED (until); a sender has FIREBREAK_CHAT_PER_MINUTE messages a minute (429 "
              "RATE_LIMITED past it). Chat is never pushed.", send, success=201, response="ChatMessageSent",
              body=R.SendChatMessage, example={"channel": "SEATS", "text": "good luck!"}, params=(PATH_ID,),
              auth=Auth.OPTIONAL, write=True,
              codes=(Refusal.MATCH_NOT_FOUND, Refusal.CHAT_NOT_ALLOWED, Refusal.BAD_MESSAGE, Refusal.MUTED,
                     Refusal.UNAUTHENTICATED, Refusal.UNAUTHORIZED)),
    Operation("GET", "/v1/matches/{id}/chat", "readChat", "chat", "Read a chat channel",
              RULES + "A page after a cursor, oldest first; read on with after=endCursor while hasNextPage. A channel "
              "keeps its newest 200 "
              "messages while the match is live; a finished match's chat is archived whole. Messages of players the "
              "reader blocks are left out; a deleted account's show as removed.", read, response="ChatPage",
              params=(PATH_ID, CHANNEL, AFTER, FIRST), auth=Auth.OPTIONAL,
              codes=(Refusal.MATCH_NOT_FOUND, Refusal.CHAT_NOT_ALLOWED, Refusal.UNAUTHENTICATED,
                     Refusal.UNAUTHORIZED)),
    Operation("GET", "/v1/chat/presets", "listChatPresets", "chat", "The chat's quick messages",
              "The presets a player sends with a tap (POST /v1/matches/{id}/chat's preset), each with its English "
              "text.", list_presets, response="ChatPresetList"),
]

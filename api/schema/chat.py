"""GraphQL: chat beside the board (api/chat.py holds the rules): send a message (sendChatMessage), read a channel by
cursor (chat), follow it live (the chat subscription), and the presets."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from enum import Enum
from typing import Annotated, cast

import strawberry
from graphql import GraphQLError

from firebreak.api import chat
from firebreak.api.context import Info
from firebreak.api.schema.problems import (
    BadMessage,
    ChatNotAllowed,
    MatchNotFound,
    Muted,
    Unauthenticated,
    player_problem,
)
from firebreak.api.schema.subscription import _ended as stream_ended
from firebreak.api.schema.subscription import _guard as stream_guard
from firebreak.chat import presets
from firebreak.chat.store import Channel
from firebreak.matches.refusals import Refusal
from firebreak.players.errors import PlayerError
from firebreak.players.records import Principal


@strawberry.enum
class ChatChannel(Enum):
    """A match's two chat channels."""

    SEATS = strawberry.enum_value(Channel.SEATS.value, description="The seated persons' channel: they alone read "
                                                                   "and write it.")
    SPECTATORS = strawberry.enum_value(Channel.SPECTATORS.value,
                                       description="The spectators' channel: written by signed-in players without a "
                                                   "seat, read by anyone who may read the match (seats too).")


@strawberry.type
class ChatMessage:
    """A chat message as the reader is shown it."""

    seq: int = strawberry.field(description="Its number in its channel (1, 2, ...): pass the last one seen as after.")
    channel: ChatChannel = strawberry.field(description="Its channel.")
    at: float = strawberry.field(description="When it was sent (epoch seconds).")
    seat: int | None = strawberry.field(description="The sender's seat (null: a spectator).")
    player: strawberry.ID | None = strawberry.field(description="The sender's player id (null: a seat token's "
                                                                "person, a bot, or a removed message).")
    handle: str | None = strawberry.field(description="The sender's handle now (null: no player, or gone).")
    name: str = strawberry.field(description="The sender's name when it was sent.")
    text: str = strawberry.field(description="What it says (a preset's English text for a preset; empty once "
                                             "removed).")
    preset: str | None = strawberry.field(description="The preset's id, when it was one (chatPresets lists them): a "
                                                      "client may show it in the reader's language.")
    removed: bool = strawberry.field(description="The sender deleted their account: show \"message removed\".")

    @classmethod
    def of(cls, item: chat.Shown) -> ChatMessage:
        """The GraphQL form of a shown message."""
        m = item.message
        return cls(seq=m.seq, channel=ChatChannel[m.channel.name], at=m.at, seat=m.seat,
                   player=None if m.player is None else strawberry.ID(m.player), handle=item.handle, name=m.name,
                   text="" if m.removed else m.text, preset=m.preset, removed=m.removed)


@strawberry.type
class ChatPage:
    """A page of a channel, oldest first."""

    messages: list[ChatMessage] = strawberry.field(description="The messages after the cursor asked for.")
    end_cursor: int = strawberry.field(description="Pass it as after to read on (the last message's seq; never past "
                                                   "the channel's newest).")
    has_next_page: bool = strawberry.field(description="Whether more messages follow now.")


@strawberry.type
class ChatMessageSent:
    """The message as kept."""

    chat_message: ChatMessage = strawberry.field(description="The message.")


@strawberry.type
class ChatPreset:
    """A quick message sent with a tap."""

    id: str = strawberry.field(description="Its id (sendChatMessage's preset).")
    text: str = strawberry.field(description="Its English text.")


@strawberry.input
class SendChatMessageInput:
    """A message: a text or a preset (not both)."""

    match_id: strawberry.ID = strawberry.field(description="The match.")
    channel: ChatChannel = strawberry.field(description="The channel.")
    text: str | None = strawberry.field(default=None, description="Plain text, 1 to 500 characters after NFC.")
    preset: str | None = strawberry.field(default=None, description="A preset's id (chatPresets).")


SendChatMessageResult = Annotated[
    ChatMessageSent | MatchNotFound | ChatNotAllowed | BadMessage | Muted | Unauthenticated,
    strawberry.union("SendChatMessageResult", description="The message as kept, or why it was not sent.")]
ChatPageResult = Annotated[ChatPage | MatchNotFound | ChatNotAllowed | Unauthenticated, strawberry.union(
    "ChatPageResult", description="A page of the channel, or why it cannot be read.")]


def problem(error: chat.ChatError) -> MatchNotFound | ChatNotAllowed | BadMessage | Muted:
    """The GraphQL form of a chat refusal."""
    if error.reason is not None:
        return BadMessage(code=error.code, message=error.message, reason=error.reason.value)
    if error.until is not None:
        return Muted(code=error.code, message=error.message, until=error.until)
    if error.code == Refusal.MATCH_NOT_FOUND:
        return MatchNotFound(code=error.code, message=error.message)
    return ChatNotAllowed(code=error.code, message=error.message)


@strawberry.type
class ChatQuery:
    """Reading chat."""

    @strawberry.field
    async def chat(
        self, info: Info, match_id: Annotated[strawberry.ID, strawberry.argument(description="The match.")],
        channel: Annotated[ChatChannel, strawberry.argument(description="The channel.")],
        after: Annotated[int, strawberry.argument(description="Messages after this seq (0: the oldest kept).")] = 0,
        first: Annotated[int, strawberry.argument(description="At most this many (1 to 100).")] = 50,
    ) -> ChatPageResult:
        """A page of a match's chat channel, oldest first (a channel keeps its newest 200 messages while the match
        is live; a finished match's whole chat is archived). Messages of players the reader blocks are left out."""
        try:
            loaded = await chat.load(info.context.services, str(match_id))
            await info.context.seat_in(loaded)  # counts a stranger's token as a failed authentication
            caller = await info.context.caller()
            chat.may_read(loaded, caller, Channel[channel.name])
            shown, cursor, more = await chat.page(info.context.services, loaded, Channel[channel.name],
                                                  max(0, after), first, caller.player)
        except chat.ChatError as exc:
            return cast(MatchNotFound | ChatNotAllowed, problem(exc))
        return ChatPage(messages=[ChatMessage.of(item) for item in shown], end_cursor=cursor, has_next_page=more)

    @strawberry.field
    def chat_presets(self) -> list[ChatPreset]:
        """The quick messages a player sends with a tap (sendChatMessage's preset)."""
        return [ChatPreset(id=key, text=text) for key, text in presets.PRESETS.items()]


@strawberry.type
class ChatMutation:
    """Writing chat."""

    @strawberry.mutation
    async def send_chat_message(
        self, info: Info, input: Annotated[SendChatMessageInput, strawberry.argument(description="The message.")],
    ) -> SendChatMessageResult:
        """Send a message to a match's channel: the seats' channel by a seated person (its seat token or its
        player's credential), the spectators' channel by a signed-in player without a seat. BadMessage: not plain
        text of 1 to 500 characters (control and bidirectional characters are refused); Muted: the operator muted
        the player; RATE_LIMITED (an error) past FIREBREAK_CHAT_PER_MINUTE. A preset in the seats' channel gets the
        bot seats' answers. Chat is never pushed."""
        context = info.context
        principal = await context.authenticate()
        if isinstance(principal, PlayerError):
            return cast(Unauthenticated, player_problem(principal))
        try:
            loaded = await chat.load(context.services, str(input.match_id))
            await context.seat_in(loaded)
            caller = await context.caller()
            sent = await chat.send(context.services, loaded, caller, principal if isinstance(principal, Principal)
                                   else None, Channel[input.channel.name], input.text, input.preset)
        except chat.ChatError as exc:
            return problem(exc)
        shown = await chat.shown(context.services, [sent], frozenset())
        return ChatMessageSent(chat_message=ChatMessage.of(shown[0]))


@strawberry.type
class ChatSubscription:
    """Following chat."""

    @strawberry.subscription
    async def chat(
        self, info: Info, match_id: Annotated[strawberry.ID, strawberry.argument(description="The match.")],
        channel: Annotated[ChatChannel, strawberry.argument(description="The channel.")],
        after: Annotated[int, strawberry.argument(
            description="Send the messages after this seq (0: from the oldest kept; resume with the last seen).")] = 0,
    ) -> AsyncGenerator[ChatMessage, None]:
        """Every message of the channel after `after`, then each new one. The credential comes from the
        connection_init payload, as for matchEvents; the stream ends with UNAUTHENTICATED when a player credential
        stops holding (signed out, banned), UNAUTHORIZED when a seat token's seat is left."""
        context = info.context
        try:
            loaded = await chat.load(context.services, str(match_id))
            seat = await context.seat_in(loaded)
            caller = await context.caller()
            chat.may_read(loaded, caller, Channel[channel.name])
        except chat.ChatError as exc:
            raise GraphQLError(exc.message, extensions={"code": exc.code}) from None
        player = isinstance(await context.authenticate(), Principal)
        guard = await stream_guard(context, loaded.id, seat, player)
        async for batch in chat.follow(context.services, loaded, Channel[channel.name], max(0, after),
                                       caller.player):
            refused = None if guard is None else await guard.refused()
            if refused is not None:
                raise stream_ended(refused, player)
            for item in batch:
                yield ChatMessage.of(item)

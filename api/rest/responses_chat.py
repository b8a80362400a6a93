"""The chat's REST answer bodies as pydantic models (see responses.py): GraphQL's ChatMessage, ChatPage,
ChatMessageSent and ChatPreset."""

from __future__ import annotations

from typing import Annotated

from firebreak.api.rest.responses import Answer, d, enum_of


class ChatMessage(Answer):
    """A chat message as the reader is shown it."""

    seq: Annotated[int, d("Its number in its channel (1, 2, ...): pass the last one seen as after.")]
    channel: Annotated[str, enum_of(["SEATS", "SPECTATORS"], "Its channel.")]
    at: Annotated[float, d("When it was sent (epoch seconds).")]
    seat: Annotated[int | None, d("The sender's seat (null: a spectator).")]
    player: Annotated[str | None, d("The sender's player id (null: a seat token's person, a bot, or removed).")]
    handle: Annotated[str | None, d("The sender's handle now (null: no player, or gone).")]
    name: Annotated[str, d("The sender's name when it was sent.")]
    text: Annotated[str, d("What it says (a preset's English text for a preset; empty once removed).")]
    preset: Annotated[str | None, d("The preset's id, when it was one: a client may show it in the reader's "
                                    "language.")]
    removed: Annotated[bool, d("The sender deleted their account: show 'message removed'.")]


class ChatMessageSent(Answer):
    """The message as kept."""

    chatMessage: ChatMessage


class ChatPage(Answer):
    """A page of a channel, oldest first."""

    items: list[ChatMessage]
    endCursor: Annotated[int, d("Pass it as after to read on (the last message's seq; never past the channel's "
                                "newest).")]
    hasNextPage: Annotated[bool, d("Whether more messages follow now.")]


class ChatPreset(Answer):
    """A quick message sent with a tap."""

    id: Annotated[str, d("Its id (the preset of POST /v1/matches/{id}/chat).")]
    text: Annotated[str, d("Its English text.")]


class ChatPresetList(Answer):
    """The chat's quick messages."""

    items: list[ChatPreset]

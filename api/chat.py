"""Chat beside the board, for both API surfaces (api/schema/chat.py, api/rest/chat.py): who may read and write
which channel, sending (checked, rate limited, muted players refused, bots answering presets), reading a page by
cursor (from Redis, or from the archive once Redis has let the match go), following a channel live, and what a
reader is shown (never a message of a player the reader blocks; a deleted account's as "message removed").

The seats' channel is read and written by the match's seated persons (a seat's token, or the player a seat is bound
to); the spectators' channel is read by anyone who may read the match, seats included, and written by signed-in
players without a seat. Chat is never pushed (push/message.py pushes player events only)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from firebreak.api.ratelimit import rate_limited
from firebreak.api.services import Services
from firebreak.chat import archive, presets
from firebreak.chat.store import PAGE, Channel, Message, Sender
from firebreak.chat.text import SAYS, TextReason, problem
from firebreak.matches.callers import Caller
from firebreak.matches.lifecycle import SeatKind
from firebreak.matches.refusals import Refusal
from firebreak.matches.store import Loaded, hash_token
from firebreak.moderation.mutes import muted_until
from firebreak.players.records import Principal
from firebreak.social import keys as social_keys

HANDLES_KEPT = 10_000       # senders' handles a process remembers
HANDLES_KEPT_SECONDS = 10.0  # for this long: a handle changed shows in chat within it
FOLLOW_WAIT = 10.0  # seconds a follower waits for a message before it looks at the match and its credential again


class ChatError(Exception):
    """A chat request refused: a registered code, a message for people, and the rule a bad text broke (reason) or
    when a mute ends (until)."""

    def __init__(self, code: Refusal, message: str, reason: TextReason | None = None,
                 until: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.until = until


@dataclass(frozen=True)
class Shown:
    """A message as a reader is shown it: the message and its sender's handle now (None: no player, or gone)."""

    message: Message
    handle: str | None


async def load(services: Services, match_id: str) -> Loaded:
    """The match to chat beside (from the archive once Redis let it go), or MATCH_NOT_FOUND."""
    loaded = await services.store.read(match_id)
    if loaded is None:
        raise ChatError(Refusal.MATCH_NOT_FOUND, f"no match {match_id!r}")
    return loaded


def may_read(loaded: Loaded, caller: Caller, channel: Channel) -> None:
    """Raise CHAT_NOT_ALLOWED unless the caller reads the channel."""
    if channel is Channel.SEATS and loaded.seat_of(caller) is None:
        raise ChatError(Refusal.CHAT_NOT_ALLOWED, "the seats' channel is read by the match's seated persons only")


async def send(services: Services, loaded: Loaded, caller: Caller, principal: Principal | None, channel: Channel,
               text: str | None, preset: str | None) -> Message:
    """Send a message to a channel of the match; raise ChatError (or RATE_LIMITED's through `charge`)."""
    seat = loaded.seat_of(caller)
    if channel is Channel.SEATS and seat is None:
        raise ChatError(Refusal.CHAT_NOT_ALLOWED, "the seats' channel is written by the match's seated persons only")
    if channel is Channel.SPECTATORS:
        if seat is not None:
            raise ChatError(Refusal.CHAT_NOT_ALLOWED, "a seat reads the spectators' channel but writes in the seats' "
                                                      "channel")
        if principal is None:
            raise ChatError(Refusal.CHAT_NOT_ALLOWED, "the spectators' channel is written by signed-in players")
    if caller.player is not None:
        until = await muted_until(services.store.redis, caller.player)
        if until is not None:
            raise ChatError(Refusal.MUTED, "the operator has muted you: no chat until the mute ends", until=until)
    verdict = await services.limits.chat(who(caller))
    if not verdict.allowed:  # charged before the text is read: a flood of bad messages is held back too
        services.metrics.rate_limited("chat")
        raise rate_limited(verdict.retry_after)
    said, kept_preset = _content(text, preset)
    if seat is not None:
        record = loaded.seats[seat]
        sender = Sender(record.player, seat, record.name)
    else:
        assert principal is not None
        sender = Sender(principal.player.id, None, principal.player.name)
    sent = await services.chat.send(loaded.id, channel, sender, said, kept_preset)
    if sent is None:
        raise ChatError(Refusal.MATCH_NOT_FOUND, f"no match {loaded.id!r}")
    message, status = sent
    over = [message]
    if kept_preset is not None and channel is Channel.SEATS:
        over += await _bots_answer(services, loaded, kept_preset)
    if status == "over" and services.archive is not None:  # the finisher copied the chat already: this joins it
        await services.archive.run(archive.keep, services.archive, loaded.id, over)
    return message


def who(caller: Caller) -> str:
    """The rate limit's key of a sender: its player, else its seat token (by hash)."""
    return f"player:{hash_token(caller.player)}" if caller.player else f"token:{hash_token(caller.token or '')}"


def _content(text: str | None, preset: str | None) -> tuple[str, str | None]:
    """The text to keep and the preset (if one), or BAD_MESSAGE."""
    if preset is not None:
        if text is not None:
            raise ChatError(Refusal.BAD_MESSAGE, "send a text or a preset, not both", TextReason.EMPTY)
        said = presets.text_of(preset)
        if said is None:
            raise ChatError(Refusal.BAD_MESSAGE, f"no preset {preset[:40]!r}: presets are "
                                                 f"{', '.join(presets.PRESETS)}", TextReason.EMPTY)
        return said, preset
    clean, reason = problem(text or "")
    if reason is not None:
        raise ChatError(Refusal.BAD_MESSAGE, SAYS[reason], reason)
    return clean, None


async def _bots_answer(services: Services, loaded: Loaded, preset: str) -> list[Message]:
    """Each bot seat answers a preset it knows with its preset (BOT_ANSWERS)."""
    answer = presets.BOT_ANSWERS.get(preset)
    sent: list[Message] = []
    if answer is None:
        return sent
    for seat, record in sorted(loaded.seats.items()):
        if record.kind is SeatKind.BOT:
            said = presets.text_of(answer) or ""
            done = await services.chat.send(loaded.id, Channel.SEATS, Sender(None, seat, record.name), said, answer)
            if done is not None:
                sent.append(done[0])
    return sent


async def blocked(services: Services, reader: str | None) -> frozenset[str]:
    """The players a reader blocks (their messages are hidden from it)."""
    if reader is None:
        return frozenset()
    return frozenset(await services.store.redis.zrange(social_keys.blocks(reader), 0, -1))


async def page(services: Services, loaded: Loaded, channel: Channel, after: int, limit: int,
               reader: str | None) -> tuple[list[Shown], int, bool]:
    """A page of the channel after seq `after` as the reader is shown it, the cursor to read on from (the last
    message's seq; never past the channel's newest, so a cursor from the future cannot skip messages to come), and
    whether more follow."""
    stands = await services.chat.newest(loaded.id)  # read once: each channel's newest seq (0: none in Redis)
    messages = await _stored(services, loaded.id, channel, after, limit, stands)
    newest = stands[channel]  # 0: none in Redis (none yet, or archived)
    last = min(after, newest) if newest else after  # with nothing new: where the channel stands
    cursor = messages[-1].seq if messages else last
    more = bool(messages) and (cursor < newest if newest else len(messages) >= max(1, min(limit, PAGE)))
    return await shown(services, messages, await blocked(services, reader)), cursor, more


async def _stored(services: Services, match_id: str, channel: Channel, after: int, limit: int,
                  newest: dict[Channel, int]) -> list[Message]:
    """Messages after a seq from Redis, or from the archive once Redis has let the match's chat go (no channel has
    any message in Redis)."""
    messages = await services.chat.page(match_id, channel, after, limit, newest[channel])
    if messages or services.archive is None or any(newest.values()):
        return messages
    return await services.archive.run(archive.page, services.archive, match_id, channel, after, limit)


async def shown(services: Services, messages: list[Message], hidden: frozenset[str]) -> list[Shown]:
    """The messages a reader is shown (those of players it blocks left out), each with its sender's handle now
    (as HANDLES_KEPT_SECONDS old at most: a message followed by many readers looks its sender up once)."""
    visible = [m for m in messages if m.player is None or m.player not in hidden]
    handles = {player: await handle_of(services, player) for player in {m.player for m in visible if m.player}}
    return [Shown(m, None if m.player is None else handles.get(m.player)) for m in visible]


_handles: dict[str, tuple[str | None, float]] = {}  # player -> (handle, until when it is trusted)


async def handle_of(services: Services, player: str) -> str | None:
    """A player's handle now (None: gone), from this process's short-lived memory of it when there."""
    now = time.monotonic()
    kept = _handles.get(player)
    if kept is not None and kept[1] > now:
        return kept[0]
    found = await services.players.directory.get(player)
    if len(_handles) >= HANDLES_KEPT:
        _handles.clear()
    handle = None if found is None else found.handle
    _handles[player] = (handle, now + HANDLES_KEPT_SECONDS)
    return handle


async def follow(services: Services, loaded: Loaded, channel: Channel, after: int,
                 reader: str | None) -> AsyncIterator[list[Shown]]:
    """The channel's messages after seq `after`, then each new one as it comes (in batches), as the reader is shown
    them; an empty batch every FOLLOW_WAIT seconds with nothing new (the caller rechecks what it must then)."""
    cursor = after
    hidden, hidden_at = await blocked(services, reader), time.monotonic()
    while True:
        async with services.chat_hub.watching(loaded.id) as watch:
            backlog = True  # entered before this read, the reader sees every message the read does not
            while True:
                woken = watch.changed  # taken before looking: a message arriving after the look sets it
                messages = None if backlog else watch.after(channel, cursor)
                if messages is None:  # the backlog, or more behind than the reader keeps
                    messages = await _stored(services, loaded.id, channel, cursor, PAGE,
                                             await services.chat.newest(loaded.id))
                    backlog = len(messages) >= PAGE
                if time.monotonic() - hidden_at > FOLLOW_WAIT:  # blocks made meanwhile apply from now on
                    hidden, hidden_at = await blocked(services, reader), time.monotonic()
                if messages:
                    cursor = messages[-1].seq
                    yield await shown(services, messages, hidden)
                    continue
                yield []
                if watch.task is None or watch.task.done():
                    break  # the reader stopped (Redis away): start another
                await watch.wait(woken, FOLLOW_WAIT)


def message_json(item: Shown) -> dict[str, Any]:
    """A message as both surfaces answer it."""
    m = item.message
    return {"seq": m.seq, "channel": m.channel.name, "at": m.at, "seat": m.seat, "player": m.player,
            "handle": item.handle, "name": m.name, "text": "" if m.removed else m.text, "preset": m.preset,
            "removed": m.removed}

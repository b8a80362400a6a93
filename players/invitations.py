"""Invitations by player id or handle: the host of a waiting match (its host token, or the player who created
it) invites players, who list their invitations and accept (a seat bound to them) or decline.

The match's invited hash (matches/invitations.py) is the truth; each player's list (keys.invitations, in the
player's slot) is an index written after it and checked against it when read: an entry whose invitation was
answered, or whose match started or expired, is dropped then (on a Cluster the two live in different slots, so
they cannot be written in one script; a crash in between leaves an index entry the next listing drops)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from firebreak.matches import feed
from firebreak.matches.callers import Caller
from firebreak.matches.feed import FeedType
from firebreak.matches.invitations import Invitation, Invitations
from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.lobby import Lobby, LobbyError, Seated
from firebreak.matches.refusals import Refusal
from firebreak.matches.store import Loaded
from firebreak.players import keys
from firebreak.players.directory import Directory

MAX_AT_ONCE = 20  # players one invitation names at most
LISTED = 100  # invitations a player's list shows at most (the newest)
KEPT = 1000  # index entries a player keeps at most (the oldest are dropped)


@dataclass(frozen=True)
class Listed:
    """An open invitation as its player lists it: the invitation, its (waiting) match and the inviter's handle now
    (None: the host token invited, or the inviter is gone)."""

    invitation: Invitation
    match: Loaded
    by_handle: str | None = None


class PlayerInvitations:
    """Invite, list and answer, over the lobby (and its store) and the players' directory."""

    def __init__(self, lobby: Lobby, directory: Directory) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.directory = directory
        self.invitations = Invitations(lobby.store)

    async def invite(self, match_id: str, caller: Caller, player_ids: list[str],
                     handles: Sequence[str] = ()) -> list[Invitation]:
        """Invite players, named by id or by handle, to a waiting match, all or none (LobbyError: MATCH_NOT_FOUND,
        NOT_CREATOR, MATCH_STARTED, TOO_MANY_INVITATIONS, PLAYER_NOT_FOUND, ALREADY_SEATED, ALREADY_INVITED,
        NOT_ACCEPTED: refuses)."""
        if len(handles) > MAX_AT_ONCE:
            raise LobbyError(Refusal.TOO_MANY_INVITATIONS, f"name 1 to {MAX_AT_ONCE} distinct players")
        player_ids = [*player_ids]
        for handle in handles:
            found = await self.directory.by_handle(handle)
            if found is None:
                raise LobbyError(Refusal.PLAYER_NOT_FOUND, f"no player has the handle {handle[:40]!r}")
            player_ids.append(found.id)
        loaded = await self.store.load(match_id)
        if loaded is None:
            raise LobbyError(Refusal.MATCH_NOT_FOUND, f"no match {match_id!r}")
        if not loaded.is_creator(caller):
            raise LobbyError(Refusal.NOT_CREATOR, "inviting needs the match's host token or the player who created it")
        if loaded.status is not MatchStatus.WAITING:
            raise LobbyError(Refusal.MATCH_STARTED, "the match has started: nobody can be invited any more")
        wanted = list(dict.fromkeys(player_ids))
        if not 0 < len(wanted) == len(player_ids) <= MAX_AT_ONCE:
            raise LobbyError(Refusal.TOO_MANY_INVITATIONS, f"name 1 to {MAX_AT_ONCE} distinct players")
        for player_id in wanted:
            if await self.directory.get(player_id) is None:
                raise LobbyError(Refusal.PLAYER_NOT_FOUND, f"no player {player_id[:40]!r}")
            if loaded.seat_of(Caller(player=player_id)) is not None:
                raise LobbyError(Refusal.ALREADY_SEATED, f"player {player_id!r} holds a seat of this match already")
        by = caller.player
        by_name = None
        if by is not None:
            inviter = await self.directory.get(by)
            by_name = None if inviter is None else inviter.name
        if await self.refuses(loaded, caller, wanted):  # last of the checks: it tells nothing the others would not
            raise LobbyError(Refusal.NOT_ACCEPTED, "a player named does not take invitations from you now")
        at = time.time()
        outcome, which = await self.invitations.invite(loaded.id, wanted, by, by_name, at)
        if outcome == "started":
            raise LobbyError(Refusal.MATCH_STARTED, "the match has started: nobody can be invited any more")
        if outcome == "full":
            raise LobbyError(Refusal.TOO_MANY_INVITATIONS, "the match holds the most invitations allowed")
        if outcome == "invited":
            raise LobbyError(Refusal.ALREADY_INVITED, f"player {which!r} is invited to this match already")
        for player_id in wanted:  # after the truth: a crash in between leaves an invitation its player cannot list
            index = keys.invitations(player_id)
            await self.store.redis.zadd(index, {loaded.id: at})
            await self.store.redis.zremrangebyrank(index, 0, -KEPT - 1)  # the oldest go past KEPT
            await feed.emit(self.store, player_id, FeedType.INVITED,
                            {"matchId": loaded.id, "title": loaded.meta["title"], "by": by},
                            f"invited:{loaded.id}:{at!r}")
        return [Invitation(loaded.id, p, at, by, by_name) for p in wanted]

    async def refuses(self, loaded: Loaded, caller: Caller, invited: Sequence[str]) -> bool:
        """Whether an invited player does not take this invitation (none here; social/guards.py fills it in)."""
        return False

    async def listing(self, player_id: str) -> list[Listed]:
        """The player's open invitations, newest first (stale index entries are dropped on the way)."""
        index = keys.invitations(player_id)
        match_ids: list[str] = await self.store.redis.zrevrange(index, 0, LISTED - 1)
        found = await self.invitations.several([(m, player_id) for m in match_ids])
        inviters = {i.by for i in found if i is not None and i.by is not None}
        handles = {by: (await self.directory.get(by)) for by in inviters}
        out: list[Listed] = []
        stale: list[str] = []
        for match_id, invitation in zip(match_ids, found, strict=True):
            loaded = None if invitation is None else await self.store.load(match_id)
            if invitation is None or loaded is None or loaded.status is not MatchStatus.WAITING:
                stale.append(match_id)
            else:
                inviter = None if invitation.by is None else handles.get(invitation.by)
                out.append(Listed(invitation, loaded, None if inviter is None else inviter.handle))
        if stale:
            await self.store.redis.zrem(index, *stale)
        return out

    async def answer(self, match_id: str, player: str, accept: bool, name: str | None,
                     program: bool = False) -> Seated | None:
        """Accept (a seat bound to the player: the seat) or decline (None) an invitation; either way it is gone
        (LobbyError: INVITATION_NOT_FOUND, and a join's refusals when accepting)."""
        if await self.invitations.of(match_id, player) is None:
            raise LobbyError(Refusal.INVITATION_NOT_FOUND, "no open invitation to this match")
        seated = None
        if accept:
            seated = await self.lobby.join(match_id, None, name, player, program)
        await self.invitations.remove(match_id, player)
        await self.store.redis.zrem(keys.invitations(player), match_id)
        return seated


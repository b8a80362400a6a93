"""The acts that need another player's consent, refused (NOT_ACCEPTED, and nothing changes) when that player blocks
the one acting: an invitation (players/invitations.py), a rematch offer (matches/rematch_offers.py) and taking a
seat at a waiting match (matches/lobby.py). Each is its
layer's class with the consent hook filled in, called after every other check of the act, so the refusal tells the
blocked player nothing another refusal would not (the API builds these instead of the plain classes)."""

from __future__ import annotations

from collections.abc import Sequence

from firebreak.matches import mine
from firebreak.matches.callers import Caller
from firebreak.matches.lobby import Lobby
from firebreak.matches.rematch_offers import Offers
from firebreak.matches.store import Loaded
from firebreak.players.invitations import PlayerInvitations
from firebreak.social.blocks import apart, blocked_by


class GuardedInvitations(PlayerInvitations):
    """Invitations that a player who blocks the inviter never gets."""

    async def refuses(self, loaded: Loaded, caller: Caller, invited: Sequence[str]) -> bool:
        """Whether an invited player blocks the inviter: the calling player, or the player who created the match
        when its host token invites."""
        inviters = {caller.player, loaded.meta.get("hostPlayer")} - {None, ""}
        for inviter in inviters:
            if inviter is not None and await blocked_by(self.store.redis, inviter, invited):
                return True
        return False


class GuardedOffers(Offers):
    """Rematch offers that a player who blocks the offerer never gets."""

    async def refuses(self, old: Loaded, seat: int) -> bool:
        """Whether another player of the over match blocks the player offering from that seat."""
        players = mine.players(old)
        offerer = next((player for player, held in players.items() if held == seat), None)
        if offerer is None:
            return False
        return bool(await blocked_by(self.store.redis, offerer, [p for p in players if p != offerer]))


class GuardedLobby(Lobby):
    """A lobby where a player never takes a seat at a table of one who blocks them (or whom they block: as seeks,
    blocks keep two players apart either way)."""

    async def refuses(self, loaded: Loaded, player: str) -> bool:
        """Whether the joining player and a player of the match (seated, or its creator) are kept apart."""
        others = {*mine.players(loaded), loaded.meta.get("hostPlayer")} - {None, "", player}
        return any(player in pair for pair in await apart(self.store.redis, [player, *sorted(o for o in others if o)]))

"""A player as others may see it (GraphQL's Player), shared by the players and social areas."""

from __future__ import annotations

from enum import Enum

import strawberry

from firebreak.players import records


@strawberry.enum
class PlayerKind(Enum):
    """How a player signs in."""

    # players.records.PlayerKind member for member (same names, same values)
    GUEST = strawberry.enum_value(records.PlayerKind.GUEST.value, description="A guest, signed in by a device id.")
    EXTERNAL = strawberry.enum_value(records.PlayerKind.EXTERNAL.value,
                                     description="An account of the operator's identity provider (its JWT).")


@strawberry.type
class Player:
    """A player as others may see it: id, display name, handle and kind."""

    id: strawberry.ID = strawberry.field(description="The player's id (stable: a guest who links an account keeps "
                                                     "it).")
    name: str = strawberry.field(description="The display name (free text: two players may share one).")
    handle: str = strawberry.field(description="The public handle, unique across the service (e.g. ann-4821).")
    kind: PlayerKind = strawberry.field(description="GUEST or EXTERNAL.")

    @classmethod
    def of(cls, player: records.Player) -> Player:
        """The GraphQL form of a player."""
        return cls(id=strawberry.ID(player.id), name=player.name, handle=player.handle,
                   kind=PlayerKind[player.kind.name])

"""Types shared by the schema's areas: the match status and the JSON scalar."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

import strawberry

from firebreak.matches import lifecycle

if TYPE_CHECKING:
    JSON = Any  # to mypy any JSON value; to strawberry (at run time) the JSON scalar
else:
    from strawberry.scalars import JSON

__all__ = ["JSON", "MatchStatus"]


@strawberry.enum
class MatchStatus(Enum):
    """Where a match is in its life."""

    # matches.lifecycle.MatchStatus member for member (same names, same values)
    WAITING = strawberry.enum_value(lifecycle.MatchStatus.WAITING.value,
                                    description="Seats are open; the match starts when all are taken.")
    ACTIVE = strawberry.enum_value(lifecycle.MatchStatus.ACTIVE.value, description="Being played.")
    OVER = strawberry.enum_value(lifecycle.MatchStatus.OVER.value,
                                 description="Ended: played to its end, or abandoned (see endReason).")

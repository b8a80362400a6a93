"""The ratings' part of finishing a match (workers/finishing.py runs it first): a finished rated match moves its
players' and bot levels' ratings, once.

Which matches count: meta "rated" = "1" (createMatch's rated option, or a match made from seeks), ended FINISHED or
RESIGNED (an abandoned or cancelled match is not rated), and every seat a player's or a bot's. A person's seat
counts as its player's whoever plays it (taken over, resigned, or played through a bot-scoped token: a program is
rated as its player); a bot's seat as its level's (rating key bot:<level>). Joining a rated match without a player
credential is refused (RATED_NEEDS_PLAYER), so an unbound seat only reaches a rated match written before that rule:
such a match is left unrated as a whole (rating the others against a seat nobody owns would be meaningless).
"""

from __future__ import annotations

import logging

from firebreak.archive.database import Database
from firebreak.matches.lifecycle import EndReason, SeatKind, SeatRecord, Seats
from firebreak.matches.reading import Reading
from firebreak.matches.store import Loaded, MatchStore
from firebreak.ratings import ledger, model

log = logging.getLogger("firebreak.ratings")

RATED = "rated"  # the meta field: "1" for a rated match
COUNTED = (EndReason.FINISHED, EndReason.RESIGNED)


def is_rated(meta: dict[str, str]) -> bool:
    """Whether a match's meta marks it rated."""
    return meta.get(RATED) == "1"


def seat_key(record: SeatRecord, seat: int = 0) -> str | None:
    """The rating key a seat is rated under: its player's id, bot:<level> for a bot, deleted:<seat> for the seat of
    a player who deleted their account (never stored: ratings/ledger.py); None for a person's seat bound to no
    player."""
    if record.kind is SeatKind.BOT:
        return None if record.level is None else model.bot_key(record.level)
    if record.deleted:
        return model.deleted_key(seat)
    return record.player


def seat_keys(seats: Seats) -> dict[int, str] | None:
    """Every seat's rating key (None when a seat has none)."""
    out = {seat: seat_key(record, seat) for seat, record in seats.items()}
    if any(key is None for key in out.values()):
        return None
    return {seat: key for seat, key in out.items() if key is not None}


def rated_match(loaded: Loaded) -> ledger.RatedMatch | None:
    """The match as the ratings see it, or None when it does not count (unrated, not played out, a seat without a
    player, no result)."""
    if not is_rated(loaded.meta) or loaded.end_reason not in COUNTED:
        return None
    keys = seat_keys(loaded.seats)
    if keys is None or len(keys) != loaded.seat_count or len(keys) < 2:
        log.warning("rated match %s has a seat bound to no player: left unrated", loaded.id)
        return None
    result = Reading.of(loaded, None).result()
    if result is None:
        return None
    totals = {score.seat: score.total for score in result.scores}
    standings = [model.Standing(seat, totals.get(seat), seat in result.winners, seat in result.resigned)
                 for seat in keys]
    return ledger.RatedMatch(loaded.id, loaded.meta["title"], keys, model.places(standings),
                             at=loaded.timing().at)


async def rate_finished(db: Database, store: MatchStore, loaded: Loaded) -> bool:
    """The finisher: apply a finished rated match to the ratings (once: a re-run changes nothing); return whether
    this call did."""
    rated = rated_match(loaded)
    if rated is None:
        return False
    return await db.run(ledger.apply, db, rated)

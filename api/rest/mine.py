"""REST my matches: the signed-in player's matches, their turn first (GraphQL's Me.matches)."""

from __future__ import annotations

from typing import Any

from firebreak.api import leaderboards
from firebreak.api.bounds import MAX_PAGE
from firebreak.api.rest import callers
from firebreak.api.rest.convert import seat_json
from firebreak.api.rest.problems import problem
from firebreak.api.rest.requests import choice
from firebreak.api.rest.table import Auth, Call, Operation, Param, Reply
from firebreak.matches import mypage
from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.refusals import Refusal
from firebreak.matches.rematch_offers import Offers
from firebreak.ratings import ledger
from firebreak.ratings.finisher import is_rated


def my_match_json(item: mypage.MyMatch, change: ledger.Change | None = None) -> dict[str, Any]:
    """One of the player's matches (GraphQL's MyMatch, the whole match apart), with its rating change if any."""
    reading, winners, reason, outcome = item.reading, item.winners(), item.end_reason(), item.outcome()
    return {"id": reading.id, "title": reading.title, "status": reading.status.name, "version": reading.version,
            "seat": item.seat, "yourTurn": item.to_act, "clockDeadline": item.deadline(),
            "lastActivity": item.last_activity, "others": [seat_json(seat) for seat in item.others()],
            "endReason": None if reason is None else reason.name,
            "winners": None if winners is None else list(winners),
            "outcome": None if outcome is None else outcome.name, "cursor": item.cursor,
            "rated": is_rated(reading.loaded.meta),
            "ratingChange": None if change is None else leaderboards.change_facts(change)}


async def list_my_matches(call: Call) -> Reply:
    """A page of the signed-in player's matches."""
    outcome = await callers.principal(call)
    status = None if call.params.get("status") is None else MatchStatus[call.params["status"]]
    first = max(1, min(call.params["first"], MAX_PAGE))
    try:
        page = await mypage.page(call.services.store, outcome.player.id, status, first, call.params.get("after"))
    except mypage.BadCursor as exc:
        raise problem(Refusal.BAD_CURSOR, str(exc)) from None
    changes = await leaderboards.changes(call.services, outcome.player.id, page.items)
    offers = await Offers(call.services.lobby).read_many(
        [item.reading.id for item in page.items if item.reading.status is MatchStatus.OVER])
    return Reply({"items": [{**my_match_json(item, changes.get(item.reading.id)),
                             "rematchOffer": None if (o := offers.get(item.reading.id)) is None else o.to_json()}
                            for item in page.items],
                  "endCursor": page.end_cursor,
                  "hasNextPage": page.has_next_page})


STATUS = Param("status", "query", choice(s.name for s in MatchStatus),
               "Only the matches of this status (left out: all).")
FIRST = Param("first", "query", int, f"How many matches (clamped to 1-{MAX_PAGE}).", default=20)
AFTER = Param("after", "query", str, "The endCursor of the previous page (or an item's cursor).")
OPERATIONS = [
    Operation("GET", "/v1/me/matches", "listMyMatches", "players", "List my matches",
              "The signed-in player's matches: those where it is their turn first (oldest waiting first), then the "
              "rest by last activity, newest first; each with the player's seat, whether they are to act, their "
              "clock's deadline, the other seats and, once over, the result. Paged with cursors (a bad after: 422 "
              "BAD_CURSOR).", list_my_matches, response="MyMatchPage", params=(STATUS, FIRST, AFTER),
              auth=Auth.PLAYER, codes=(Refusal.BAD_CURSOR,)),
]

"""The JSON Schemas Blind Auction publishes (Title.schemas()), from the shared blocks of domain/schemas.py."""

from __future__ import annotations

from typing import Any

from firebreak.domain.contract import ScoreColumn
from firebreak.domain.schemas import (
    COUNT,
    SEAT,
    document,
    event_envelope,
    nullable,
    result_schema,
    service_events,
    strict,
    tagged,
)


def schemas(title_id: str, columns: list[ScoreColumn]) -> dict[str, Any]:
    """The four published schemas of Blind Auction."""
    result = {k: v for k, v in result_schema(title_id, columns).items() if k not in ("$schema", "$id")}
    ints = {"type": "array", "items": COUNT}
    options = strict({"rounds": COUNT, "coins": COUNT, "tieRule": {"enum": ["void", "random"]}})
    past = strict({"prize": COUNT, "bids": ints, "winner": nullable(SEAT)})
    view = strict({
        "title": {"const": title_id}, "seats": COUNT, "version": COUNT, "options": options,
        "phase": {"enum": ["reveal", "bid", "over"]}, "round": COUNT, "prize": nullable(COUNT),
        "deckSize": COUNT,
        "coins": ints, "won": ints, "hasBid": {"type": "array", "items": {"type": "boolean"}},
        "toAct": {"type": "array", "items": SEAT}, "history": {"type": "array", "items": past},
        "you": strict({"seat": SEAT, "bid": nullable(COUNT)}), "result": result,
    }, optional=("you", "result"))
    event = tagged({
        "prizeRevealed": ("The auctioneer turned up the round's prize.", {"round": COUNT, "prize": COUNT}),
        "bidSealed": ("A seat sealed its bid (the amount stays hidden).", {"seat": SEAT}),
        "yourBid": ("Private to the bidder: the amount it sealed.", {"seat": SEAT, "amount": COUNT}),
        "bidsRevealed": ("The last bid is in: every bid shown, the prize settled.",
                         {"round": COUNT, "prize": COUNT, "bids": ints, "winner": nullable(SEAT)}),
        "auctionOver": ("The last prize is settled.", {}),
        **service_events(),
    }, common=event_envelope())
    action = tagged({"bid": ("Seal a bid of this many coins.", {"amount": COUNT})})
    return {"view": document(title_id, "view", "What a seat (or a spectator) sees.", view),
            "action": document(title_id, "action", "One seat's decision.", action),
            "event": document(title_id, "event", "One event of a step.", event),
            "result": result_schema(title_id, columns)}

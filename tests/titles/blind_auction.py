"""Blind Auction: a tiny reference title with simultaneous hidden decisions, for the tests and benches only.

2-4 seats, each with a purse of coins. Every round the auctioneer (an automated step) turns up the top prize of
a shuffled deck of prizes worth 1..6; then every seat bids at once (to_act lists all who have not bid yet) an
amount it can pay. A bid is sealed: the others only learn that the seat has bid (a public event, with the amount
in a private twin for the bidder) until the last bid is in and all are shown. The highest bid takes the prize and
is paid; a tie for the highest voids the round (tieRule "void") or is broken by the match's random generator
(tieRule "random"). After the last round a seat's total is the prizes it won plus the coins it kept.

Hidden: the order of the prizes still in the deck (from everyone), a sealed bid (from the other seats), the
generator's state (from everyone).
"""

from __future__ import annotations

import random
from typing import Any, Self

from firebreak.domain.base import BaseMatch
from firebreak.domain.contract import Action, BotLevel, Event, OptionKind, OptionSpec, Result, ScoreColumn, SeatScore
from firebreak.domain.errors import BadOptions
from firebreak.domain.options import check_seats, checked
from firebreak.domain.rng import Rng
from firebreak.domain.search import search_level
from tests.titles.blind_auction_schemas import schemas

PRIZES = (1, 2, 3, 4, 5, 6)
OPTIONS = (
    OptionSpec("rounds", OptionKind.INT, 3, "Prizes auctioned.", minimum=1, maximum=len(PRIZES)),
    OptionSpec("coins", OptionKind.INT, 6, "Each seat's purse at the start.", minimum=0, maximum=12),
    OptionSpec("tieRule", OptionKind.CHOICE, "void", "A tie for the highest bid voids the round, or a random "
               "tied bidder takes the prize.", choices=("void", "random")),
)
FIELDS = ("seats", "options", "seed", "rng", "version", "phase", "round", "prize", "deck", "coins", "won", "bids",
          "history")


class BlindAuctionMatch(BaseMatch):
    """A match of Blind Auction."""

    title_id = "blindAuction"

    def __init__(self) -> None:
        self.seats = 0
        self.options: dict[str, Any] = {}
        self.seed = 0
        self.rng = Rng(0)
        self.version = 0
        self.phase = "reveal"               # "reveal" (the auctioneer's step), "bid" or "over"
        self.round = 0
        self.prize: int | None = None       # the prize on offer this round
        self.deck: list[int] = []           # prizes still face down, top last
        self.coins: list[int] = []
        self.won: list[int] = []            # prize value won, by seat
        self.bids: list[int | None] = []    # this round's sealed bids
        self.history: list[dict[str, Any]] = []  # past rounds: prize, bids, winner (public)

    # ----- decisions (the guards are BaseMatch's) -------------------------------------------------
    def _to_act(self) -> list[int]:
        """The seats that have not bid yet this round."""
        return [s for s in range(self.seats) if self.bids[s] is None] if self.phase == "bid" else []

    def _legal_actions(self, seat: int) -> list[Action]:
        """The bids the seat can pay."""
        return [{"type": "bid", "amount": k} for k in range(self.coins[seat] + 1)]

    def _apply(self, seat: int, action: Action, events: list[Event]) -> None:
        """Seal the seat's bid; the last bid reveals them all and settles the round."""
        amount = action["amount"]
        self.bids[seat] = amount
        events += [{"type": "bidSealed", "seat": seat},
                   {"type": "yourBid", "seat": seat, "amount": amount, "audience": [seat]}]
        if not self.to_act():
            self._settle(events)

    def _settle(self, events: list[Event]) -> None:
        bids = [b for b in self.bids if b is not None]
        top = max(bids)
        tied = [s for s, b in enumerate(bids) if b == top]
        winner: int | None = None
        if len(tied) == 1:
            winner = tied[0]
        elif self.options["tieRule"] == "random":
            winner = tied[self.rng.below(len(tied))]
        if winner is not None:
            assert self.prize is not None
            self.coins[winner] -= top
            self.won[winner] += self.prize
        self.history.append({"prize": self.prize, "bids": bids, "winner": winner})
        events.append({"type": "bidsRevealed", "round": self.round, "prize": self.prize, "bids": bids,
                       "winner": winner})
        self.prize = None
        self.phase = "reveal" if self.round < self.options["rounds"] else "over"
        if self.phase == "over":
            events.append({"type": "auctionOver"})

    def _system_due(self) -> bool:
        """The auctioneer turns up the next prize."""
        return self.phase == "reveal"

    def _run_system_step(self, events: list[Event]) -> None:
        """Turn up the next prize and open the bidding."""
        self.prize = self.deck.pop()
        self.round += 1
        self.bids = [None] * self.seats
        self.phase = "bid"
        events.append({"type": "prizeRevealed", "round": self.round, "prize": self.prize})

    # ----- what is seen ------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        """Everything but the deck order and others' bids."""
        out: dict[str, Any] = {
            "title": self.title_id, "seats": self.seats, "version": self.version, "options": dict(self.options),
            "phase": self.phase, "round": self.round, "prize": self.prize, "deckSize": len(self.deck),
            "coins": list(self.coins), "won": list(self.won), "hasBid": [b is not None for b in self.bids],
            "toAct": self.to_act(), "history": [dict(h, bids=list(h["bids"])) for h in self.history],
        }
        if seat is not None:
            out["you"] = {"seat": seat, "bid": self.bids[seat] if self.bids else None}
        result = self.result()
        if result is not None:
            out["result"] = result.to_dict()
        return out

    def _is_over(self) -> bool:
        """The last prize is settled."""
        return self.phase == "over"

    def _result(self) -> Result:
        """The prizes and coins of every seat."""
        scores = tuple(SeatScore(s, self.won[s] + self.coins[s], {"prizes": self.won[s], "coins": self.coins[s]})
                       for s in range(self.seats))
        best = max(s.total for s in scores)
        return Result(scores, tuple(s.seat for s in scores if s.total == best),
                      f"all {self.options['rounds']} prizes were auctioned")

    def _resample(self, seat: int, rng: random.Random) -> Self:
        """A copy with the deck order, the other seats' sealed bids and the generator redrawn."""
        copy = self.clone()
        draw = Rng(rng.getrandbits(64))
        shown = [h["prize"] for h in self.history] + ([] if self.prize is None else [self.prize])
        copy.deck = [p for p in PRIZES if p not in shown]
        draw.shuffle(copy.deck)
        copy.deck = copy.deck[len(copy.deck) - len(self.deck):]
        if self.phase == "bid":  # sealed bids; once shown (history) they are public
            copy.bids = [b if b is None or s == seat else draw.below(self.coins[s] + 1)
                         for s, b in enumerate(self.bids)]
        copy.rng = Rng(draw.next_u64())
        copy.seed = 0
        return copy

    # ----- state -------------------------------------------------------------------------------
    def to_dict(self, copied: bool = True) -> dict[str, Any]:
        """Return every fact as JSON-able data (copied or not: this small title always copies)."""
        data = {name: getattr(self, name) for name in FIELDS}
        data["rng"] = self.rng.state
        data["options"] = dict(self.options)
        for name in ("deck", "coins", "won", "bids"):
            data[name] = list(data[name])
        data["history"] = [dict(h, bids=list(h["bids"])) for h in self.history]
        return data

    def load(self, data: dict[str, Any]) -> None:
        """Set every fact from to_dict() output."""
        for name in FIELDS:
            setattr(self, name, data[name])
        self.rng = Rng(data["rng"])
        self.options = dict(data["options"])
        for name in ("deck", "coins", "won", "bids"):
            setattr(self, name, list(data[name]))
        self.history = [dict(h, bids=list(h["bids"])) for h in data["history"]]

    def _clone(self) -> Self:
        other = type(self)()
        other.load(self.to_dict())
        return other


class BlindAuctionTitle:
    """Blind Auction (2-4 seats): the conformance suite's reference title."""

    id = "blindAuction"
    name = "Blind Auction (reference title)"
    min_seats = 2
    max_seats = 4
    takeover_level = "search"

    def option_specs(self) -> list[OptionSpec]:
        """Return the options: rounds, coins, tieRule."""
        return list(OPTIONS)

    def check_options(self, seats: object, options: dict[str, Any] | None) -> dict[str, Any]:
        """Return the options with defaults filled in; raise BadOptions for anything unsupported."""
        return checked(OPTIONS, check_seats(self.name, self.min_seats, self.max_seats, seats), options)

    def score_columns(self) -> list[ScoreColumn]:
        """Return the parts of a total: prizes won and coins kept."""
        return [ScoreColumn("prizes", "Prizes", "Value of the prizes won."),
                ScoreColumn("coins", "Coins", "Coins kept.")]

    def bots(self) -> list[BotLevel]:
        """Return the generic search level."""
        return [search_level()]

    def schemas(self) -> dict[str, Any]:
        """Return the JSON Schemas of the view, a bid, an event and the result."""
        return schemas(BlindAuctionMatch.title_id, self.score_columns())

    def new_match(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> BlindAuctionMatch:
        """Set up a match: purses filled, the prizes shuffled from the seed."""
        opts = self.check_options(seats, options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadOptions("seed must be an integer")
        m = BlindAuctionMatch()
        m.seats, m.options, m.seed, m.rng = seats, opts, seed, Rng.from_seed(seed)
        m.deck = list(PRIZES)
        m.rng.shuffle(m.deck)
        m.deck = m.deck[len(PRIZES) - opts["rounds"]:]
        m.coins, m.won, m.bids = [opts["coins"]] * seats, [0] * seats, [None] * seats
        return m

    def board(self) -> dict[str, Any] | None:
        """Return None: no board."""
        return None

    def match_from_dict(self, data: dict[str, Any]) -> BlindAuctionMatch:
        """Rebuild a match from to_dict() output."""
        m = BlindAuctionMatch()
        m.load(data)
        return m


BLIND_AUCTION = BlindAuctionTitle()

"""What a seat or a spectator may see: everything public, the viewer's own hand and city, counts for the rest.

Covered and face-down cards of other seats are hidden entries until the end; so is what a seat is in the middle
of staging (the public step names the action only)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from firebreak.domain.london.data import DECKS
from firebreak.domain.london.rules.scoring import result
from firebreak.domain.london.state import Phase, State

PUBLIC_STEP = {
    Phase.START: "start", Phase.ACTION: "action", Phase.DRAW: "draw", Phase.DEVELOP: "develop",
    Phase.DISCARD_FOR: "develop", Phase.PLACE: "develop", Phase.RUN: "run", Phase.ACTIVATION_DISCARD: "run",
    Phase.FLIP: "run", Phase.HAND_LIMIT: "handLimit", Phase.OVER: "over",
}
PAY_STEP = {"play": "develop", "land": "action", "activate": "run"}


def public_step(s: State) -> str:
    """The step of the turn as every seat sees it."""
    if s.phase is Phase.PAY:
        assert s.pending is not None
        return PAY_STEP[s.pending["for"]]
    return PUBLIC_STEP[s.phase]


def _stack(s: State, owner: int, stack: list[str], open_all: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, card in enumerate(stack):
        up = card not in s.face_down[owner]
        if open_all:
            out.append({"card": card, "faceUp": up})
        elif i == len(stack) - 1:
            out.append({"card": card, "faceUp": True} if up else {"hidden": True, "faceUp": False})
        else:
            out.append({"hidden": True, "covered": True})
    return out


def view(s: State, seat: int | None) -> dict[str, Any]:
    """Return the view of a seat (None: a spectator); everything is revealed once the match is over."""
    over = s.phase is Phase.OVER
    players = []
    for owner in range(s.seats):
        open_all = over or owner == seat
        row: dict[str, Any] = {
            "seat": owner, "money": s.money[owner], "loans": s.loans[owner], "poverty": s.poverty[owner],
            "prestige": s.prestige_land[owner] + s.prestige_play[owner], "handSize": len(s.hands[owner]),
            "knownHand": sorted(s.known[owner]), "boroughs": list(s.boroughs[owner]),
            "stacks": [_stack(s, owner, stack, open_all) for stack in s.stacks[owner]],
        }
        if over:
            row["hand"] = sorted(s.hands[owner])
        players.append(row)
    counted = Counter(map(s.cat.card_decks.__getitem__, s.deck))  # a view's hottest loop: counted in C
    by_deck = {letter: counted[letter] for letter in DECKS}
    out: dict[str, Any] = {
        "title": "london", "seats": s.seats, "version": s.version, "options": dict(s.options),
        "phase": public_step(s), "toAct": [] if over else [s.turn], "turn": None if over else s.turn,
        "start": s.start, "turnsLeft": s.turns_left, "drawsLeft": s.draws_left,
        "played": list(s.played) if not over else [],
        "activated": [] if over else [c for c in s.activated if c == "borough" or c in s.face_up_tops(s.turn)],
        "deck": {"count": len(s.deck), "byDeck": by_deck},
        "board": {"columns": len(s.board_top), "top": list(s.board_top), "bottom": list(s.board_bottom)},
        "discardPile": list(s.discard),
        "boroughDisplay": list(s.borough_display), "boroughDeck": len(s.borough_deck),
        "players": players,
    }
    if seat is not None:
        mine = s.turn == seat and not over
        out["you"] = {"seat": seat, "hand": sorted(s.hands[seat]),
                      "step": s.phase.value if mine else None,
                      "pending": dict(s.pending) if mine and s.pending is not None else None}
    if over:
        out["result"] = result(s).to_dict()
    return out

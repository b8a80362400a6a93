"""The greedy bot for Great Fire: one step of look-ahead, rated only from what the seat's own view shows."""

from __future__ import annotations

import random
from typing import Any

from domain.contract import Action, Match
from domain.greatfire.board import load_board

THREAT_PER_HOUSE = 0.6  # an own house next to a burning district is worth this much less
LOOKAHEAD_TYPES = ("playCard", "chooseSource")  # staged fire decisions rated by their best follow-up


def rating(view: dict[str, Any], seat: int) -> float:
    """The seat's score as its view shows it, less the threat to its houses, less the rivals' houses."""
    you = view["you"]
    own = set(you["colours"])
    districts = view["districts"]
    board = load_board()
    burning = {d.id for d in board.districts if districts[d.id]["burning"]}
    own_houses = other_houses = threatened = 0
    for d in board.districts:
        row = districts[d.id]["houses"]
        mine = sum(n for colour, n in row.items() if colour in own)
        own_houses += mine
        other_houses += sum(row.values()) - mine
        if mine and any(board.districts[j].id in burning for j, _ in board.neighbours[d.index]):
            threatened += mine
    objectives = sum(o["vp"] for o in you["objectives"]
                     if districts[o["district"]]["houses"] and not districts[o["district"]]["burning"])
    me = view["players"][seat]
    score: float = 2 * own_houses + me["putOut"] + objectives + you["tokens"].count("victoryPoint") + 2 * me["hero"]
    rivals = max(1, view["seats"] - 1)
    return float(score - THREAT_PER_HOUSE * threatened - other_houses / rivals)


def _value(match: Match, seat: int, action: Action, depth: int) -> float:
    trial = match.clone()
    trial.apply(seat, action)
    if depth and action["type"] in LOOKAHEAD_TYPES and trial.to_act() == [seat]:
        return max(_value(trial, seat, follow, depth - 1) for follow in trial.legal_actions(seat))
    if trial.is_over():
        return rating(trial.view(seat) | {"you": _you_at_end(trial.view(seat), seat)}, seat)
    return rating(trial.view(seat), seat)


def _you_at_end(view: dict[str, Any], seat: int) -> dict[str, Any]:
    row = view["players"][seat]
    return {"colours": row["colours"], "objectives": row["objectives"], "tokens": row["tokens"]}


def greedy(match: Match, seat: int, rng: random.Random) -> Action:
    """Pick the best-rated legal action; ending the actions phase wins ties (no aimless moves)."""
    legal = match.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    here = rating(match.view(seat), seat)
    best: list[Action] = []
    best_value = float("-inf")
    for action in legal:
        value = here if action["type"] in ("endActions", "endFire", "keepHand") else _value(match, seat, action, 2)
        if action["type"] in ("endActions", "endFire", "keepHand"):
            value += 1e-6
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return rng.choice(best)

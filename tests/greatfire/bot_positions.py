"""Positions and stand-ins the bot tests share: seeded random games, one position of each kind, a view-only match."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from firebreak.domain import titles
from firebreak.domain.bots import random_bot
from firebreak.domain.contract import Action
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.state import Phase

TITLE = titles.get("greatfire")


def new_match(seats: int, seed: int, **options: Any) -> GreatFireMatch:
    """A fresh seeded match."""
    m = TITLE.new_match(seats=seats, seed=seed, options=options)
    assert isinstance(m, GreatFireMatch)
    return m


def play(m: GreatFireMatch, pick: Callable[[GreatFireMatch, int], Action]) -> Iterator[GreatFireMatch]:
    """Play m to its end, pick choosing each seat's action; yield every position where a seat owes a decision."""
    while not m.is_over():
        if m.system_due():
            m.run_system_step()
            continue
        yield m
        (seat,) = m.to_act()
        m.apply(seat, pick(m, seat))


def positions(seats: int, seed: int, every: int = 1, **options: Any) -> Iterator[GreatFireMatch]:
    """The positions of a seeded random game where a seat owes a decision (every n-th one)."""
    rng = random.Random(seed)
    for k, m in enumerate(play(new_match(seats, seed, **options), lambda m, seat: random_bot(m, seat, rng))):
        if k % every == 0:
            yield m


class ViewOnly:
    """A match stand-in that offers nothing but view(): any other access fails the test."""

    def __init__(self, match: GreatFireMatch) -> None:
        self._match = match

    def view(self, seat: int | None) -> dict[str, Any]:
        """The wrapped match's view."""
        return self._match.view(seat)


@cache
def kinds_of_positions() -> list[tuple[str, GreatFireMatch]]:
    """Positions of each kind the bot decides in: setup, fire stages, actions, placing cones, 2-player tie."""
    wanted = {"placeBands", "placePawns", "fire:card", "fire:source", "fire:target", "fire:double", "actions",
              "placeCones", "discard", "nonPlayerChoice"}
    found: dict[str, GreatFireMatch] = {}
    games: list[tuple[int, int, dict[str, Any]]] = [
        (4, 11, {}), (3, 12, {"hiddenColours": True}), (2, 13, {"npcTies": "conductor"}),
        (2, 14, {"npcTies": "conductor", "hiddenColours": True}), (6, 15, {})]
    for seats, seed, options in games:
        for m in positions(seats, seed, **options):
            kind = m.phase.value
            if m.phase is Phase.FIRE:
                kind = ("fire:target" if m.source is not None else "fire:card" if m.card is None
                        else "fire:source" if m.moves_left else "fire:double")
            if kind in wanted and kind not in found and m.version > 3 and len(m.legal_actions(m.turn)) > 1:
                found[kind] = m.clone()
        if set(found) >= wanted - {"discard", "fire:double"}:
            break
    assert set(found) >= {"placeBands", "placePawns", "fire:card", "fire:source", "fire:target", "actions",
                          "nonPlayerChoice"}, sorted(found)
    return sorted(found.items())

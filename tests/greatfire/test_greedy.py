"""The greedy bot: it fights fire where it pays, plays its double move when a second move scores, ends its
actions phase itself, and decides from its view alone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firebreak.domain.bots import choose_action
from firebreak.domain.contract import Action
from firebreak.domain.greatfire.bots.greedy import greedy
from firebreak.domain.greatfire.bots.rating import rating
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.rules import fire
from firebreak.domain.greatfire.state import HERO_VP, Phase
from firebreak.domain.greatfire.title import GREAT_FIRE
from tests.greatfire.bot_positions import ViewOnly, kinds_of_positions, new_match, play
from tests.greatfire.positions import act, blank, idx, put, scrambled, to_actions

POSITIONS = kinds_of_positions()


def _colour(m: GreatFireMatch, seat: int) -> str:
    return m.comps.colours[m.colours[seat][0]]


def _actions_phase(m: GreatFireMatch, seat: int = 0) -> list[Action]:
    """Let greedy play the seat's whole actions phase; return what it did."""
    done: list[Action] = []
    rng = random.Random(1)
    while m.phase is Phase.ACTIONS and m.turn == seat:
        action = greedy(m, seat, rng)
        done.append(action)
        act(m, action, seat)
    return done


def test_it_walks_to_a_contained_fire_next_to_its_pawn_and_puts_it_out() -> None:
    m = blank()
    put(m, "newgate", cones=2, bands=2, houses={})
    m.pawns[0] = [idx(m, "holborn")]
    to_actions(m)
    done = _actions_phase(m)
    assert done[0] == {"type": "movePawn", "pawn": 0, "to": "newgate"}
    assert [a for a in done if a["type"] == "putOut"] == [{"type": "putOut", "district": "newgate"}] * 2
    assert m.put_out[0] == 2 and m.cones[idx(m, "newgate")] == 0
    assert done[-1] == {"type": "endActions"}  # R18b: the phase ends only by the bot's own endActions


def test_it_becomes_hero_of_london_when_the_cones_are_there() -> None:
    m = blank()
    put(m, "newgate", cones=4, bands=4, houses={})
    m.pawns[0] = [idx(m, "newgate")]
    m.put_out[1], m.hero, m.supply = 3, 1, m.supply - 3
    to_actions(m)
    _actions_phase(m)
    assert m.put_out[0] == 4 and m.hero == 0


def test_it_brings_bands_to_contain_a_fire_that_threatens_its_houses() -> None:
    m = blank()
    put(m, "whitechapel", cones=2, bands=0, houses={})
    put(m, "aldgate", houses={_colour(m, 0): 4})
    put(m, "hounds-ditch", bands=2)
    to_actions(m)
    before = rating(m, 0)
    done = _actions_phase(m)
    assert [a["type"] for a in done] == ["moveBand", "moveBand", "endActions"]
    assert m.contained(idx(m, "whitechapel"))
    assert rating(m, 0) > before


def test_with_nothing_to_gain_it_ends_the_actions_phase_at_once() -> None:
    m = blank()
    to_actions(m)
    assert _actions_phase(m) == [{"type": "endActions"}]


def _at_the_pause(owner: str) -> GreatFireMatch:
    """Seat 0 holds a double move and pauses after a fire move; every second move burns owner's houses."""
    m = blank(hand=["N"] * 5)
    m.board_tokens[m.board_tokens.index("doubleMove")] = None  # seat 0 took it earlier
    m.tokens[0] = ["doubleMove"]
    act(m, {"type": "playCard", "card": "N"})
    act(m, {"type": "chooseSource", "district": "pudding-lane"})
    act(m, m.legal_actions(0)[0])
    assert {"type": "playDoubleMove"} in m.legal_actions(0)
    trial = m.clone()
    trial.apply(0, {"type": "playDoubleMove"})
    targets = {t for src in fire.sources(trial, "N") for t in fire.targets(trial, "N", src)}
    assert targets
    colour = _colour(m, 0 if owner == "own" else 1)
    for t in targets:
        put(m, m.geo.ids[t], houses={colour: 3}, token=None)
    return m


def test_it_plays_its_double_move_when_a_second_move_scores() -> None:
    m = _at_the_pause("rival")
    assert greedy(m, 0, random.Random(2)) == {"type": "playDoubleMove"}


def test_it_keeps_its_double_move_when_a_second_move_would_burn_its_own_houses() -> None:
    m = _at_the_pause("own")
    assert greedy(m, 0, random.Random(2)) == {"type": "endFire"}


def test_the_rating_counts_put_out_cones_the_hero_and_the_threat_to_own_houses() -> None:
    m = blank()
    base = rating(m, 0)
    m.put_out[0] = 1
    assert rating(m, 0) == pytest.approx(base + 1)
    m.hero = 0
    assert rating(m, 0) == pytest.approx(base + 1 + HERO_VP)
    safe = blank()
    put(safe, "aldgate", houses={_colour(safe, 0): 4})
    threatened = blank()
    put(threatened, "aldgate", houses={_colour(threatened, 0): 4})
    put(threatened, "whitechapel", cones=2, houses={})
    assert rating(threatened, 0) < rating(safe, 0)


@pytest.mark.parametrize(("kind", "position"), POSITIONS, ids=[k for k, _ in POSITIONS])
def test_it_never_reads_hidden_facts(kind: str, position: GreatFireMatch) -> None:
    """Two matches that differ only in what the seat cannot see give the same decision for the same seed."""
    seat = position.turn
    other = scrambled(position, seat)
    assert other.to_dict() != position.to_dict() and other.view(seat) == position.view(seat)
    first = greedy(position, seat, random.Random(5))
    assert greedy(other, seat, random.Random(5)) == first
    assert choose_action(GREAT_FIRE, "greedy", ViewOnly(position), seat,  # type: ignore[arg-type]
                         random.Random(5)) == first
    assert first in position.legal_actions(seat)


@pytest.mark.parametrize(("seats", "seed", "options"), [
    (2, 51, {"npcTies": "conductor"}), (3, 52, {"hiddenColours": True}), (4, 53, {}),
    (5, 54, {"moreDestruction": True}), (6, 55, {}),
])
def test_greedy_seats_play_whole_games_legally_and_fight_the_fire(seats: int, seed: int,
                                                                  options: dict[str, Any]) -> None:
    rng = random.Random(seed)
    kinds: set[str] = set()

    def pick(m: GreatFireMatch, seat: int) -> Action:
        action = greedy(m, seat, rng)
        assert action in m.legal_actions(seat)
        kinds.add(action["type"])
        return action

    m = new_match(seats, seed, **options)
    for _ in play(m, pick):
        pass
    assert m.is_over()
    assert {"putOut", "moveBand", "movePawn", "endActions"} <= kinds

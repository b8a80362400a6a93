"""The shipped component data and its loader."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from firebreak.domain.errors import DataError
from firebreak.domain.greatfire.board import load_board
from firebreak.domain.greatfire.components import DATA_DIR, load_components, parse_components, shipped_components

RAW: dict[str, Any] = json.loads((DATA_DIR / "components.json").read_text(encoding="utf-8"))


def test_sixty_fire_cards_fifteen_each_direction() -> None:
    c = shipped_components()
    assert Counter(c.fire_deck()) == {"N": 15, "E": 15, "S": 15, "W": 15}


def test_fire_stacks_per_player_count() -> None:
    stacks = shipped_components().fire_stacks
    assert stacks == {2: (2, 6, 13, 12, 12), 3: (3, 6, 6, 6, 6, 6), 4: (8,) * 4, 5: (6,) * 5, 6: (5,) * 6}


def test_twenty_tokens() -> None:
    assert Counter(shipped_components().token_pool()) == {"demolition": 10, "doubleMove": 6, "victoryPoint": 4}


def test_objective_decks_hold_their_four_objectives_twice() -> None:
    board = load_board()
    for deck, cards in shipped_components().objective_decks.items():
        counts = Counter(cards)
        assert len(counts) == 4 and set(counts.values()) == {2}
        assert {board.district(d).objective.deck for d in counts} == {deck}  # type: ignore[union-attr]


def test_two_player_decks() -> None:
    c = shipped_components()
    assert len(c.colour_priority) == 12
    assert Counter(card[0] for card in c.colour_priority) == {colour: 2 for colour in c.colours}
    assert len(set(c.colour_priority)) == 12
    objectives = {d.id for d in load_board().districts if d.objective}
    assert sorted(c.band_movement) == sorted(objectives)


def test_load_from_path_equals_shipped(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(RAW), encoding="utf-8")
    assert load_components(path, load_board()) == shipped_components()


def _with(**changes: Any) -> dict[str, Any]:
    return {**RAW, **changes}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        (_with(colours=["a", "b"]), "colours"),
        (_with(fireCards={"N": 15}), "fireCards"),
        (_with(fireStacks={"4": [30, 30]}), "fireStacks '4'"),
        (_with(tokens={"demolition": 1, "doubleMove": 1, "victoryPoint": 1}), "token sites"),
        (_with(objectiveDecks={**RAW["objectiveDecks"], "I": ["cheapside"]}), "'cheapside'"),
        (_with(objectiveDecks={**RAW["objectiveDecks"], "II": ["nowhere"]}), "'nowhere'"),
        (_with(colourPriority=[["blue"]]), "colourPriority card 0"),
        (_with(bandMovement=["cheapside"]), "bandMovement"),
        ({k: v for k, v in RAW.items() if k != "tokens"}, "'tokens'"),
    ],
)
def test_parse_components_refuses(data: Any, message: str) -> None:
    with pytest.raises(DataError, match=message):
        parse_components(data, load_board())

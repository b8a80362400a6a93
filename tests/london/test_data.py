"""The shipped card data: the counts the rulebook gives, the cards its examples name, and the loader's errors."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from firebreak.domain.errors import DataError
from firebreak.domain.london.data import DATA_DIR, load_catalogue, parse_catalogue, shipped_catalogue
from tests.london.positions import bid, cid

CAT = shipped_catalogue()


def _raw() -> tuple[dict[str, Any], dict[str, Any]]:
    return tuple(json.loads((DATA_DIR / f"{n}.json").read_text(encoding="utf-8")) for n in ("cards", "boroughs"))


def test_the_box_counts() -> None:
    cards = list(CAT.cards.values())
    assert len(cards) == 101 and len({c.id for c in cards}) == 101
    kinds = Counter(c.kind for c in cards)
    assert kinds["beggar"] == 11 and kinds["action"] == 4
    assert {c.colour for c in cards} == {"brown", "blue", "pink", "grey"}
    assert all(c.colour == "grey" for c in cards if c.kind == "beggar")
    assert set(Counter(c.deck for c in cards)) == {"A", "B", "C"}
    boroughs = list(CAT.boroughs.values())
    assert len(boroughs) == 20 and {b.side for b in boroughs} == {"N", "S"}
    assert {b.river for b in boroughs} == {True, False}
    assert sorted(b.name for b in boroughs if b.start) == ["City", "Southwark & Bermondsey", "Westminster"]


def test_the_cards_the_rulebook_names() -> None:
    hospital = CAT.card(cid("Hospital"))
    assert hospital.cost == 2 and hospital.colour == "blue" and hospital.ongoing is not None
    assert hospital.ongoing.kind == "flipInstead"
    huguenots = CAT.card(cid("Huguenots"))
    assert huguenots.kind == "action" and huguenots.action is not None and huguenots.action.draw == 2
    steam = CAT.card(cid("Steamboats")).activation
    assert steam is not None and steam.gain.per == "riverBorough" and steam.gain.money == 2 and steam.flip
    docks = CAT.card(cid("West India Docks")).activation
    assert docks is not None and docks.card and docks.gain.money == 7 and docks.flip
    town = CAT.card(cid("Town Houses"))
    assert town.colour == "blue" and town.activation is not None and town.activation.gain.per == "blue"
    for name in ("Vauxhall Gardens", "Gardens"):
        assert CAT.card(cid(name)).colour == "blue"
    assert CAT.card(cid("Vintners")).colour == "brown"
    assert CAT.card(cid("Paupers", 11)).kind == "beggar"
    wandsworth = CAT.boroughs[bid("Wandsworth")]
    assert (wandsworth.immediate.draw, wandsworth.immediate.prestige, wandsworth.immediate.poverty_down) == (2, 2, 1)
    assert wandsworth.run is not None and wandsworth.run.poverty_up == 2
    southwark = CAT.boroughs[bid("Southwark & Bermondsey")]
    assert southwark.run is not None and southwark.run.poverty_up == 1


def test_north_is_more_prestigious_and_south_cuts_more_poverty() -> None:
    """The rulebook's one statement about the boroughs as a whole, checked on the means of each side (issue 51's
    audit): "Зазвичай, карти на півночі Лондона являються більш престижними" (usually the North's boroughs are more
    prestigious) and "карти на півдні Лондона ефективніше зменшують бідність" (the South's cut poverty better)."""
    def mean(side: str, part: str) -> float:
        gains = [getattr(b.immediate, part) for b in CAT.boroughs.values() if b.side == side]
        return sum(gains) / len(gains)

    assert mean("N", "prestige") > mean("S", "prestige")
    assert mean("S", "poverty_down") > mean("N", "poverty_down")
    lewisham = CAT.boroughs[bid("Lewisham")].immediate.poverty_down  # the land example's poverty cut
    hammersmith = CAT.boroughs[bid("Hammersmith")].cost  # the land example's borough too dear to buy
    assert lewisham == max(b.immediate.poverty_down for b in CAT.boroughs.values())
    assert hammersmith > 5 and hammersmith >= sorted(b.cost for b in CAT.boroughs.values())[-3]


def test_load_catalogue_from_a_directory(tmp_path: Path) -> None:
    cards, boroughs = _raw()
    for name, data in (("cards", cards), ("boroughs", boroughs)):
        (tmp_path / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
    assert load_catalogue(tmp_path) == CAT


def _break_card(i: int, **change: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    cards, boroughs = copy.deepcopy(_raw())
    cards["cards"][i].update(change)
    return cards, boroughs


@pytest.mark.parametrize(
    ("index", "change", "message"),
    [
        (1, {"deck": "D"}, "cards[1] 'Huguenots': 'deck' must be one of A, B, C"),
        (2, {"cost": -1}, "cards[2] 'Vintners': 'cost' must be a whole number >= 0"),
        (2, {"colour": "grey"}, "cards[2] 'Vintners': beggars and only beggars are grey"),
        (2, {"activation": {"gain": {"money": 0}, "flip": True}}, "cards[2] 'Vintners' activation gain: gives nothing"),
        (2, {"activation": {"gain": {"money": 1, "per": "moon"}, "flip": True}}, "'per' must be one of"),
        (2, {"bonus": 1}, "cards[2] 'Vintners': unknown field(s) bonus"),
        (0, {"copies": 4}, "the box holds 101 city cards with 11 beggars"),
        (8, {"ongoing": {"kind": "teleport"}}, "cards[8] 'Hospital' ongoing: 'kind' must be one of"),
    ],
)
def test_bad_card_data_names_the_entry(index: int, change: dict[str, Any], message: str) -> None:
    with pytest.raises(DataError, match=re.escape(message)):
        parse_catalogue(*_break_card(index, **change))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"side": "E"}, "boroughs[3] 'Wandsworth': 'side' must be one of N, S"),
        ({"immediate": {"draw": 2, "prestige": 2}}, "boroughs[3] 'Wandsworth': buying land gives cards"),
        ({"start": True}, "the starting boroughs are City, Westminster, Southwark & Bermondsey"),
        ({"run": {"draw": 1}}, "boroughs[3] 'Wandsworth': a borough's run effect does not draw cards"),
    ],
)
def test_bad_borough_data_names_the_entry(change: dict[str, Any], message: str) -> None:
    cards, boroughs = copy.deepcopy(_raw())
    boroughs["boroughs"][3].update(change)
    with pytest.raises(DataError, match=re.escape(message)):
        parse_catalogue(cards, boroughs)

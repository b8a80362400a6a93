"""Setup: R14 (seeded randomness), R15 (redeal), R16 (bands and pawns), Example 2, the dealt components."""

from __future__ import annotations

from collections import Counter

import pytest

from firebreak.domain import titles
from firebreak.domain.errors import IllegalAction
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.state import Phase

TITLE = titles.get("greatfire")


def new(seats: int = 4, seed: int = 1, **options: object) -> GreatFireMatch:
    m = TITLE.new_match(seats=seats, seed=seed, options=options)
    assert isinstance(m, GreatFireMatch)
    return m


def redeal_seed(seats: int = 4) -> int:
    """The first seed whose deal gives some seat five identical cards."""
    for seed in range(20000):
        if new(seats, seed).phase is Phase.REDEAL:
            return seed
    raise AssertionError("no seed up to 20000 deals five identical cards")


def test_r14_same_seed_same_match_different_seed_different_match() -> None:
    assert new(seed=5).to_dict() == new(seed=5).to_dict()
    assert new(seed=5).to_dict() != new(seed=6).to_dict()


def test_example_2_aldgate_receives_4_houses_and_bethnal_1() -> None:
    m = new()
    assert sum(m.houses[m.geo.index["aldgate"]]) == 4
    assert sum(m.houses[m.geo.index["bethnal"]]) == 1


@pytest.mark.parametrize("seed", range(5))
def test_r14_houses_five_of_each_colour_in_each_region(seed: int) -> None:
    m = new(seed=seed)
    for region in ("orange", "purple", "blue", "green"):
        counts = Counter()
        for d in m.geo.board.districts:
            if d.region == region:
                assert sum(m.houses[d.index]) == (d.size or 0)
                counts.update({c: n for c, n in enumerate(m.houses[d.index])})
        assert [counts[c] for c in range(6)] == [5] * 6


def test_r14_tokens_face_down_on_the_twenty_sites() -> None:
    m = new()
    sites = {d.index for d in m.geo.board.districts if d.token_site}
    assert {d for d, t in enumerate(m.board_tokens) if t is not None} == sites
    assert Counter(t for t in m.board_tokens if t) == {"demolition": 10, "doubleMove": 6, "victoryPoint": 4}


def test_r14_one_objective_from_each_deck_per_player() -> None:
    m = new(seats=6)
    decks = {d.id: d.objective.deck for d in m.geo.board.districts if d.objective}
    for hand in m.objectives:
        assert sorted(decks[o] for o in hand) == ["I", "II", "III"]


def test_r14_colours_distinct_and_pawns_match_without_hidden_colours() -> None:
    m = new(seats=6)
    assert sorted(c for (c,) in m.colours) == list(range(6))
    assert m.pawn_colours == m.colours


def test_p4_hidden_colours_pawns_drawn_at_random() -> None:
    mismatched = 0
    for seed in range(20):
        m = new(seats=3, seed=seed, hiddenColours=True)
        pawns = [c for (c,) in m.pawn_colours]
        assert len(set(pawns)) == 3
        mismatched += sum(p != c for (p,), (c,) in zip(m.pawn_colours, m.colours, strict=True))
    assert mismatched > 0


@pytest.mark.parametrize(
    ("seats", "stacks", "box"),
    [(3, [3, 6, 6, 6, 6, 6], 12), (4, [8, 8, 8, 8], 8), (5, [6, 6, 6, 6, 6], 5), (6, [5] * 6, 0)],
)
def test_fire_stack_built_from_card_a_up(seats: int, stacks: list[int], box: int) -> None:
    m = new(seats=seats)
    assert [len(h) for h in m.hands] == [5] * seats
    assert len(m.box) == box
    found: list[int] = []
    letters = []
    for card in m.deck:
        if card.startswith("#"):
            letters.append(card[1:])
            found.append(0)
        else:
            found[-1] += 1
    assert letters == list("ABCDEF"[: len(stacks)])
    assert found == stacks
    every = [c for h in m.hands for c in h] + m.box + [c for c in m.deck if not c.startswith("#")]
    assert Counter(every) == {"N": 15, "E": 15, "S": 15, "W": 15}


def test_start_seat_option_and_seeded_start() -> None:
    assert new(startSeat=2).start == 2
    assert {new(seed=s).start for s in range(30)} == {0, 1, 2, 3}


def test_r15_five_identical_cards_offer_a_redeal() -> None:
    seed = redeal_seed()
    m = new(seed=seed)
    seat = m.to_act()[0]
    assert len(set(m.hands[seat])) == 1
    assert m.legal_actions(seat) == [{"type": "keepHand"}, {"type": "redeal"}]
    kept = m.clone()
    kept.apply(seat, {"type": "keepHand"})
    assert kept.hands[seat] == m.hands[seat]
    shown = list(m.hands[seat])
    events = m.apply(seat, {"type": "redeal"})
    public = [e for e in events if "audience" not in e]
    assert {"type": "handRedealt", "seat": seat, "shown": shown, "version": 1} in public
    private = [e for e in events if "audience" in e]
    assert private and all(e["audience"] == [seat] for e in private)
    assert private[0]["hand"] == m.hands[seat]
    assert len(m.hands[seat]) == 5
    assert sum(len(h) for h in m.hands) + len(m.box) + sum(1 for c in m.deck if not c.startswith("#")) == 60


def test_r15_redeal_repeats_while_the_hand_is_still_identical() -> None:
    m = new(seed=redeal_seed())
    seat = m.to_act()[0]
    m.deck = ["W"] * len(m.deck)  # whatever is dealt next is five Ws again
    m.hands[seat] = ["W"] * 5
    m.apply(seat, {"type": "redeal"})
    assert m.phase is Phase.REDEAL and m.to_act() == [seat]
    m.apply(seat, {"type": "keepHand"})
    assert m.phase is not Phase.REDEAL or m.to_act() != [seat]


def _placements(m: GreatFireMatch) -> list[int]:
    order = []
    while m.phase is Phase.PLACE_BANDS:
        seat = m.to_act()[0]
        order.append(seat)
        m.apply(seat, m.legal_actions(seat)[0])
    return order


@pytest.mark.parametrize(
    ("seats", "preset", "order"),
    [
        (3, set(), [1, 2, 0, 1, 2, 0]),
        (4, {"hounds-ditch", "st-botolphs"}, [1, 2, 3, 0]),
        (5, {"cripplegate"}, [1, 2, 3, 4, 0]),
        (6, set(), [1, 2, 3, 4, 5, 0]),
    ],
)
def test_r16_preset_bands_then_one_each_in_seat_order(seats: int, preset: set[str], order: list[int]) -> None:
    m = new(seats=seats, startSeat=1)
    assert m.phase is Phase.PLACE_BANDS
    assert {m.geo.ids[d] for d, n in enumerate(m.bands) if n} == preset
    assert _placements(m) == order
    assert sum(m.bands) == 6
    pawn_order = []
    while m.phase is Phase.PLACE_PAWNS:
        seat = m.to_act()[0]
        pawn_order.append(seat)
        m.apply(seat, m.legal_actions(seat)[-1])
    assert pawn_order == order[:seats]
    assert m.phase is Phase.FIRE and m.to_act() == [1]


def test_r16_bands_and_pawns_outside_the_green_region_grass_allowed() -> None:
    m = new(seats=6)
    board = m.geo.board
    for phase in (Phase.PLACE_BANDS, Phase.PLACE_PAWNS):
        while m.phase is phase:
            seat = m.to_act()[0]
            legal = {a["district"] for a in m.legal_actions(seat)}
            regions = {board.district(d).region for d in legal}
            assert "green" not in regions and "pudding-lane" not in legal
            assert {"smithfield", "moorfields"} <= legal
            with pytest.raises(IllegalAction):
                m.apply(seat, {"type": m.legal_actions(seat)[0]["type"], "district": "cheapside"})
            m.apply(seat, m.legal_actions(seat)[0])

"""Hidden information (R18, P5): what each view and event shows, and to whom."""

from __future__ import annotations

import json
import random

import pytest

from firebreak.domain import titles
from firebreak.domain.contract import RawJSON
from firebreak.domain.errors import UnknownSeat
from firebreak.domain.events import visible_to
from firebreak.domain.greatfire import views
from firebreak.domain.greatfire.match import GreatFireMatch
from firebreak.domain.greatfire.rules import turns
from firebreak.matches import packing
from tests.greatfire.positions import blank, put, restart


def test_r18_own_view_shows_own_secrets_only() -> None:
    m = blank()
    m.tokens[1] = ["victoryPoint"]
    v1 = m.view(1)
    assert v1["you"]["hand"] == sorted(m.hands[1])
    assert [o["district"] for o in v1["you"]["objectives"]] == m.objectives[1]
    assert v1["you"]["tokens"] == ["victoryPoint"]
    assert v1["you"]["colours"] == [m.comps.colours[m.colours[1][0]]]
    for row in v1["players"]:
        assert "hand" not in row and "objectives" not in row
        assert isinstance(row["tokens"], int)
    assert v1["players"][1]["tokens"] == 1
    assert "you" not in m.view(None)


def test_r18_view_contains_no_other_objective_or_token_identity() -> None:
    m = blank()
    m.tokens[1] = ["victoryPoint"]
    text = json.dumps(m.view(2))
    assert '"victoryPoint"' not in text
    for other in (0, 1, 3):
        for objective in set(m.objectives[other]) - set(m.objectives[2]):
            assert f'"district": "{objective}"' not in text


def test_r18_board_tokens_face_down_for_everyone() -> None:
    m = blank()
    v = m.view(0)
    sites = {d.id for d in m.geo.board.districts if d.token_site}
    assert {k for k, d in v["districts"].items() if d["token"]} == sites
    text = json.dumps(v)
    assert '"demolition"' not in text and '"doubleMove"' not in text and '"victoryPoint"' not in text


def test_r18_hidden_colours_hide_colours_and_houses_lost_but_not_pawns() -> None:
    m = titles.get("greatfire").new_match(seats=4, seed=3, options={"hiddenColours": True})
    assert isinstance(m, GreatFireMatch)
    for viewer in (None, 0, 1):
        for row in m.view(viewer)["players"]:
            assert row["colours"] is None and row["housesLost"] is None
            assert len(row["pawnColours"]) == 1
    assert m.view(0)["you"]["colours"] == [m.comps.colours[m.colours[0][0]]]
    # the score track by colour stays public (the burnt houses lie on the board)
    assert set(m.view(None)["scoreTrack"]) == set(m.comps.colours)


def test_r18_token_taken_is_public_its_kind_only_for_the_taker() -> None:
    m = blank(hand=["N"] * 5)
    # S. Mary lies north of Pudding Lane, holds houses and (on the shipped board) a token site.
    put(m, "s-mary", token="doubleMove")
    restart(m)
    events: list[dict[str, object]] = []
    events += m.apply(0, {"type": "playCard", "card": "N"})
    events += m.apply(0, {"type": "chooseSource", "district": "pudding-lane"})
    events += m.apply(0, {"type": "spreadFire", "district": "s-mary"})
    taken = [e for e in events if e["type"] == "tokenTaken"]
    assert taken and "token" not in taken[0]
    for viewer in (None, 1, 2, 3):
        assert '"doubleMove"' not in json.dumps(visible_to(events, viewer))
    assert any(e.get("token") == "doubleMove" for e in visible_to(events, 0))
    assert m.tokens[0] == ["doubleMove"]


def test_r18_r8_revealed_hand_is_shown_to_all_for_that_event() -> None:
    m = blank(hand=["S"] * 5)
    events = restart(m)  # Pudding Lane borders the Thames: an all-south hand has no move
    revealed = [e for e in events if e["type"] == "handRevealed"]
    assert revealed == [{"type": "handRevealed", "seat": 0, "hand": ["S"] * 5}]
    assert visible_to(revealed, None) == revealed


def test_p5_everything_revealed_at_the_end() -> None:
    m = blank(seats=3)
    m.deck = []
    m.turns_left = 0
    restart(m)
    from tests.greatfire.test_turns import play_turn

    play_turn(m)
    assert m.is_over()
    v = m.view(None)
    for row in v["players"]:
        assert row["hand"] == sorted(m.hands[row["seat"]])
        assert [o["district"] for o in row["objectives"]] == m.objectives[row["seat"]]
        assert row["colours"] is not None
    result = m.result()
    assert result is not None
    assert v["result"]["winners"] == list(result.winners)
    assert [row["total"] for row in v["result"]["scores"]] == [s.total for s in result.scores]


def test_views_share_no_mutable_part_and_the_kept_names_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The named rows of houses are kept between views (views._NAMED); each view holds its own copies."""
    m = titles.get("greatfire").new_match(seats=4, seed=8)
    first = m.view(0)
    for row in first["districts"].values():
        row["houses"]["spoilt"] = 99
    second = m.view(0)
    assert all("spoilt" not in row["houses"] for row in second["districts"].values())
    monkeypatch.setattr(views, "NAMED_KEPT", 2)
    monkeypatch.setattr(views, "_NAMED", {})
    third = m.view(0)
    assert third == second and all(len(kept) <= 2 for kept in views._NAMED.values())


def _step(m: GreatFireMatch, rng: random.Random) -> None:
    """One step of a random game: the service's, or a random legal action of the seat to act."""
    if m.system_due():
        m.run_system_step()
    else:
        seat = m.to_act()[0]
        m.apply(seat, rng.choice(m.legal_actions(seat)))


def _played(seats: int, seed: int, **options: object) -> list[GreatFireMatch]:
    """Every position of a seeded random game, setup to the end."""
    m = titles.get("greatfire").new_match(seats=seats, seed=seed, options=dict(options))
    assert isinstance(m, GreatFireMatch)
    rng = random.Random(seed)
    out = [m.clone()]
    while not m.is_over():
        _step(m, rng)
        out.append(m.clone())
    return out


@pytest.mark.parametrize(("seats", "seed", "options"), [(2, 31, {}), (4, 32, {}), (4, 33, {"hiddenColours": True}),
                                                        (6, 34, {})])
def test_the_json_view_writes_the_same_bytes_as_the_view(seats: int, seed: int, options: dict[str, object]) -> None:
    """json_view (the districts as one JSON object from kept texts) is written by the service's JSON writer byte for
    byte as the view, for every seat and the spectator at every step of whole games."""
    for m in _played(seats, seed, **options):
        for seat in [*range(seats), None]:
            for raw in (RawJSON, packing.RAW):  # the domain's own kind, and the service's writer's (orjson's)
                written = m.json_view(seat, raw)
                assert isinstance(written["districts"], raw)
                assert packing.dump_bytes(written) == packing.dump_bytes(m.view(seat))
                assert packing.dumps(written) == packing.dumps(m.view(seat))
                assert packing.unpack(packing.pack(written)) == m.view(seat)


def test_the_kept_district_texts_stay_bounded_and_never_change(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views, "TEXTS_KEPT", 5)
    monkeypatch.setattr(views, "_TEXTS", {})
    m = titles.get("greatfire").new_match(seats=4, seed=8)
    written = m.json_view(1)
    assert packing.dump_bytes(written) == packing.dump_bytes(m.view(1))
    assert all(len(kept) <= 5 for kept in views._TEXTS.values())
    with pytest.raises(AttributeError):
        written["districts"].text = "{}"
    with pytest.raises(UnknownSeat):
        m.json_view(4)


@pytest.mark.parametrize(("seats", "seed"), [(2, 41), (4, 42), (5, 43)])
def test_the_json_view_of_a_state_played_in_place_rewrites_what_changed_and_stays_the_same_bytes(
        seats: int, seed: int) -> None:
    """The pipeline applies each step to one kept state: each json_view after a step starts from the last one's
    texts (views.Shown) and must still write the view's bytes, as must a clone changed after it shared them."""
    m = titles.get("greatfire").new_match(seats=seats, seed=seed)
    assert isinstance(m, GreatFireMatch)
    rng = random.Random(seed)
    steps = 0
    while not m.is_over():
        seat = rng.choice([*range(seats), None])
        raw = packing.RAW if rng.random() < 0.9 else RawJSON  # mostly the service's kind, now and then the other
        assert packing.dump_bytes(m.json_view(seat, raw)) == packing.dump_bytes(m.view(seat))
        if steps % 25 == 0:  # a clone shares what was shown, then goes its own way
            twin = m.clone()
            for _ in range(5):
                if not twin.is_over():
                    _step(twin, rng)
            assert packing.dump_bytes(twin.json_view(None)) == packing.dump_bytes(twin.view(None))
        _step(m, rng)
        steps += 1
    assert steps > 100
    assert packing.dump_bytes(m.json_view(0)) == packing.dump_bytes(m.view(0))


def test_what_a_json_view_keeps_is_shared_between_matches_and_never_the_states_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """views.Shown keeps one shared copy of each distinct row of houses (the service keeps one Shown per live match,
    and an act reads it) and the kept district texts themselves, so two matches dealt alike hold the same objects;
    its rows are never the state's, so a row changed in place (no rule does: they replace rows) is still seen."""
    first, second = (titles.get("greatfire").new_match(seats=4, seed=51) for _ in range(2))
    assert isinstance(first, GreatFireMatch) and isinstance(second, GreatFireMatch)
    first.json_view(0, packing.RAW)
    second.json_view(1, packing.RAW)
    one, two = first.shown, second.shown
    assert isinstance(one, views.Shown) and isinstance(two, views.Shown)
    assert all(a is b for a, b in zip(one.houses, two.houses, strict=True))
    assert all(a is b for a, b in zip(one.texts, two.texts, strict=True))
    assert not any(kept is row for kept, row in zip(one.houses, first.houses, strict=True))
    d = next(d for d, row in enumerate(first.houses) if any(row))
    first.houses[d][first.houses[d].index(max(first.houses[d]))] -= 1  # in place, as no rule does
    assert packing.dump_bytes(first.json_view(0, packing.RAW)) == packing.dump_bytes(first.view(0))
    assert packing.dump_bytes(second.json_view(1, packing.RAW)) == packing.dump_bytes(second.view(1))
    monkeypatch.setattr(views, "ROWS_KEPT", 3)
    monkeypatch.setattr(views, "_ROWS", {})
    third = titles.get("greatfire").new_match(seats=4, seed=52)
    assert packing.dump_bytes(third.json_view(2, packing.RAW)) == packing.dump_bytes(third.view(2))
    assert len(views._ROWS) <= 3


def _deck_counts(m: GreatFireMatch) -> tuple[object, object, object]:
    v = m.view(None)
    return v["deckSize"], v["stacksLeft"], v["untilIntensify"]


def test_the_views_deck_counts_follow_the_deck() -> None:
    """deckSize is the rules' fire cards left (turns.fire_cards_left), stacksLeft the stack cards, untilIntensify
    the fire cards drawn from the top (the list's end) before the next stack card shows: on decks set by hand and
    at every step of a played game."""
    m = blank()
    for deck, counts in ((["#A", "N", "E", "#B", "S", "W"], (4, 2, 2)), (["N", "E"], (2, 0, None)),
                         (["#A"], (0, 1, 0)), ([], (0, 0, None)), (["W", "#C"], (1, 1, 0))):
        m.deck = deck
        assert _deck_counts(m) == counts, deck
    for p in _played(4, 35):
        stacks = [k for k, card in enumerate(p.deck) if card.startswith("#")]
        assert _deck_counts(p) == (turns.fire_cards_left(p), len(stacks),
                                   len(p.deck) - 1 - stacks[-1] if stacks else None)

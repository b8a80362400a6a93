"""The rating model alone: places from a result, OpenSkill's update, the displayed number."""

from __future__ import annotations

import math

import pytest

from firebreak.ratings import model
from firebreak.ratings.model import Skill, Standing


def test_places_put_winners_first_then_totals_then_resigned_seats() -> None:
    standings = [Standing(0, 40, False), Standing(1, 30, True), Standing(2, 40, False), Standing(3, 90, False, True),
                 Standing(4, 55, False)]
    assert model.places(standings) == {1: 1, 4: 2, 0: 3, 2: 3, 3: 5}


def test_shared_winners_share_the_first_place_and_a_scoreless_title_ties_the_rest() -> None:
    assert model.places([Standing(0, 7, True), Standing(1, 9, True), Standing(2, 12, False)]) == {0: 1, 1: 1, 2: 3}
    scoreless = [Standing(0, None, True), Standing(1, None, False), Standing(2, None, False),
                 Standing(3, None, False, True)]
    assert model.places(scoreless) == {0: 1, 1: 2, 2: 2, 3: 4}


def test_the_winner_gains_the_loser_drops_and_tied_seats_move_alike() -> None:
    new = Skill()
    after = model.rate({"a": new, "b": new, "c": new}, {0: "a", 1: "b", 2: "c"}, {0: 1, 1: 2, 2: 2})
    assert after["a"].mu > model.MU > after["b"].mu
    assert after["b"] == after["c"]
    assert all(s.sigma < model.SIGMA for s in after.values())


def test_a_bot_level_in_several_seats_moves_by_the_mean_of_its_seats() -> None:
    new = Skill()
    seats = {0: "p", 1: "bot:random", 2: "bot:random"}
    placed = {0: 2, 1: 1, 2: 3}
    after = model.rate({"p": new, "bot:random": new}, seats, placed)
    alone = model.rate({"p": new, "x": new, "y": new}, {0: "p", 1: "x", 2: "y"}, placed)
    assert after["bot:random"].mu == pytest.approx((alone["x"].mu + alone["y"].mu) / 2)
    assert after["bot:random"].sigma == pytest.approx((alone["x"].sigma + alone["y"].sigma) / 2)
    assert after["p"] == alone["p"]


def test_the_displayed_number_is_mu_on_an_elo_like_scale() -> None:
    assert Skill().display == 1500
    assert model.display(model.MU + 1) - model.display(model.MU) in (29, 30)
    gap = 200 / model.ELO_PER_MU  # 200 displayed points, in mu
    settled = math.sqrt(2) * model.BETA  # Plackett-Luce's pairwise scale between two settled players
    assert 1 / (1 + math.exp(-gap / settled)) == pytest.approx(0.76, abs=0.01)


def test_provisional_until_ten_rated_matches_and_bot_keys() -> None:
    assert model.provisional(model.PROVISIONAL_GAMES - 1) and not model.provisional(model.PROVISIONAL_GAMES)
    assert model.bot_level(model.bot_key("greedy")) == "greedy"
    assert model.bot_level("0123456789abcdef") is None

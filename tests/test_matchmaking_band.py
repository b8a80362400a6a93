"""The rating band and the table plan of matchmaking/band.py, with explicit ratings and waiting times."""

from __future__ import annotations

import pytest

from firebreak.matchmaking.band import band, compatible, plan
from firebreak.matchmaking.config import SeekSettings
from firebreak.matchmaking.seeks import Pool, Seek, SeekStatus

SETTINGS = SeekSettings(ttl=600, band=100.0, band_growth=10.0, band_max=0.0)
POOL = Pool("greatfire", 2, {})
NOW = 10_000.0


def seek(name: str, rating: float | None, waited: float = 0.0, bots_after: float | None = None,
         player: str | None = None, pool: Pool = POOL) -> Seek:
    """A waiting seek of player `name` (or `player`) made `waited` seconds before NOW."""
    created = NOW - waited
    return Seek(id=name, player=player or name, name=name, program=False, pool=pool, rating=rating,
                created=created, expires=created + SETTINGS.ttl, bots_after=bots_after, status=SeekStatus.WAITING)


def test_the_band_widens_with_the_wait_and_stops_at_its_cap() -> None:
    assert band(seek("a", 1500, waited=0), NOW, SETTINGS) == 100
    assert band(seek("a", 1500, waited=30), NOW, SETTINGS) == 400
    capped = SeekSettings(band=100.0, band_growth=10.0, band_max=250.0)
    assert band(seek("a", 1500, waited=30), NOW, capped) == 250


def test_ratings_within_the_wider_band_are_compatible_and_others_not() -> None:
    assert compatible(seek("a", 1500), seek("b", 1600), NOW, SETTINGS)
    assert not compatible(seek("a", 1500), seek("b", 1601), NOW, SETTINGS)
    # the long waiter's band (100 + 10 * 20 = 300) lets a newcomer 250 away in
    assert compatible(seek("a", 1500, waited=20), seek("b", 1750), NOW, SETTINGS)
    assert not compatible(seek("a", 1500, waited=20), seek("b", 1801), NOW, SETTINGS)


def test_an_unrated_seek_meets_anyone_but_never_its_own_player() -> None:
    assert compatible(seek("a", None), seek("b", 3000), NOW, SETTINGS)
    assert compatible(seek("a", None), seek("b", None), NOW, SETTINGS)
    assert not compatible(seek("a", None), seek("b", None, player="a"), NOW, SETTINGS)


def test_the_plan_seats_the_oldest_first_with_the_closest_compatible_seekers() -> None:
    seeks = [seek("new-far", 2400, waited=1), seek("old", 1500, waited=5), seek("mid", 1550, waited=3),
             seek("other", 1580, waited=2)]
    tables = plan(seeks, 2, NOW, SETTINGS)
    assert [[s.id for s in t.seekers] for t in tables] == [["old", "mid"]]
    assert tables[0].bots == 0  # "other" waits for a partner in its band; "new-far" has none


def test_a_far_seeker_is_matched_once_the_wait_has_widened_a_band_enough() -> None:
    far = [seek("a", 1500, waited=0), seek("b", 1900, waited=0)]
    assert plan(far, 2, NOW, SETTINGS) == []
    later = NOW + 30  # a's band and b's are 100 + 300 = 400 by then
    assert [[s.id for s in t.seekers] for t in plan(far, 2, later, SETTINGS)] == [["a", "b"]]


def test_every_seat_of_a_table_is_compatible_with_every_other() -> None:
    seeks = [seek("a", 1500, waited=0.9), seek("b", 1590, waited=0.8), seek("c", 1420, waited=0.7),
             seek("d", 1560, waited=0.6)]
    tables = plan(seeks, 3, NOW, SETTINGS)
    assert [[s.id for s in t.seekers] for t in tables] == [["a", "b", "d"]]  # c is 170 from b: not with b


def test_a_table_short_of_players_gets_bots_only_after_the_anchor_asked_and_waited() -> None:
    alone = [seek("a", 1500, waited=5, bots_after=10)]
    assert plan(alone, 3, NOW, SETTINGS) == []
    tables = plan(alone, 3, NOW + 6, SETTINGS)
    assert [([s.id for s in t.seekers], t.bots) for t in tables] == [(["a"], 2)]
    # a seeker who did not ask for bots is not seated with them; one who asked but has not waited enough neither
    mixed = [seek("a", 1500, waited=20, bots_after=10), seek("b", 1500, waited=15),
             seek("c", 1500, waited=12, bots_after=30)]
    tables = plan(mixed, 4, NOW, SETTINGS)
    assert [([s.id for s in t.seekers], t.bots) for t in tables] == [(["a"], 3)]


def test_seeks_past_their_time_are_left_out() -> None:
    old = seek("a", None, waited=SETTINGS.ttl + 1)
    assert plan([old, seek("b", None)], 2, NOW, SETTINGS) == []


def test_settings_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="FIREBREAK_SEEK_TTL"):
        SeekSettings.from_env({"FIREBREAK_SEEK_TTL": "0"})
    with pytest.raises(ValueError, match="FIREBREAK_SEEK_BAND"):
        SeekSettings.from_env({"FIREBREAK_SEEK_BAND": "-1"})
    assert SeekSettings.from_env({"FIREBREAK_SEEK_TTL": "30"}).ttl == 30

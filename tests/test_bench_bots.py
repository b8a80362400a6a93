"""The ladder script (bench/bots.py): its statistics and a tiny seeded tournament, so the script keeps working."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench import bots


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = bots.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = bots.wilson(91, 100)
    assert low == pytest.approx(0.8377, abs=1e-4) and high == pytest.approx(0.9519, abs=1e-4)
    assert bots.wilson(0, 0) == (0.0, 1.0)
    assert bots.wilson(10, 10)[1] == 1.0


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert bots.percentile(values, 50) == 50.0
    assert bots.percentile(values, 99) == 99.0
    assert bots.percentile([3.0], 90) == 3.0


def test_a_tiny_tournament_rotates_seats_and_reports_every_level() -> None:
    lineup = ("search", "greedy", "random")
    outcomes = bots.tournament(3, lineup, games=3, seed=7, budget=None, iterations=2, procs=1)
    assert [o.lineup for o in outcomes] == [lineup, lineup[1:] + lineup[:1], lineup[2:] + lineup[:2]]
    for o in outcomes:
        assert len(o.totals) == 3 and o.winners and set(o.winners) <= {0, 1, 2}
        assert all(o.times[seat] for seat in range(3))
    table = bots.report(outcomes, 3)
    assert table.splitlines()[0] == "fair share 33%"
    rows = {line.split()[0]: line.split() for line in table.splitlines()[2:-1]}
    assert set(rows) == set(lineup)
    assert all(row[1] == "3" for row in rows.values())  # each level played three seat-games
    assert sum(float(row[2]) for row in rows.values()) == pytest.approx(3.0)  # one win shared out per game
    for o in outcomes:
        assert [set(p) for p in o.plays] == [set(bots.PLAY_STATS)] * 3
        assert sum(p["houses"] for p in o.plays) <= 120
    for level, row in rows.items():  # the play figures: means per seat-game of the level's seats
        figures = [float(x) for x in row[-len(bots.PLAY_STATS):]]
        seats = [(o, s) for o in outcomes for s, name in enumerate(o.lineup) if name == level]
        expected = [sum(o.plays[s][k] for o, s in seats) / len(seats) for k in bots.PLAY_STATS]
        assert figures == pytest.approx(expected, abs=0.005)
    assert table.splitlines()[-1].startswith("per game, all seats: putOut ")


def test_play_figures_count_each_seats_own_events() -> None:
    """Put-outs, Hero awards, demolitions and double moves go to the seat named in the event."""
    plays = [dict.fromkeys(bots.PLAY_STATS, 0) for _ in range(2)]
    bots._count(plays, [
        {"type": "firePutOut", "seat": 1, "district": "x", "putOut": 1},
        {"type": "heroOfLondon", "seat": 1, "from": None},
        {"type": "demolished", "seat": 0, "district": "y", "houses": {}},
        {"type": "tokenPlayed", "seat": 0, "token": "doubleMove"},
        {"type": "tokenTaken", "seat": 0, "district": "z"},
        {"type": "fireSpread", "from": "a", "to": "b"},
    ])
    assert plays == [{"putOut": 0, "hero": 0, "demolished": 1, "doubleMove": 1, "houses": 0},
                     {"putOut": 1, "hero": 1, "demolished": 0, "doubleMove": 0, "houses": 0}]


def test_greedy_fights_fire_in_the_ladder() -> None:
    """Greedy seats put fires out and keep houses standing (the audit found 0.1 put-outs a game before)."""
    outcomes = bots.tournament(4, ("greedy",) * 4, games=2, seed=50, budget=None, iterations=2, procs=1)
    assert sum(p["putOut"] for o in outcomes for p in o.plays) >= 4
    assert all(sum(p["houses"] for p in o.plays) > 0 for o in outcomes)


def test_the_same_seeds_give_the_same_games() -> None:
    """With an iteration budget the ladder is reproducible."""
    first = bots.tournament(2, ("search", "greedy"), games=1, seed=3, budget=None, iterations=2, procs=1)
    again = bots.tournament(2, ("search", "greedy"), games=1, seed=3, budget=None, iterations=2, procs=1)
    assert [(o.totals, o.winners) for o in first] == [(o.totals, o.winners) for o in again]


def test_a_bad_lineup_is_refused() -> None:
    with pytest.raises(SystemExit, match="names 2 levels for 3 seats"):
        bots.tournament(3, ("search", "greedy"), games=1, seed=1, budget=None, iterations=2, procs=1)
    with pytest.raises(SystemExit, match="unknown level"):
        bots.tournament(2, ("search", "genius"), games=1, seed=1, budget=None, iterations=2, procs=1)


def test_a_logged_run_reports_the_same_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--log keeps every finished game; --report prints the table from it (a long run stopped early)."""
    log = tmp_path / "run.jsonl"
    outcomes = bots.tournament(2, ("greedy", "random"), games=2, seed=9, budget=None, iterations=2, procs=1, log=log)
    assert len(log.read_text().splitlines()) == 2
    assert bots.read_log(log) == outcomes
    assert bots.main(["--report", str(log)]) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[0] == f"2 games from {log}"
    assert bots.report(outcomes, 2) in printed


def test_the_london_ladder_reports_loans_poverty_and_land(capsys: pytest.CaptureFixture[str]) -> None:
    """--title london plays London and reports its own play figures per seat-game, counted from the events and
    the final scoring; Great Fire's columns are not there."""
    lineup = ("greedy", "random")
    outcomes = bots.tournament(2, lineup, games=2, seed=4, budget=None, iterations=2, procs=1, title="london")
    assert {o.title for o in outcomes} == {"london"}
    for o in outcomes:
        assert [set(p) for p in o.plays] == [set(bots.LONDON_STATS)] * 2
        for seat, p in enumerate(o.plays):
            assert p["prestige"] == o.totals[seat]
            assert p["repaid"] <= p["loans"] and p["unpaid"] <= p["loans"] - p["repaid"]  # the end repays what it can
            assert p["inDebt"] == (p["unpaid"] > 0)
            assert p["poverty"] >= 0 and p["boroughs"] >= 0
    table = bots.report(outcomes, 2)
    assert "wonAt   per seat-game: prestige runs loans repaid unpaid inDebt poverty boroughs" in table.splitlines()[1]
    assert table.splitlines()[-1].startswith("per game, all seats: prestige ")
    assert "supply emptied" not in table
    assert bots.main(["--title", "london", "--seats", "2", "--lineup", "greedy,random", "--games", "1",
                      "--budget", "0", "--iterations", "2", "--procs", "1"]) == 0
    assert "london: 2 players, 1 games" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="unknown level"):
        bots.tournament(2, ("oracle", "greedy"), games=1, seed=1, budget=None, iterations=2, procs=1, title="london")


def test_the_reader_is_fed_every_view_of_its_seat() -> None:
    """bench-only `reader` (domain/greatfire/bots/reader.py) reads the rivals' fire moves from the views the loop
    feeds it; the loop feeds no other level."""
    from firebreak.domain import titles
    from firebreak.domain.greatfire.bots.reader import ReadingBot

    game = bots.Game(4, 5, ("reader", "greedy", "greedy", "greedy"), None, 2)
    levels = bots._bots(None, 2)
    reader = levels["reader"]
    assert isinstance(reader, ReadingBot)
    match = titles.get("greatfire").new_match(seats=4, seed=5)
    greedy = levels["greedy"]
    for step in range(120):
        bots._observe(game, levels, match)
        if match.system_due():
            match.run_system_step()
            continue
        (seat,) = match.to_act()
        match.apply(seat, greedy(match, seat, random.Random(step)))
    assert set(reader.beliefs) == {0}
    assert set(reader.beliefs[0].evidence) == {1, 2, 3}  # each rival's last fire move, read from seat 0's views
    outcomes = bots.tournament(4, game.lineup, games=1, seed=5, budget=None, iterations=2, procs=1)
    assert outcomes[0].winners and outcomes[0].times[0]


def test_two_logs_compare_game_by_game_on_their_common_seeds(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """--report A --versus B pairs games by seed: each log's first level, its wins, who alone won, the difference."""
    def game(seed: int, lineup: tuple[str, ...], winners: list[int]) -> bots.Outcome:
        return bots.Outcome(lineup, [0] * len(lineup), winners, seed=seed)

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    # logged in the order games finished: the first line may be a rotated lineup, the lowest seed's is not
    for outcome in (game(2, ("greedy", "new"), [1]), game(1, ("new", "greedy"), [0]),
                    game(3, ("new", "greedy"), [1]), game(9, ("new", "greedy"), [0])):
        bots._logged(outcome, a)
    for outcome in (game(1, ("old", "greedy"), [1]), game(2, ("greedy", "old"), [1]),
                    game(3, ("old", "greedy"), [0, 1]), game(4, ("old", "greedy"), [0])):
        bots._logged(outcome, b)
    assert [o.seed for o in bots.read_log(a)] == [2, 1, 3, 9]
    assert bots.main(["--report", str(a), "--versus", str(b)]) == 0
    out = capsys.readouterr().out
    # seeds 1-3: new wins 1, 1, 0; old wins 0, 1, 0.5
    assert "3 seeds in both logs (1..3): new 66.7%, old 50.0%; only the first won 1, only the other 1" in out
    assert "difference +16.7 points" in out
    assert bots.paired([game(5, ("new", "greedy"), [0])], bots.read_log(b)) == "no seed is in both logs"


def test_london_figures_count_runs_and_the_winners_prestige() -> None:
    """Per level: city runs (one per povertyGained event), the prestige of its won seat-games (wonAt) and the
    per-seat-game means; the last line gives the mean winner prestige (the top total of each game). The bench-only
    `deliberate` level plays, and it runs its city."""
    plays = [dict.fromkeys(bots.LONDON_STATS, 0) for _ in range(2)]
    bots._count(plays, [{"type": "povertyGained", "seat": 1, "total": 4}, {"type": "povertyGained", "seat": 1},
                        {"type": "landBought", "seat": 0}, {"type": "loanTaken", "seat": 0}], "london")
    assert (plays[0]["runs"], plays[1]["runs"], plays[0]["boroughs"], plays[0]["loans"]) == (0, 2, 1, 1)
    lineup = ("deliberate", "greedy")
    outcomes = bots.tournament(2, lineup, games=2, seed=8, budget=None, iterations=2, procs=1, title="london")
    table = bots.report(outcomes, 2)
    rows = {line.split()[0]: line.split() for line in table.splitlines()[2:-1]}
    assert set(rows) == set(lineup)
    stats = len(bots.LONDON_STATS)
    for level, row in rows.items():
        seats = [(o, s) for o in outcomes for s, name in enumerate(o.lineup) if name == level]
        won = [o.totals[s] for o, s in seats if s in o.winners]
        shown = float(row[-stats - 1])
        assert shown == pytest.approx(sum(won) / len(won), abs=0.05) if won else shown != shown  # nan: no win
        runs = sum(o.plays[s]["runs"] for o, s in seats) / len(seats)
        assert float(row[-stats + bots.LONDON_STATS.index("runs")]) == pytest.approx(runs, abs=0.005)
    assert sum(o.plays[s]["runs"] for o in outcomes for s, name in enumerate(o.lineup) if name == "deliberate") >= 2
    winner = sum(max(o.totals) for o in outcomes) / len(outcomes)
    assert table.splitlines()[-1].endswith(f"winner prestige {winner:.2f}")

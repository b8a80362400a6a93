"""bench/london_cards.py: its counts agree with the games it plays, replayed here from their seeds."""

from __future__ import annotations

from collections import Counter

from bench import london_cards
from bench.bots import Game, _bots, _decide
from firebreak.domain import titles
from firebreak.domain.london.data import shipped_catalogue


def _replayed(game: Game) -> tuple[list[set[str]], list[set[str]], list[int]]:
    """What each seat held and played in the game, and its winners, replayed independently of the bench."""
    bots = _bots(game.budget, game.iterations, "london")
    match = titles.get("london").new_match(seats=game.seats, seed=game.seed)
    held: list[set[str]] = [set() for _ in range(game.seats)]
    played: list[set[str]] = [set() for _ in range(game.seats)]
    times: list[list[float]] = [[] for _ in range(game.seats)]
    while True:
        for seat, hand in enumerate(match.hands):  # type: ignore[attr-defined]
            held[seat] |= {match.card(c).name for c in hand if match.card(c).kind != "beggar"}  # type: ignore[attr-defined]
        if match.is_over():
            break
        seat, action = _decide(game, bots, match, times, [[] for _ in range(game.seats)])
        for event in match.apply(seat, action):
            if event["type"] in ("cardPlayed", "actionPlayed"):
                played[seat].add(match.card(event["card"]).name)  # type: ignore[attr-defined]
    result = match.result()
    assert result is not None
    return held, played, list(result.winners)


def test_the_tallies_are_the_games_seat_games() -> None:
    tallies = london_cards.catalogue()
    games = [Game(2, 9100 + g, ("greedy", "greedy"), None, 10, "london") for g in range(2)]
    for game in games:
        london_cards.play_one(game, tallies)
    expected_held: dict[str, int] = {}
    expected_played: dict[str, int] = {}
    expected_won: dict[str, float] = {}
    for game in games:
        held, played, winners = _replayed(game)
        for seat in range(game.seats):
            for name in held[seat] | played[seat]:
                expected_held[name] = expected_held.get(name, 0) + 1
            for name in played[seat]:
                expected_played[name] = expected_played.get(name, 0) + 1
                if seat in winners:
                    expected_won[name] = expected_won.get(name, 0.0) + 1 / len(winners)
    assert {n: t.held for n, t in tallies.items() if t.held} == expected_held
    assert {n: t.played for n, t in tallies.items() if t.played} == expected_played
    assert {n: t.won_played for n, t in tallies.items() if t.won_played} == expected_won
    assert sum(expected_played.values()) > 0
    # a game ends when the deck is spent: every card of one copy was held in a seat-game of each game at least
    # (more when it went to the board and another seat took it)
    copies = Counter(card.name for card in shipped_catalogue().cards.values())
    singles = {name: tallies[name].held for name in tallies if copies[name] == 1}
    assert singles and min(singles.values()) == len(games)


def test_the_report_names_the_never_and_always_played_cards() -> None:
    tallies = london_cards.catalogue()
    names = sorted(tallies)
    tallies[names[0]].held, tallies[names[0]].played = 30, 0
    tallies[names[1]].held, tallies[names[1]].played, tallies[names[1]].won_played = 25, 25, 12.5
    text = london_cards.report(tallies, 10, 20)
    assert f"never played though held in >= 20 seat-games: {names[0]}" in text
    assert f"played every time held (>= 20 seat-games): {names[1]}" in text
    row = next(line for line in text.splitlines() if line.startswith(names[1][:28]))
    assert row.split()[-2:] == ["0.50", "-"]

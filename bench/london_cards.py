"""Which of London's city cards the bots play, and what playing one goes with: a check of the reconstructed catalogue.

Plays --games seeded London games (game g: seed --seed + g, the lineup rotated by g seats, as bench/bots.py does),
and for each card of the catalogue (its copies together, by name) counts, over every seat-game: how often a seat
held it (it was in the hand at some point), played it (`cardPlayed` into the city, `actionPlayed` for an action
card), ran it (`activated`), and the win share of the seat-games that played it against those that held it and
did not. Prints the table by play rate, then the cards held often (at least --min-held seat-games) but never
played, and those played every time they were held: the figures issue 26 asks for before calling the catalogue
unbalanced. Every card is drawn in every game (a game ends when the deck is spent), so a card of one copy is
held in at least one seat-game a game.

Run: python -m bench.london_cards [--seats 2] [--lineup greedy,greedy] [--games 200] [--seed 9000]
         [--budget 0 --iterations 20]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from bench.bots import Game, _bots, _decide
from firebreak.domain import titles
from firebreak.domain.london.data import shipped_catalogue
from firebreak.domain.london.match import LondonMatch


@dataclass
class Tally:
    """One card's counts over seat-games (its copies together)."""

    kind: str
    cost: int
    prestige: int
    held: int = 0
    played: int = 0
    runs: int = 0
    won_played: float = 0.0     # win shares of the seat-games that played it
    won_unplayed: float = 0.0   # and of those that held it without playing it

    @property
    def rate(self) -> float:
        """Seat-games that played it, of those that held it."""
        return self.played / self.held if self.held else 0.0


def play_one(game: Game, tallies: dict[str, Tally]) -> None:
    """Play one game to its end and add its seat-games to the tallies."""
    bots = _bots(game.budget, game.iterations, "london")
    match = titles.get("london").new_match(seats=game.seats, seed=game.seed)
    assert isinstance(match, LondonMatch)
    held: list[set[str]] = [set() for _ in range(game.seats)]
    played: list[set[str]] = [set() for _ in range(game.seats)]
    times: list[list[float]] = [[] for _ in range(game.seats)]
    choices: list[list[float]] = [[] for _ in range(game.seats)]

    def note_hands() -> None:
        for seat in range(game.seats):
            held[seat].update(match.card(c).name for c in match.hands[seat] if match.card(c).kind != "beggar")

    note_hands()
    while not match.is_over():
        seat, action = _decide(game, bots, match, times, choices)
        for event in match.apply(seat, action):
            if event["type"] in ("cardPlayed", "actionPlayed"):  # into the city, or an action card's effect
                played[int(event["seat"])].add(match.card(str(event["card"])).name)
            elif event["type"] == "activated":
                tallies[match.card(str(event["card"])).name].runs += 1
        note_hands()
    result = match.result()
    assert result is not None
    share = {w: 1 / len(result.winners) for w in result.winners}
    for seat in range(game.seats):
        for name in held[seat] | played[seat]:
            tally = tallies[name]
            tally.held += 1
            if name in played[seat]:
                tally.played += 1
                tally.won_played += share.get(seat, 0.0)
            else:
                tally.won_unplayed += share.get(seat, 0.0)


def catalogue() -> dict[str, Tally]:
    """An empty tally for every city card of the box, by name."""
    out: dict[str, Tally] = {}
    for card in shipped_catalogue().cards.values():
        if card.kind != "beggar":
            out.setdefault(card.name, Tally(card.kind, card.cost, card.prestige))
    return out


def report(tallies: dict[str, Tally], games: int, min_held: int) -> str:
    """The table by play rate, then the never and always played cards."""
    lines = [f"{games} games; per card (copies together), over seat-games: held, played, play rate, activations, "
             "win share when played / when held and not played",
             f"{'card':<28} {'kind':<8} {'cost':>4} {'pr':>3} {'held':>5} {'played':>6} {'rate':>5} {'runs':>5} "
             f"{'won|played':>10} {'won|not':>8}"]
    ordered = sorted(tallies.items(), key=lambda item: (-item[1].rate, -item[1].held, item[0]))
    for name, t in ordered:
        unplayed = t.held - t.played
        won_played = f"{t.won_played / t.played:.2f}" if t.played else "-"
        won_not = f"{t.won_unplayed / unplayed:.2f}" if unplayed else "-"
        lines.append(f"{name[:28]:<28} {t.kind[:8]:<8} {t.cost:>4} {t.prestige:>3} {t.held:>5} {t.played:>6} "
                     f"{t.rate:>5.2f} {t.runs:>5} {won_played:>10} {won_not:>8}")
    never = [n for n, t in ordered if t.held >= min_held and t.played == 0]
    always = [n for n, t in ordered if t.held >= min_held and t.played == t.held]
    unseen = [n for n, t in ordered if t.held == 0]
    lines.append(f"never played though held in >= {min_held} seat-games: {', '.join(never) or 'none'}")
    lines.append(f"played every time held (>= {min_held} seat-games): {', '.join(always) or 'none'}")
    if unseen:
        lines.append(f"never held: {', '.join(unseen)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Play the games and print the report."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--lineup", default="greedy,greedy")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--budget", type=float, default=0.0, help="seconds a search decision (0: --iterations)")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--min-held", type=int, default=20)
    args = parser.parse_args(argv)
    lineup = tuple(args.lineup.split(","))
    if len(lineup) != args.seats:
        parser.error("--lineup needs one level per seat")
    tallies = catalogue()
    for g in range(args.games):
        rotated = lineup[g % args.seats:] + lineup[:g % args.seats]
        play_one(Game(args.seats, args.seed + g, rotated, args.budget or None, args.iterations or None, "london"),
                 tallies)
    print(report(tallies, args.games, args.min_held))
    print("command  python -m bench.london_cards " + " ".join(argv if argv is not None else sys.argv[1:]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

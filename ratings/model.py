"""The rating model: OpenSkill's Plackett-Luce per player and title, the places a finished match gives its seats,
the displayed number, and when a rating stops being provisional. Pure functions: no storage here.

Places: the title's winners share the first place; the other seats follow by their final total, highest first
(equal totals share a place); seats that resigned come after every seat that did not (ruling P18), by their total
too. A title that ranks without scores leaves every seat that did not win (and did not resign) sharing the next
place.

The displayed rating puts mu on a familiar Elo-like scale: DISPLAY_BASE + ELO_PER_MU * (mu - MU). A newcomer shows
1500, and between two settled players a gap of 200 points means the higher one finishes ahead about 3 times in 4
(Plackett-Luce's pairwise chance is logistic in the mu gap over sqrt(2) * beta, Elo's in the gap over 400 / ln 10).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU = 25.0  # a newcomer's mu (openskill's default)
SIGMA = MU / 3  # a newcomer's uncertainty
BETA = MU / 6  # the performance spread of one match
DISPLAY_BASE = 1500  # a newcomer's displayed rating
ELO_PER_MU = 400 / (math.log(10) * math.sqrt(2) * BETA)  # about 29.5 displayed points per point of mu
PROVISIONAL_GAMES = 10  # a rating is provisional until this many rated matches
BOT_PREFIX = "bot:"  # a bot level's rating key: bot:<level> (player ids never contain a colon)
DELETED_PREFIX = "deleted:"  # the key of a deleted player's seat in a match rated after the deletion: never stored

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)


@dataclass(frozen=True)
class Skill:
    """A rating as the model keeps it: mu (the estimate) and sigma (its uncertainty)."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def display(self) -> int:
        """The displayed rating: mu on the Elo-like scale (a newcomer shows DISPLAY_BASE)."""
        return display(self.mu)


def display(mu: float) -> int:
    """The displayed rating of a mu."""
    return round(DISPLAY_BASE + ELO_PER_MU * (mu - MU))


def provisional(games: int) -> bool:
    """Whether a rating of this many rated matches is still provisional."""
    return games < PROVISIONAL_GAMES


def bot_key(level: str) -> str:
    """The rating key of a bot level (one rating per title and level)."""
    return f"{BOT_PREFIX}{level}"


def deleted_key(seat: int) -> str:
    """The rating key of a seat whose player deleted their account before the match was rated: rated as a
    newcomer, and never stored (ratings/ledger.py), so the others' ratings still move and nothing of the deleted
    player is kept."""
    return f"{DELETED_PREFIX}{seat}"


def is_deleted(key: str) -> bool:
    """Whether a rating key is a deleted player's seat's (deleted_key)."""
    return key.startswith(DELETED_PREFIX)


def bot_level(key: str) -> str | None:
    """The bot level of a rating key (None: a player's id)."""
    return key[len(BOT_PREFIX):] if key.startswith(BOT_PREFIX) else None


@dataclass(frozen=True)
class Standing:
    """A seat's final total, whether it won and whether it resigned (what its place is made of)."""

    seat: int
    total: int | None
    won: bool
    resigned: bool = False


def places(standings: Sequence[Standing]) -> dict[int, int]:
    """Every seat's place (1 = first; equal places are ties): winners first, then by total, resigned seats last."""
    def key(s: Standing) -> tuple[int, int, float]:
        return (0 if s.won and not s.resigned else 1, 1 if s.resigned else 0,
                -(s.total if s.total is not None else -math.inf) if not s.won else 0.0)

    ordered = sorted(standings, key=key)
    out: dict[int, int] = {}
    previous: tuple[int, int, float] | None = None
    place = 0
    for position, standing in enumerate(ordered, start=1):
        current = key(standing)
        if current != previous:
            place, previous = position, current
        out[standing.seat] = place
    return out


def rate(before: dict[str, Skill], seats: dict[int, str], placed: dict[int, int]) -> dict[str, Skill]:
    """The ratings after a match: every seat a one-seat team of its key's rating, ranked by place (ties shared);
    a key with several seats (one bot level twice) moves by the mean of its seats' moves."""
    order = sorted(seats)
    teams = [[_MODEL.create_rating([before[seats[s]].mu, before[seats[s]].sigma])] for s in order]
    rated = _MODEL.rate(teams, ranks=[float(placed[s]) for s in order])
    moves: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for seat, team in zip(order, rated, strict=True):
        moves[seats[seat]].append((team[0].mu - before[seats[seat]].mu, team[0].sigma))
    return {key: Skill(before[key].mu + sum(m for m, _ in got) / len(got), sum(s for _, s in got) / len(got))
            for key, got in moves.items()}

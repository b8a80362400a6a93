"""The non-player turn's trained band movement (2-player expansion, R20): which two bands, and where."""

from __future__ import annotations

from firebreak.domain.greatfire.state import State

UNREACHABLE = 1 << 30


def distances(s: State, objective: int) -> list[int]:
    """Steps from the objective over districts a band may enter, never through grass or Pudding Lane (R20).

    A band standing on grass is one step further than its nearest non-grass neighbour (ruling P8);
    a district no such path reaches is UNREACHABLE.
    """
    geo = s.geo
    dist = geo.steps_over_burnable(objective, UNREACHABLE)
    for d in range(len(geo.ids)):
        if dist[d] == UNREACHABLE and geo.board.districts[d].kind == "grass":
            dist[d] = min((dist[e] + 1 for e in geo.adjacent[d] if geo.burnable[e]), default=UNREACHABLE)
    return dist


def destinations(s: State, d: int, card: str) -> list[int]:
    """Where a free band in d may step in the card's directions (never Pudding Lane)."""
    if s.bands[d] <= s.cones[d]:
        return []
    return [e for e in s.geo.card_adjacent[card][d] if e != s.geo.origin]


def move_key(s: State, e: int) -> tuple[int, int]:
    """Priority of a step: (a) most uncontained fire cones, then (b) most houses."""
    return max(0, s.cones[e] - s.bands[e]), sum(s.houses[e])


def best_destinations(s: State, d: int, card: str) -> list[int]:
    """The steps of the band in d that rules a and b cannot separate (more than one: rule c decides)."""
    options = destinations(s, d, card)
    if not options:
        return []
    best = max(move_key(s, e) for e in options)
    return [e for e in options if move_key(s, e) == best]


def movable(s: State, card: str) -> list[int]:
    """One entry per band able to move in the card's direction (a district repeats per free band)."""
    return [d for d in range(len(s.bands)) for _ in range(s.bands[d] - s.cones[d]) if destinations(s, d, card)]


def selection(s: State, card: str, objective: int) -> tuple[list[int], list[int], int]:
    """Rule 1: the two bands closest to the objective.

    Returns (chosen, tied, wanted): bands surely chosen, the tied bands at the boundary still to pick from
    by the best move they can make (three or more at one distance), and how many of those are wanted.
    """
    bands = movable(s, card)
    if len(bands) <= 2:
        return bands, [], 0
    dist = distances(s, objective)
    how_far = dist.__getitem__
    bands.sort(key=how_far)
    cutoff = how_far(bands[1])
    chosen = [d for d in bands if how_far(d) < cutoff]
    tied = [d for d in bands if how_far(d) == cutoff]
    wanted = 2 - len(chosen)
    if len(tied) == wanted:
        return chosen + tied, [], 0
    best_move = {d: max(move_key(s, e) for e in destinations(s, d, card)) for d in tied}
    ranked = sorted(set(best_move.values()), reverse=True)
    for key in ranked:
        level = [d for d in tied if best_move[d] == key]
        if len(level) <= wanted:
            chosen += level
            wanted -= len(level)
            if wanted == 0:
                return chosen, [], 0
            continue
        return chosen, level, wanted
    return chosen, [], 0

"""The greedy bot for Great Fire: one cheap step of look-ahead, decided from the seat's own view only.

It rebuilds a full state from the view (hidden.py) in which every face-down or rivals' token is of an
unknown kind, and rates outcomes with rating.rating (the R17 score, the threat to own houses and objectives,
put-outs in reach, against the rivals). In the fire phase it plays the whole fire move whose outcome rates
best (card, source and target together), and its double-move token when a second move gains more than
the token is worth; in the actions phase it follows the best plan of plans.py (walk to a contained fire and
put it out, bring bands to contain a fire, guard a threatened district, demolish a fire break) and ends the
phase when no plan improves on standing still.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from firebreak.domain.bots import listed
from firebreak.domain.contract import Action, Match
from firebreak.domain.greatfire.bots.lookahead import FireMove, apply, fire_moves, play_fire_move
from firebreak.domain.greatfire.bots.opening import setup_choice
from firebreak.domain.greatfire.bots.plans import END, best_plans
from firebreak.domain.greatfire.bots.rating import UNKNOWN_TOKEN, rating
from firebreak.domain.greatfire.match import Determinizer, GreatFireMatch
from firebreak.domain.greatfire.rules import fire, npc
from firebreak.domain.greatfire.state import Phase
from firebreak.domain.rng import Rng

DOUBLE_MARGIN = 0.25   # VP by which a second fire move must beat ending the phase, beyond the token's own value
NPC_STEPS = 50         # cap on the automated steps followed after breaking a 2-player tie
TIE = 1e-9


def greedy(match: Match, seat: int, rng: random.Random) -> Action:
    """The greedy level: the best-rated legal action, computed from match.view(seat) alone."""
    return greedy_from_view(match.view(seat), seat, rng)


def greedy_from_view(view: dict[str, Any], seat: int, rng: random.Random) -> Action:
    """Choose the seat's action from its view alone (same view and rng state: same action)."""
    if view["phase"] == Phase.REDEAL.value:
        return {"type": "redeal"}  # R15: five identical cards; any fresh hand is better
    s = working_state(view, seat, rng)
    legal = s.legal_actions(seat)
    return listed(decide(s, seat, legal, rng), legal, "greedy")


def decide(s: GreatFireMatch, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Greedy's choice among the seat's legal actions in a full state (a working_state, or a search's world)."""
    if len(legal) == 1:
        return legal[0]
    if s.phase in (Phase.PLACE_BANDS, Phase.PLACE_PAWNS):
        action = setup_choice(s, seat)
    elif s.phase is Phase.FIRE:
        action = _fire(s, seat, rng)
    elif s.phase is Phase.ACTIONS:
        steps = best_plans(s, seat)[0].steps
        action = steps[0] if steps else END
    elif s.phase is Phase.DISCARD:
        hand = Counter(s.hands[seat])
        action = {"type": "discard", "card": max(sorted(hand), key=hand.__getitem__)}  # keep the hand varied
    else:  # placing cones (R8, R12) or breaking a 2-player tie (R21)
        action = _best(s, seat, legal, rng)
    return action


def working_state(view: dict[str, Any], seat: int, rng: random.Random) -> GreatFireMatch:
    """A full state consistent with the view, every token the seat has not seen marked UNKNOWN_TOKEN."""
    s = Determinizer(view, seat).sample(Rng(rng.getrandbits(64)))
    s.board_tokens = [None if t is None else UNKNOWN_TOKEN for t in s.board_tokens]
    s.tokens = [list(t) if other == seat else [UNKNOWN_TOKEN] * len(t) for other, t in enumerate(s.tokens)]
    return s


def _pick(scored: list[tuple[float, Any]], rng: random.Random) -> Any:
    """The best-scored item; rng breaks exact ties."""
    top = max(value for value, _ in scored)
    return rng.choice([item for value, item in scored if value >= top - TIE])


def _rated(s: GreatFireMatch, seat: int, change: Callable[[GreatFireMatch], None]) -> float:
    trial = s.clone()
    change(trial)
    return rating(trial, seat)


def _best(s: GreatFireMatch, seat: int, actions: list[Action], rng: random.Random) -> Action:
    """The action whose outcome rates best; after a tie-break, the non-player turn's steps run on first."""
    def outcome(action: Action) -> Callable[[GreatFireMatch], None]:
        def change(trial: GreatFireMatch) -> None:
            apply(trial, seat, action)
            for _ in range(NPC_STEPS):
                if trial.phase is not Phase.NON_PLAYER:
                    break
                npc.step(trial, [])
        return change

    action: Action = _pick([(_rated(s, seat, outcome(a)), a) for a in actions], rng)
    return action


def best_move(s: GreatFireMatch, seat: int, rng: random.Random) -> tuple[float, FireMove] | None:
    """The whole fire move (with the card played, or any card in hand) whose outcome rates best."""
    moves = fire_moves(s, seat, s.card)
    if not moves:
        return None
    def outcome(move: FireMove) -> Callable[[GreatFireMatch], None]:
        return lambda trial: play_fire_move(trial, seat, move)

    scored = [(_rated(s, seat, outcome(m)), m) for m in moves]
    move: FireMove = _pick(scored, rng)
    return max(value for value, _ in scored), move


def _fire(s: GreatFireMatch, seat: int, rng: random.Random) -> Action:
    ids = s.geo.ids
    if s.source is not None:
        assert s.card is not None
        spreads: list[Action] = [{"type": "spreadFire", "district": ids[t]} for t in fire.targets(s, s.card, s.source)]
        return _best(s, seat, spreads, rng)
    if s.card is not None and s.moves_left == 0:
        # R18b pause: R7, play the token when a second move with the card gains more than the token is worth.
        if "doubleMove" not in s.tokens[seat]:
            return {"type": "endFire"}
        trial = s.clone()
        apply(trial, seat, {"type": "playDoubleMove"})
        second = best_move(trial, seat, rng)
        if second is not None and second[0] > rating(s, seat) + DOUBLE_MARGIN:
            return {"type": "playDoubleMove"}
        return {"type": "endFire"}
    best = best_move(s, seat, rng)
    assert best is not None, "the fire phase always offers a move (R8 opens the discard phase instead)"
    move = best[1]
    if move.card is not None:
        return {"type": "playCard", "card": move.card}
    return {"type": "chooseSource", "district": ids[move.source]}

"""Bench-only levels that cheat, to measure what hidden information is worth to the search bot
(domain/greatfire/bots/search.py, with the same budget, root moves, priors and rollouts):

- `oracle` searches the true state instead of guesses drawn from its view: it knows every hand, the order of the
  fire deck and the stacks, every objective and token;
- `knows-cards`, `knows-hands`, `knows-objectives`, `knows-tokens` search guesses drawn from the view with one kind
  of hidden fact set to the truth (cards: every hand, the deck and the box; hands: every hand, the deck and the box
  still guessed; objectives: every seat's objectives and colours; tokens: held and face-down tokens);
- `knows-secrets` knows hands, objectives and tokens, and guesses only the order of the deck: what the best
  possible reading of the rivals' play could learn, so its win rate bounds what inferring hidden facts could gain.

What they win against three `greedy` bots, next to what `search` wins, bounds what a search of this kind could
gain by guessing better: python -m bench.bots --lineup oracle,greedy,greedy,greedy --budget 0 --iterations 14.
None is ever a service level (they read the whole match).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from firebreak.domain.bots import Bot
from firebreak.domain.contract import Action, Budget, Match
from firebreak.domain.greatfire.bots.search import Worlds, choose
from firebreak.domain.greatfire.match import Determinizer, GreatFireMatch
from firebreak.domain.greatfire.state import Phase
from firebreak.domain.rng import Rng

FACTS = ("cards", "hands", "objectives", "tokens")
SECRETS = ("hands", "objectives", "tokens")  # all but the shuffled deck: what play could reveal


class Truth:
    """Every world is the true state (the search's Worlds)."""

    def __init__(self, match: GreatFireMatch) -> None:
        self.match = match

    def sample(self, rng: Rng) -> GreatFireMatch:
        """The true state, to play on."""
        return self.match.clone()


class Partial:
    """Worlds drawn from the seat's view, with the named kinds of hidden facts (FACTS) set to the truth."""

    def __init__(self, match: GreatFireMatch, seat: int, knows: tuple[str, ...]) -> None:
        self.match, self.seat, self.knows = match, seat, knows
        self.guess = Determinizer(match.view(seat), seat)

    def sample(self, rng: Rng) -> GreatFireMatch:
        """A guess at the state, true in the facts known."""
        s, true = self.guess.sample(rng), self.match
        if "cards" in self.knows:
            s.hands, s.deck, s.box = [list(h) for h in true.hands], list(true.deck), list(true.box)
        elif "hands" in self.knows:
            # The true hands; the deck's fire cards and the box drawn from the cards left unseen.
            cards = list(self.guess.unseen_cards)
            for card in (c for other, hand in enumerate(true.hands) if other != self.seat for c in hand):
                cards.remove(card)
            rng.shuffle(cards)
            s.hands = [list(h) for h in true.hands]
            s.deck = [cards.pop() if slot is None else slot for slot in self.guess.deck_slots]
            s.box = cards
        if "objectives" in self.knows:
            s.objectives, s.colours = [list(o) for o in true.objectives], [list(c) for c in true.colours]
        if "tokens" in self.knows:
            s.tokens, s.board_tokens = [list(t) for t in true.tokens], list(true.board_tokens)
        return s


def _level(budget: Budget, worlds: Callable[[GreatFireMatch, int], Worlds]) -> Bot:
    def bot(match: Match, seat: int, rng: random.Random) -> Action:
        assert isinstance(match, GreatFireMatch)
        if match.phase is Phase.REDEAL:
            return {"type": "redeal"}  # as the search bot (R15)
        return choose(worlds(match, seat), seat, rng, budget)

    return bot


def levels(budget: Budget) -> dict[str, Bot]:
    """The cheating levels by name, within the budget."""
    def knowing(*facts: str) -> Bot:
        return _level(budget, lambda match, seat: Partial(match, seat, facts))

    return {"oracle": _level(budget, lambda match, seat: Truth(match)),
            **{f"knows-{fact}": knowing(fact) for fact in FACTS}, "knows-secrets": knowing(*SECRETS)}

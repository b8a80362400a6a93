"""A player turn's decisions: fire phase stages (R1-R8), actions, the draw and intensify (R12); flow.py frames them."""

from __future__ import annotations

from firebreak.domain.contract import Action, Event
from firebreak.domain.greatfire.rules import fire, npc
from firebreak.domain.greatfire.rules.actions import action_phase_actions, begin_actions
from firebreak.domain.greatfire.rules.flow import begin_placing, continue_placing, end_turn, stack_revealed
from firebreak.domain.greatfire.rules.supply import take_cone
from firebreak.domain.greatfire.state import INTENSIFY_CONES, Phase, State

NO_MOVE_CONES = 3


def turn_actions(s: State) -> list[Action]:
    """The legal decisions of the current seat in its turn."""
    ids = s.geo.ids
    if s.phase is Phase.FIRE:
        if s.card is None:
            return [{"type": "playCard", "card": c} for c in fire.playable_cards(s, s.hands[s.turn])]
        if s.source is not None:
            return [{"type": "spreadFire", "district": ids[d]} for d in fire.targets(s, s.card, s.source)]
        if s.moves_left:
            return [{"type": "chooseSource", "district": ids[d]} for d in fire.sources(s, s.card)]
        # R18b: the pause after a move is everyone's; the token is offered only to its holder.
        double = [{"type": "playDoubleMove"}] if "doubleMove" in s.tokens[s.turn] else []
        return [*double, {"type": "endFire"}]
    if s.phase is Phase.DISCARD:
        return [{"type": "discard", "card": c} for c in sorted(set(s.hands[s.turn]))]
    if s.phase is Phase.PLACE_CONES:
        return [{"type": "placeCone", "district": ids[d]} for d in fire.placeable(s)]
    if s.phase is Phase.NON_PLAYER_CHOICE:
        return npc.choice_actions(s)
    return action_phase_actions(s)


def play_card(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """The fire card leaves the hand for the discard pile; it sets the directions of this turn's moves (R3)."""
    s.card = action["card"]
    s.hands[seat].remove(action["card"])
    s.discard.append(action["card"])
    events.append({"type": "cardPlayed", "seat": seat, "card": action["card"]})


def choose_source(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """The burning district the next fire move spreads from."""
    s.source = s.geo.index[action["district"]]
    events.append({"type": "sourceChosen", "seat": seat, "district": action["district"]})


def spread_fire(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """The fire moves from the chosen source into the district (R2-R6); then another move, the pause or actions."""
    assert s.source is not None
    fire.spread(s, seat, s.source, s.geo.index[action["district"]], events)
    s.source = None
    s.moves_left -= 1
    _after_move(s, events)


def play_double_move(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """R7: one extra move with the same card, at most one token a turn; the token leaves the game."""
    s.tokens[seat].remove("doubleMove")
    s.double_played = True
    s.moves_left = 1
    events.append({"type": "tokenPlayed", "seat": seat, "token": "doubleMove"})


def end_fire(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """The pause after a move ends the fire phase: the actions phase begins."""
    begin_actions(s, events)


def discard(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """R8: with no fire move possible the card is discarded, and cones are placed instead."""
    s.hands[seat].remove(action["card"])
    s.discard.append(action["card"])
    events.append({"type": "cardDiscarded", "seat": seat, "card": action["card"]})
    begin_placing(s, NO_MOVE_CONES, "noMove", events)


def place_cone(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """One cone owed (R8, R12, a non-player intensify) goes on the district, taken as R10 says."""
    d = s.geo.index[action["district"]]
    if take_cone(s, events, may_return=not s.place_returned) == "returned":
        s.place_returned = True
    s.cones[d] += 1
    s.to_place -= 1
    events.append({"type": "conePlaced", "seat": seat, "district": s.geo.ids[d]})
    continue_placing(s, events)


def _after_move(s: State, events: list[Event]) -> None:
    """After a fire move: a granted extra move, the pause that may end the fire phase (R7, R18b), or actions."""
    assert s.card is not None
    has_move = fire.has_move(s, s.card)
    if s.moves_left and has_move:
        return
    s.moves_left = 0
    if not s.double_played and has_move:
        # R18b: after a move that leaves the card a legal second move, every player pauses here (endFire, or
        # playDoubleMove for a holder, R7), so the pause tells nobody which tokens the player holds. Offering
        # the token after the move covers R7's "any point of the fire phase": the moves are sequential and
        # use the same card, and a token gained by the first move is usable at once.
        return
    begin_actions(s, events)


def end_actions(s: State, events: list[Event]) -> None:
    """Draw back to five (R13: not in the final rounds); a revealed stack card intensifies the fire (R12)."""
    seat = s.turn
    events.append({"type": "actionsEnded", "seat": seat})
    if s.turns_left is not None or not s.deck:
        end_turn(s, events)
        return
    card = s.deck.pop()
    s.hands[seat].append(card)
    events.append({"type": "cardDrawn", "seat": seat, "deckSize": fire_cards_left(s)})
    events.append({"type": "cardSeen", "seat": seat, "card": card, "audience": [seat]})
    if s.deck and s.deck[-1].startswith("#") and stack_revealed(s, s.deck.pop()[1:], events, by_non_player=False):
        begin_placing(s, INTENSIFY_CONES, "intensify", events)
        return
    end_turn(s, events)


def fire_cards_left(s: State) -> int:
    """Fire cards still in the deck (stack cards not counted)."""
    return sum([not c.startswith("#") for c in s.deck])

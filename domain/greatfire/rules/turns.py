"""A player turn: fire phase stages (R1-R8), then actions, draw and intensify (R12), and the game's end (R13)."""

from __future__ import annotations

from domain.contract import Action, Event
from domain.greatfire import fire, npc
from domain.greatfire.actions import action_phase_actions, apply_action_phase, begin_actions
from domain.greatfire.state import ACTION_POINTS, INTENSIFY_CONES, Phase, State
from domain.greatfire.supply import cone_available, take_cone

NO_MOVE_CONES = 3


def start_turn(s: State, events: list[Event]) -> None:
    """Open the current seat's fire phase, or the no-move case (R8) when no card gives a move."""
    s.phase = Phase.FIRE
    s.card, s.source, s.moves_left, s.double_played = None, None, 1, False
    s.ap = ACTION_POINTS
    events.append({"type": "turnStarted", "seat": s.turn})
    if not fire.playable_cards(s, s.hands[s.turn]):
        events.append({"type": "handRevealed", "seat": s.turn, "hand": sorted(s.hands[s.turn])})
        s.phase = Phase.DISCARD


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


def apply_turn(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """Carry out a legal decision of the current seat's turn."""
    kind = action["type"]
    ids = s.geo.ids
    if kind == "playCard":
        s.card = action["card"]
        s.hands[seat].remove(action["card"])
        s.discard.append(action["card"])
        events.append({"type": "cardPlayed", "seat": seat, "card": action["card"]})
    elif kind == "chooseSource":
        s.source = s.geo.index[action["district"]]
        events.append({"type": "sourceChosen", "seat": seat, "district": action["district"]})
    elif kind == "spreadFire":
        assert s.source is not None
        fire.spread(s, seat, s.source, s.geo.index[action["district"]], events)
        s.source = None
        s.moves_left -= 1
        _after_move(s, events)
    elif kind == "playDoubleMove":
        # R7: one extra move with the same card, at most one token a turn; the token leaves the game.
        s.tokens[seat].remove("doubleMove")
        s.double_played = True
        s.moves_left = 1
        events.append({"type": "tokenPlayed", "seat": seat, "token": "doubleMove"})
    elif kind == "endFire":
        begin_actions(s, events)
    elif kind == "discard":
        s.hands[seat].remove(action["card"])
        s.discard.append(action["card"])
        events.append({"type": "cardDiscarded", "seat": seat, "card": action["card"]})
        begin_placing(s, NO_MOVE_CONES, "noMove", events)
    elif kind == "placeCone":
        d = s.geo.index[action["district"]]
        if take_cone(s, events, may_return=not s.place_returned) == "returned":
            s.place_returned = True
        s.cones[d] += 1
        s.to_place -= 1
        events.append({"type": "conePlaced", "seat": seat, "district": ids[d]})
        _continue_placing(s, events)
    elif kind == "breakTie":
        npc.apply_choice(s, action, events)
    elif apply_action_phase(s, seat, action, events):
        end_actions(s, events)


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


def begin_placing(s: State, count: int, reason: str, events: list[Event]) -> None:
    """Place count cones one decision at a time (R8, R12), skipping what cannot be placed."""
    s.phase = Phase.PLACE_CONES
    s.to_place = count
    s.place_reason = reason
    s.place_returned = False
    _continue_placing(s, events)


def _continue_placing(s: State, events: list[Event]) -> None:
    if s.to_place and fire.placeable(s) and cone_available(s, may_return=not s.place_returned):
        return
    if s.to_place:
        events.append({"type": "conesLost", "seat": s.turn, "cones": s.to_place})
        s.to_place = 0
    if s.place_reason == "noMove":
        begin_actions(s, events)
    elif s.place_reason == "nonPlayer":
        next_player(s, events)
    else:
        _end_turn(s, events)


def end_actions(s: State, events: list[Event]) -> None:
    """Draw back to five (R13: not in the final rounds); a revealed stack card intensifies the fire (R12)."""
    seat = s.turn
    events.append({"type": "actionsEnded", "seat": seat})
    if s.turns_left is not None or not s.deck:
        _end_turn(s, events)
        return
    card = s.deck.pop()
    s.hands[seat].append(card)
    events.append({"type": "cardDrawn", "seat": seat, "deckSize": fire_cards_left(s)})
    events.append({"type": "cardSeen", "seat": seat, "card": card, "audience": [seat]})
    if s.deck and s.deck[-1].startswith("#") and stack_revealed(s, s.deck.pop()[1:], events, by_non_player=False):
        begin_placing(s, INTENSIFY_CONES, "intensify", events)
        return
    _end_turn(s, events)


def stack_revealed(s: State, stack: str, events: list[Event], *, by_non_player: bool) -> bool:
    """A fire stack card shows: return whether it intensifies (R12); the last one starts the end (R13, R22)."""
    events.append({"type": "stackRevealed", "seat": s.turn, "stack": stack, "byNonPlayer": by_non_player})
    if s.turns_left is not None:
        return False  # P9: in the 2-player end (after B) card A only marks the bottom of the deck
    if s.seats == 2 and stack == "B":
        # R22: no more draws; one more turn each (counted from after the current player turn).
        s.turns_left = 1 if by_non_player else 2
        events.append({"type": "finalRounds", "turns": 2})
    elif s.seats > 2 and not s.deck:
        # R13: the last card is drawn; everyone, starting with the next seat, plays once (twice) more.
        rounds = 2 if s.options.get("moreDestruction") else 1
        s.turns_left = rounds * s.seats
        events.append({"type": "finalRounds", "turns": s.turns_left})
    return True


def _end_turn(s: State, events: list[Event]) -> None:
    events.append({"type": "turnEnded", "seat": s.turn})
    if s.turns_left is not None:
        if s.turns_left == 0:
            s.phase = Phase.OVER
            events.append({"type": "gameOver"})
            return
        s.turns_left -= 1
    if s.seats == 2:
        npc.begin(s, events)  # R20: a non-player turn after every player turn
    else:
        next_player(s, events)


def next_player(s: State, events: list[Event]) -> None:
    """Pass the turn to the seat on the left."""
    s.turn = (s.turn + 1) % s.seats
    start_turn(s, events)


def fire_cards_left(s: State) -> int:
    """Fire cards still in the deck (stack cards not counted)."""
    return sum([not c.startswith("#") for c in s.deck])

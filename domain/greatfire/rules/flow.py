"""The turn's frame: a seat's turn opens, cones are placed, the turn ends and passes on (R8, R12, R13, R20, R22)."""

from __future__ import annotations

from firebreak.domain.contract import Event
from firebreak.domain.greatfire.rules import fire
from firebreak.domain.greatfire.rules.actions import begin_actions
from firebreak.domain.greatfire.rules.supply import cone_available
from firebreak.domain.greatfire.state import ACTION_POINTS, INTENSIFY_CONES, Phase, State


def start_turn(s: State, events: list[Event]) -> None:
    """Open the current seat's fire phase, or the no-move case (R8) when no card gives a move."""
    s.phase = Phase.FIRE
    s.card, s.source, s.moves_left, s.double_played = None, None, 1, False
    s.ap = ACTION_POINTS
    events.append({"type": "turnStarted", "seat": s.turn})
    if not fire.playable_cards(s, s.hands[s.turn]):
        events.append({"type": "handRevealed", "seat": s.turn, "hand": sorted(s.hands[s.turn])})
        s.phase = Phase.DISCARD


def begin_placing(s: State, count: int, reason: str, events: list[Event]) -> None:
    """Place count cones one decision at a time (R8, R12), skipping what cannot be placed."""
    s.phase = Phase.PLACE_CONES
    s.to_place = count
    s.place_reason = reason
    s.place_returned = False
    continue_placing(s, events)


def continue_placing(s: State, events: list[Event]) -> None:
    """Ask for the next cone owed, or (none owed, or none can be placed) go on to what the placing was for."""
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
        end_turn(s, events)


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


def end_turn(s: State, events: list[Event]) -> None:
    """End the current seat's turn: the game ends after the final rounds (R13), else the turn passes on."""
    events.append({"type": "turnEnded", "seat": s.turn})
    if s.turns_left is not None:
        if s.turns_left == 0:
            s.phase = Phase.OVER
            events.append({"type": "gameOver"})
            return
        s.turns_left -= 1
    if s.seats == 2:
        begin_non_player(s, events)  # R20: a non-player turn after every player turn
    else:
        next_player(s, events)


def next_player(s: State, events: list[Event]) -> None:
    """Pass the turn to the seat on the left."""
    s.turn = (s.turn + 1) % s.seats
    start_turn(s, events)


def begin_non_player(s: State, events: list[Event]) -> None:
    """Open the non-player turn that follows the current seat's turn; that seat conducts it (R20)."""
    s.phase = Phase.NON_PLAYER
    s.npc_stage = "fire"
    s.npc_card = s.npc_objective = None
    s.npc_priority = s.npc_target = None
    s.npc_bands = s.npc_choice = None
    s.npc_intensify = False
    events.append({"type": "nonPlayerTurnStarted", "conductor": s.turn})


def end_non_player(s: State, events: list[Event]) -> None:
    """Close the non-player turn: its conductor intensifies when a stack card showed (R20), else the turn passes."""
    s.npc_stage = None
    s.npc_bands = None
    events.append({"type": "nonPlayerTurnEnded", "conductor": s.turn})
    if s.npc_intensify:
        s.npc_intensify = False
        begin_placing(s, INTENSIFY_CONES, "nonPlayer", events)  # R20: the conducting player intensifies
    else:
        next_player(s, events)

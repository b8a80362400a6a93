"""The 2-player non-player turn's automated steps (R20-R22); true ties go to the conducting seat (R21).

flow.py opens the turn (after every player turn) and closes it (the intensify owed, then the next seat).
"""

from __future__ import annotations

from typing import Any, TypeVar

from firebreak.domain.contract import Action, Event
from firebreak.domain.greatfire.rules import npc_bands, npc_fire
from firebreak.domain.greatfire.rules.fire import spread
from firebreak.domain.greatfire.rules.flow import end_non_player, stack_revealed
from firebreak.domain.greatfire.state import Phase, State

Card = TypeVar("Card", int, str)


def step(s: State, events: list[Event]) -> None:
    """Run the next automated step: the fire expansion, or the band movement and the end of the turn."""
    if s.npc_stage == "fire":
        _fire(s, events)
    else:
        _bands(s, events)


def _decide(s: State, kind: str, options: list[int], events: list[Event], **extra: Any) -> int | None:
    """R21: a true tie is broken by the seed ("random") or becomes the conducting seat's decision."""
    if s.options.get("npcTies") == "random":
        pick = s.rng.choice(options)
        events.append({"type": "tieBroken", "kind": kind, "district": s.geo.ids[pick], "by": "seed"})
        return pick
    s.npc_choice = {"kind": kind, "options": [s.geo.ids[d] for d in options], **extra}
    s.phase = Phase.NON_PLAYER_CHOICE
    events.append({"type": "tieToBreak", "seat": s.turn, **s.npc_choice})
    return None


def _flip_fire_cards(s: State, events: list[Event]) -> None:
    card = s.deck.pop()
    s.discard.append(card)
    s.npc_card = card
    events.append({"type": "fireCardFlipped", "card": card})
    if s.deck and s.deck[-1].startswith("#"):
        s.npc_intensify = stack_revealed(s, s.deck.pop()[1:], events, by_non_player=True)
    s.npc_priority = _flip(s, s.priority_deck, s.priority_discard, "priorityDeckShuffled", events)
    events.append({"type": "priorityCardFlipped", "colours": list(s.comps.colour_priority[s.npc_priority])})


def _fire(s: State, events: list[Event]) -> None:
    if s.npc_card is None:
        _flip_fire_cards(s, events)
    card = s.npc_card
    assert card is not None
    if s.npc_target is None:
        tied = npc_fire.tied_targets(s, card)
        if not tied:
            events.append({"type": "noFireMove"})  # the expansion skips this phase
            s.npc_stage = "bands"
            return
        target = tied[0] if len(tied) == 1 else _decide(s, "target", tied, events)
        if target is None:
            return
        s.npc_target = target
    sources = npc_fire.tied_sources(s, card, s.npc_target)
    source = sources[0] if len(sources) == 1 else _decide(s, "source", sources, events)
    if source is not None:
        _spread(s, source, events)


def _spread(s: State, source: int, events: list[Event]) -> None:
    assert s.npc_target is not None
    spread(s, None, source, s.npc_target, events)  # R20: a token there is removed unseen
    s.npc_target = None
    s.npc_stage = "bands"


def _bands(s: State, events: list[Event]) -> None:
    card = s.npc_card
    assert card is not None
    if s.npc_objective is None:
        s.npc_objective = _flip(s, s.movement_deck, s.movement_discard, "movementDeckShuffled", events)
        events.append({"type": "movementCardFlipped", "objective": s.npc_objective})
    if s.npc_bands is None:
        chosen, tied, wanted = npc_bands.selection(s, card, s.geo.index[s.npc_objective])
        s.npc_bands = [[d, 2 if len(chosen) == 1 and not tied else 1] for d in chosen]
        if not chosen and not tied:
            events.append({"type": "noBandMove"})
        if tied and not _pick_bands(s, tied, wanted, events):
            return
    while s.npc_bands:
        d = s.npc_bands[0][0]
        options = npc_bands.best_destinations(s, d, card)
        if not options:
            s.npc_bands.pop(0)
            continue
        to = options[0] if len(options) == 1 else _decide(s, "bandMove", options, events, band=s.geo.ids[d])
        if to is None:
            return
        _move_band(s, to, events)
    end_non_player(s, events)


def _pick_bands(s: State, tied: list[int], wanted: int, events: list[Event]) -> bool:
    """Three or more bands tied for the last place(s): pick wanted of them; False while a seat must choose."""
    assert s.npc_bands is not None
    while wanted:
        if len(set(tied)) == 1:
            pick: int | None = tied[0]
        else:
            pick = _decide(s, "band", sorted(set(tied)), events, tied=[s.geo.ids[d] for d in tied], wanted=wanted)
        if pick is None:
            return False
        s.npc_bands.append([pick, 1])
        tied.remove(pick)
        wanted -= 1
    return True


def _move_band(s: State, to: int, events: list[Event]) -> None:
    assert s.npc_bands
    d, steps = s.npc_bands[0]
    pinned = s.cones[to] > s.bands[to]
    s.bands[d] -= 1
    s.bands[to] += 1
    events.append({"type": "bandMoved", "seat": None, "from": s.geo.ids[d], "to": s.geo.ids[to], "pinned": pinned})
    if steps > 1:
        s.npc_bands[0] = [to, steps - 1]  # a single movable band goes two spaces (if it still can)
    else:
        s.npc_bands.pop(0)


def choice_actions(s: State) -> list[Action]:
    """The conducting seat's options for the pending tie."""
    assert s.npc_choice is not None
    return [{"type": "breakTie", "district": d} for d in s.npc_choice["options"]]


def apply_choice(s: State, action: Action, events: list[Event]) -> None:
    """Carry out the conducting seat's tie-break; the automated steps then go on."""
    choice = s.npc_choice
    assert choice is not None
    d = s.geo.index[action["district"]]
    s.npc_choice = None
    s.phase = Phase.NON_PLAYER
    events.append({"type": "tieBroken", "kind": choice["kind"], "district": action["district"], "by": s.turn})
    if choice["kind"] == "target":
        s.npc_target = d
    elif choice["kind"] == "source":
        _spread(s, d, events)
    elif choice["kind"] == "band":
        tied = [s.geo.index[t] for t in choice["tied"]]
        assert s.npc_bands is not None
        s.npc_bands.append([d, 1])
        tied.remove(d)
        _pick_bands(s, tied, choice["wanted"] - 1, events)
    else:
        _move_band(s, d, events)


def _flip(s: State, deck: list[Card], discard: list[Card], shuffled: str, events: list[Event]) -> Card:
    """Flip the top card of a non-player deck onto its discard pile; an empty deck is first the shuffled pile."""
    if not deck:
        deck.extend(discard)
        discard.clear()
        s.rng.shuffle(deck)
        events.append({"type": shuffled})
    card = deck.pop()
    discard.append(card)
    return card

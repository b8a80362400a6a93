"""What a seat or a spectator may see (R18). The only way hidden facts leave the engine."""

from __future__ import annotations

from typing import Any

from firebreak.domain.greatfire.board import District
from firebreak.domain.greatfire.components import CARDS
from firebreak.domain.greatfire.rules.scoring import result
from firebreak.domain.greatfire.rules.turns import fire_cards_left
from firebreak.domain.greatfire.state import HOUSES_PER_COLOUR, Phase, State


def view(s: State, seat: int | None) -> dict[str, Any]:
    """Return the view of a seat (None: spectator); everything is revealed once the match is over."""
    geo, colours = s.geo, s.comps.colours
    over = s.phase is Phase.OVER
    pawns_at: dict[int, list[dict[str, Any]]] = {}
    for owner, places in enumerate(s.pawns):
        for pawn, d in enumerate(places):
            if d >= 0:
                pawns_at.setdefault(d, []).append(
                    {"seat": owner, "pawn": pawn, "colour": colours[s.pawn_colours[owner][pawn]]})
    # one pass over the districts' parallel lists (the hot part of every read: 72 districts a view)
    districts = {}
    named = _named_houses(colours)
    for d, (district_id, houses, fire, bands, demolished, token) in enumerate(
            zip(geo.ids, s.houses, s.cones, s.bands, s.demolished, s.board_tokens, strict=True)):
        key = tuple(houses)
        found = named.get(key)
        if found is None:
            if len(named) >= NAMED_KEPT:
                named.clear()
            found = named[key] = {colours[c]: n for c, n in enumerate(houses) if n}
        districts[district_id] = {
            "houses": found.copy(),
            "fire": fire,
            "bands": bands,
            "pinnedBands": fire if fire < bands else bands,
            "burning": fire > bands,
            "demolished": demolished,
            "token": token is not None,
            "pawns": pawns_at.get(d) or [],
        }
    hidden = bool(s.options.get("hiddenColours")) and not over
    standing = [sum(column) for column in zip(*s.houses, strict=True)]  # [colour] -> houses on the map
    players = []
    for owner in range(s.seats):
        lost = sum(HOUSES_PER_COLOUR - standing[c] for c in s.colours[owner])
        row: dict[str, Any] = {
            "seat": owner,
            "colours": None if hidden else [colours[c] for c in s.colours[owner]],
            "pawnColours": [colours[c] for c in s.pawn_colours[owner]],
            "handSize": len(s.hands[owner]),
            "putOut": s.put_out[owner],
            "housesLost": None if hidden else lost,
            "tokens": len(s.tokens[owner]),
            "hero": s.hero == owner,
        }
        if over:
            revealed = _secrets(s, owner)
            revealed["tokenKinds"] = revealed.pop("tokens")  # "tokens" stays a count at every phase
            row.update(revealed)
        players.append(row)
    out: dict[str, Any] = {
        "title": "greatfire",
        "seats": s.seats,
        "version": s.version,
        "options": dict(s.options),
        "phase": s.phase.value,
        "toAct": [] if over or s.phase is Phase.NON_PLAYER else [s.turn],
        "turn": None if over else s.turn,
        "startSeat": s.start,
        "districts": districts,
        "supply": s.supply,
        "deckSize": fire_cards_left(s),
        "stacksLeft": sum(1 for c in s.deck if c.startswith("#")),
        "untilIntensify": _until_intensify(s),
        "discardPile": len(s.discard),
        "discardCards": {card: s.discard.count(card) for card in CARDS},  # played or flipped face up
        "turnsLeft": s.turns_left,
        "scoreTrack": {colours[c]: HOUSES_PER_COLOUR - standing[c] for c in range(len(colours))},
        "hero": s.hero,
        "players": players,
        "stage": _stage(s),
    }
    if s.seats == 2:
        out["nonPlayer"] = _non_player(s)
    if seat is not None and not over:
        out["you"] = {"seat": seat, **_secrets(s, seat)}
    if over:
        out["result"] = result(s)
    return out


NAMED_KEPT = 4096  # rows of houses whose named form is kept (a game deals a few dozen distinct ones)
_NAMED: dict[tuple[str, ...], dict[tuple[int, ...], dict[str, int]]] = {}


def _named_houses(colours: tuple[str, ...]) -> dict[tuple[int, ...], dict[str, int]]:
    """A row of houses by colour index -> its named form ({colour: houses}, the empty colours left out), kept per
    colour list; a view hands out copies."""
    named = _NAMED.get(colours)
    if named is None:
        named = _NAMED[colours] = {}
    return named


def _secrets(s: State, seat: int) -> dict[str, Any]:
    geo, colours = s.geo, s.comps.colours
    return {
        "colours": [colours[c] for c in s.colours[seat]],
        "hand": sorted(s.hands[seat]),
        "objectives": [_objective(geo.board.district(o)) for o in s.objectives[seat]],
        "tokens": sorted(s.tokens[seat]),
    }


def _objective(district: District) -> dict[str, Any]:
    assert district.objective is not None
    return {"district": district.id, "vp": district.objective.vp, "deck": district.objective.deck}


def _until_intensify(s: State) -> int | None:
    """Fire cards left to draw before the next stack card shows (public: the stack counts are printed)."""
    for k, card in enumerate(reversed(s.deck)):
        if card.startswith("#"):
            return k
    return None


def _non_player(s: State) -> dict[str, Any]:
    """The face-up cards and the pending tie of a 2-player non-player turn, and the decks' sizes.

    Also public: the cards flipped face up so far (the decks' discard piles) and where the automated steps
    stand (stage, the target once decided, the bands still to move, whether a flip uncovered a stack card).
    """
    ids = s.geo.ids
    return {
        "conductor": s.turn if s.phase in (Phase.NON_PLAYER, Phase.NON_PLAYER_CHOICE) else None,
        "fireCard": s.npc_card,
        "priorityCard": None if s.npc_priority is None else list(s.comps.colour_priority[s.npc_priority]),
        "movementCard": s.npc_objective,
        "tie": s.npc_choice,
        "priorityDeck": len(s.priority_deck),
        "movementDeck": len(s.movement_deck),
        "priorityDiscard": [list(s.comps.colour_priority[k]) for k in s.priority_discard],
        "movementDiscard": list(s.movement_discard),
        "stage": s.npc_stage,
        "target": None if s.npc_target is None else ids[s.npc_target],
        "bandsToMove": None if s.npc_bands is None else [[ids[d], steps] for d, steps in s.npc_bands],
        "intensify": s.npc_intensify,
    }


def _stage(s: State) -> dict[str, Any]:
    """Where the pending decision stands inside its phase."""
    ids = s.geo.ids
    if s.phase is Phase.FIRE:
        return {"card": s.card, "source": None if s.source is None else ids[s.source],
                "movesLeft": s.moves_left, "doubleMovePlayed": s.double_played}
    if s.phase is Phase.ACTIONS:
        return {"actionPoints": s.ap}
    if s.phase is Phase.PLACE_CONES:
        return {"conesToPlace": s.to_place, "reason": s.place_reason}
    return {}

"""What a seat or a spectator may see (R18). The only way hidden facts leave the engine."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import is_not, ne
from typing import Any

from firebreak.domain.contract import RawJSON
from firebreak.domain.greatfire.board import District
from firebreak.domain.greatfire.components import CARDS
from firebreak.domain.greatfire.rules.scoring import result
from firebreak.domain.greatfire.rules.turns import fire_cards_left
from firebreak.domain.greatfire.state import HOUSES_PER_COLOUR, Phase, State


def view(s: State, seat: int | None) -> dict[str, Any]:
    """Return the view of a seat (None: spectator); everything is revealed once the match is over."""
    return _view(s, seat, _districts(s), [sum(column) for column in zip(*s.houses, strict=True)])


def json_view(s: State, seat: int | None, raw: Callable[[str], Any] = RawJSON) -> dict[str, Any]:
    """The same view with each district as its JSON text, made a writer's raw JSON by raw (RawJSON, or the writer's
    own kind, as matches.packing's orjson.Fragment), kept by content between views: a step changes a few of the 72
    districts, and building and writing the others again was most of a view's cost. Written by the service's JSON
    writer, the same bytes as view(s, seat) (tests/greatfire/test_views.py)."""
    districts, standing = _district_texts(s, raw)
    return _view(s, seat, districts, standing)


def _pawns_at(s: State) -> dict[int, list[tuple[int, int, int]]]:
    """District -> the pawns in it: (seat, pawn, colour index), in seat and pawn order."""
    pawns_at: dict[int, list[tuple[int, int, int]]] = {}
    for owner, places in enumerate(s.pawns):
        for pawn, d in enumerate(places):
            if d >= 0:
                pawns_at.setdefault(d, []).append((owner, pawn, s.pawn_colours[owner][pawn]))
    return pawns_at


def _districts(s: State) -> dict[str, dict[str, Any]]:
    """Every district's public state (the hot part of every read: 72 districts a view, in one pass over the
    districts' parallel lists)."""
    colours = s.comps.colours
    pawns_at = _pawns_at(s)
    districts = {}
    named = _named_houses(colours)
    for d, (district_id, houses, fire, bands, demolished, token) in enumerate(
            zip(s.geo.ids, s.houses, s.cones, s.bands, s.demolished, s.board_tokens, strict=True)):
        key = tuple(houses)
        found = named.get(key)
        if found is None:
            if len(named) >= NAMED_KEPT:
                named.clear()
            found = named[key] = _by_colour(houses, colours)
        here = pawns_at.get(d) or ()
        districts[district_id] = _district(found.copy(), fire, bands, demolished, token is not None, here, colours)
    return districts


@dataclass(frozen=True)
class Shown:
    """What a state's districts showed at its last json_view, column by column, and their texts then (by district
    id, in the map's order): the next view of the same state (the pipeline applies each step to one kept state)
    writes again only the districts whose columns changed. Compared by value, never trusted: a state loaded, cloned
    or changed any way gets the same texts it would get without it."""

    ids: tuple[str, ...]
    colours: tuple[str, ...]
    raw: Callable[[str], Any]
    columns: tuple[tuple[Any, ...], ...]  # rows of houses, cones, bands, demolished, token lying
    pawns: tuple[tuple[int, ...], ...]
    pawn_colours: tuple[tuple[int, ...], ...]
    districts: dict[str, Any]  # never handed out: views get a copy
    standing: tuple[int, ...]  # [colour] -> houses on the map


def _district_texts(s: State, raw: Callable[[str], Any]) -> tuple[dict[str, Any], Sequence[int]]:
    """Every district's public state as its JSON text made raw, kept by what it shows (shared by every view and
    match: the text never changes; at most TEXTS_KEPT kept per colour list and kind of raw), written again only
    where the state changed since its last json_view (Shown); and the houses of each colour on the map."""
    ids, colours = s.geo.ids, s.comps.colours
    n = len(ids)
    columns = (tuple(map(tuple, s.houses)), tuple(s.cones), tuple(s.bands), tuple(s.demolished),
               tuple(map(is_not, s.board_tokens, repeat(None, n))))
    pawns, pawn_colours = tuple(map(tuple, s.pawns)), tuple(map(tuple, s.pawn_colours))
    shown = s.shown
    standing: tuple[int, ...] | None = None
    if isinstance(shown, Shown) and shown.ids is ids and shown.colours is colours and shown.raw is raw:
        districts = shown.districts.copy()
        changed: set[int] = set()
        for column, (now, then) in enumerate(zip(columns, shown.columns, strict=True)):
            if now != then:
                changed.update(compress(range(n), map(ne, now, then)))
            elif column == 0:  # the rows of houses as they were: so are the houses of each colour
                standing = shown.standing
        if pawns != shown.pawns or pawn_colours != shown.pawn_colours:
            changed.update(d for places in (*pawns, *shown.pawns) for d in places if d >= 0)  # where pawns were or are
        todo: Iterable[int] = changed
    else:
        districts, todo = {}, range(n)
    if todo:
        texts = _TEXTS.get((colours, raw))
        if texts is None:
            texts = _TEXTS[(colours, raw)] = {}
        pawns_at = _pawns_at(s)
        houses, cones, bands, demolished, tokens = columns
        for d in todo:
            here = pawns_at.get(d)
            key = (houses[d], cones[d], bands[d], demolished[d], tokens[d], tuple(here) if here else ())
            text = texts.get(key)
            if text is None:
                if len(texts) >= TEXTS_KEPT:
                    texts.clear()
                text = texts[key] = raw(_district_text(key, colours))
            districts[ids[d]] = text
    if standing is None:
        standing = tuple(map(sum, zip(*columns[0], strict=True)))
    s.shown = Shown(ids, colours, raw, columns, pawns, pawn_colours, districts, standing)
    return districts.copy(), standing


def _district(houses: dict[str, int], fire: int, bands: int, demolished: bool, token: bool,
              pawns: Iterable[tuple[int, int, int]], colours: tuple[str, ...]) -> dict[str, Any]:
    """One district as a view shows it (houses: already named by colour; pawns: (seat, pawn, colour index))."""
    return {
        "houses": houses,
        "fire": fire,
        "bands": bands,
        "pinnedBands": fire if fire < bands else bands,
        "burning": fire > bands,
        "demolished": demolished,
        "token": token,
        "pawns": [{"seat": o, "pawn": p, "colour": colours[c]} for o, p, c in pawns] if pawns else [],
    }


def _by_colour(houses: Sequence[int], colours: tuple[str, ...]) -> dict[str, int]:
    """A row of houses by colour index as {colour: houses}, the empty colours left out."""
    return {colours[c]: n for c, n in enumerate(houses) if n}


def _district_text(key: tuple[Any, ...], colours: tuple[str, ...]) -> str:
    """One district's JSON text, from its key in _TEXTS (compact, members in the view's order)."""
    houses, fire, bands, demolished, token, pawns = key
    entry = _district(_by_colour(houses, colours), fire, bands, demolished, token, pawns, colours)
    return json.dumps(entry, separators=(",", ":"), ensure_ascii=False)


def _view(s: State, seat: int | None, districts: Mapping[str, Any], standing: Sequence[int]) -> dict[str, Any]:
    """The view around its districts (as dicts or as their texts); standing: [colour] -> houses on the map."""
    colours = s.comps.colours
    over = s.phase is Phase.OVER
    hidden = bool(s.options.get("hiddenColours")) and not over
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
TEXTS_KEPT = 16384  # districts' JSON texts kept (one per distinct state shown; about 300 bytes each with its key)
_TEXTS: dict[tuple[tuple[str, ...], Callable[[str], Any]], dict[tuple[Any, ...], Any]] = {}


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

"""What a seat or a spectator may see (R18). The only way hidden facts leave the engine."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, compress
from operator import ne
from typing import Any, TypeVar

from firebreak.domain.contract import RawJSON
from firebreak.domain.greatfire.board import District
from firebreak.domain.greatfire.components import CARDS
from firebreak.domain.greatfire.rules.scoring import result
from firebreak.domain.greatfire.state import HOUSES_PER_COLOUR, Phase, State


def view(s: State, seat: int | None) -> dict[str, Any]:
    """Return the view of a seat (None: spectator); everything is revealed once the match is over."""
    return _view(s, seat, _districts(s), [sum(column) for column in zip(*s.houses, strict=True)])


def json_view(s: State, seat: int | None, raw: Callable[[str], Any] = RawJSON) -> dict[str, Any]:
    """The same view with its districts as one JSON object, made a writer's raw JSON by raw (RawJSON, or the
    writer's own kind, as matches.packing's orjson.Fragment), joined from each district's text kept by content
    between views: a step changes a few of the 72 districts, and building and writing the others again was most of
    a view's cost. Written by the service's JSON writer, the same bytes as view(s, seat)
    (tests/greatfire/test_views.py)."""
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
            found = _keep(named, key, _by_colour(houses, colours), NAMED_KEPT)
        here = pawns_at.get(d) or ()
        districts[district_id] = _district(found.copy(), fire, bands, demolished, token is not None, here, colours)
    return districts


@dataclass(frozen=True)
class Shown:
    """What a state's districts showed at its last json_view, as copies of its lists, and their JSON then: the next
    view of the same state (the pipeline applies each step to one kept state) writes again only the districts
    whose facts changed, and reuses the whole when none did. Compared by value, never trusted: a state loaded,
    cloned or changed any way gets the same JSON it would get without it. Never changed once made (clones share
    it): a later view makes a new one, copying what changed. It holds little of its own (the service keeps one per
    live match, and an act touches it: the less of it, the less memory an act reads that other matches' acts have
    pushed out of the core's caches): the rows of houses are copies shared by every Shown (_ROWS), the districts'
    texts those kept by content (_TEXTS), their names the map's (_HEADS)."""

    ids: tuple[str, ...]
    colours: tuple[str, ...]
    houses: list[list[int]]  # copies of the state's rows (shared, never changed), compared with them by value
    cones: list[int]
    bands: list[int]
    demolished: list[bool]
    tokens: list[Any]
    pawns: list[list[int]]
    pawn_colours: list[list[int]]
    texts: list[str]  # [district] -> its JSON text '{...}', in the map's order
    raw: Callable[[str], Any]
    written: Any  # raw('{' + '"<id>":' + text, ... + '}'): the districts' JSON object
    standing: tuple[int, ...]  # [colour] -> houses on the map


def _since(now: list[Any], then: list[Any], changed: set[int]) -> list[Any]:
    """then (a copy of an earlier now) when now still equals it, else a copy of now, the places that differ added to
    changed."""
    if now == then:
        return then
    changed.update(compress(range(len(now)), map(ne, now, then)))
    return list(now)


def _district_texts(s: State, raw: Callable[[str], Any]) -> tuple[Any, Sequence[int]]:
    """The districts' public state as one JSON object made raw, each district's text kept by what it shows (shared
    by every view and match: at most TEXTS_KEPT kept per colour list), written again only where the state changed
    since its last json_view (Shown); and the houses of each colour on the map."""
    ids, colours = s.geo.ids, s.comps.colours
    shown = s.shown
    standing: tuple[int, ...] | None = None
    if isinstance(shown, Shown) and shown.ids is ids and shown.colours is colours:
        changed: set[int] = set()
        houses = shown.houses
        if s.houses == houses:
            standing = shown.standing
        else:
            houses = houses.copy()
            for d in compress(range(len(ids)), map(ne, s.houses, shown.houses)):
                changed.add(d)
                houses[d] = _row(s.houses[d])
        cones, bands = _since(s.cones, shown.cones, changed), _since(s.bands, shown.bands, changed)
        demolished, tokens = _since(s.demolished, shown.demolished, changed), _since(s.board_tokens, shown.tokens,
                                                                                    changed)
        pawns, pawn_colours = shown.pawns, shown.pawn_colours
        if s.pawns != pawns or s.pawn_colours != pawn_colours:
            changed.update(d for places in (*s.pawns, *pawns) for d in places if d >= 0)  # where pawns were or are
            pawns, pawn_colours = [list(p) for p in s.pawns], [list(c) for c in s.pawn_colours]
        if not changed and shown.raw is raw:
            return shown.written, shown.standing
        written_texts = shown.texts.copy()
        todo: Iterable[int] = changed
    else:
        houses, cones, bands = [_row(row) for row in s.houses], list(s.cones), list(s.bands)
        demolished, tokens = list(s.demolished), list(s.board_tokens)
        pawns, pawn_colours = [list(p) for p in s.pawns], [list(c) for c in s.pawn_colours]
        written_texts, todo = [""] * len(ids), range(len(ids))
    if todo:
        texts = _TEXTS.get(colours)
        if texts is None:
            texts = _TEXTS[colours] = {}
        pawns_at = _pawns_at(s)
        for d in todo:
            here = pawns_at.get(d)
            key = (tuple(houses[d]), cones[d], bands[d], demolished[d], tokens[d] is not None,
                   tuple(here) if here else ())
            text = texts.get(key)
            if text is None:
                text = _keep(texts, key, _district_text(key, colours), TEXTS_KEPT)
            written_texts[d] = text
    if standing is None:
        standing = tuple(map(sum, zip(*houses, strict=True)))
    written = raw("".join(chain(chain.from_iterable(zip(_heads(ids), written_texts, strict=True)), "}")))
    s.shown = Shown(ids, colours, houses, cones, bands, demolished, tokens, pawns, pawn_colours, written_texts, raw,
                    written, standing)
    return written, standing


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


def _view(s: State, seat: int | None, districts: Any, standing: Sequence[int]) -> dict[str, Any]:
    """The view around its districts (as dicts, or as their JSON object made raw); standing: [colour] -> houses on
    the map."""
    colours = s.comps.colours
    named = colours.__getitem__
    over = s.phase is Phase.OVER
    hidden = bool(s.options.get("hiddenColours")) and not over
    lost_by_colour = [HOUSES_PER_COLOUR - n for n in standing]
    players = []
    for owner in range(s.seats):
        lost = sum(map(lost_by_colour.__getitem__, s.colours[owner]))
        row: dict[str, Any] = {
            "seat": owner,
            "colours": None if hidden else list(map(named, s.colours[owner])),
            "pawnColours": list(map(named, s.pawn_colours[owner])),
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
        **_deck(s),
        "discardPile": len(s.discard),
        "discardCards": {card: s.discard.count(card) for card in CARDS},  # played or flipped face up
        "turnsLeft": s.turns_left,
        "scoreTrack": dict(zip(colours, lost_by_colour, strict=True)),
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
_TEXTS: dict[tuple[str, ...], dict[tuple[Any, ...], str]] = {}


K = TypeVar("K")
V = TypeVar("V")
ROWS_KEPT = 4096  # distinct rows of houses whose one shared copy Shown holds (a game deals a few dozen)
_ROWS: dict[tuple[int, ...], list[int]] = {}
HEADS_KEPT = 64  # maps whose heads are kept (each title's board is one)
_HEADS: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}  # id(the map's ids) -> (the ids, their heads)


def _keep(table: dict[K, V], key: K, value: V, limit: int) -> V:
    """Keep value under key in one of this module's bounded tables (emptied when it holds limit entries); return it."""
    if len(table) >= limit:
        table.clear()
    table[key] = value
    return value


def _row(row: list[int]) -> list[int]:
    """The shared copy of a row of houses with these values (a Shown's: never changed)."""
    key = tuple(row)
    kept = _ROWS.get(key)
    if kept is None:
        kept = _keep(_ROWS, key, list(row), ROWS_KEPT)
    return kept


def _heads(ids: tuple[str, ...]) -> tuple[str, ...]:
    """[district] -> what comes before its text in the districts' JSON object: '{"<id>":' for the first, ',"<id>":'
    for the others (kept per map)."""
    kept = _HEADS.get(id(ids))
    if kept is None or kept[0] is not ids:
        heads = tuple(("," if d else "{") + json.dumps(district_id, ensure_ascii=False) + ":"
                      for d, district_id in enumerate(ids))
        kept = _keep(_HEADS, id(ids), (ids, heads), HEADS_KEPT)
    return kept[1]


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


def _deck(s: State) -> dict[str, Any]:
    """The deck's public counts, in one pass: fire cards left (stack cards not counted: turns.fire_cards_left), stack
    cards left, and fire cards to draw before the next stack card shows (public: the stack counts are printed)."""
    marks = "".join([card[:1] for card in s.deck])  # "#" for a stack card
    stacks, last = marks.count("#"), marks.rfind("#")
    return {"deckSize": len(marks) - stacks, "stacksLeft": stacks,
            "untilIntensify": None if last < 0 else len(marks) - 1 - last}


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

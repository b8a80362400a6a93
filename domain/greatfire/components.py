"""The component data of Great Fire (cards, stacks, tokens, objective decks, 2-player decks), loaded from JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from firebreak.domain.errors import DataError
from firebreak.domain.greatfire.board import Board, load_board

DATA_DIR = Path(__file__).parent / "data"
CARDS = ("N", "E", "S", "W")
TOKEN_KINDS = ("demolition", "doubleMove", "victoryPoint")
DECKS = ("I", "II", "III")


@dataclass(frozen=True)
class Components:
    """The fixed contents of the box that the rules draw on."""

    colours: tuple[str, ...]
    fire_cards: dict[str, int]
    fire_stacks: dict[int, tuple[int, ...]]
    tokens: dict[str, int]
    objective_decks: dict[str, tuple[str, ...]]
    colour_priority: tuple[tuple[str, ...], ...]
    band_movement: tuple[str, ...]

    def fire_deck(self) -> list[str]:
        """Return the unshuffled fire movement cards."""
        return [card for card in CARDS for _ in range(self.fire_cards[card])]

    def token_pool(self) -> list[str]:
        """Return the unshuffled black tokens."""
        return [kind for kind in TOKEN_KINDS for _ in range(self.tokens[kind])]


def _need(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise DataError(f"{where}: missing {key!r}")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise DataError(f"{where}: {key!r} must be a {kind.__name__}")
    return value


def parse_components(data: object, board: Board) -> Components:
    """Validate decoded components.json against a board; raise DataError naming the bad entry."""
    if not isinstance(data, dict):
        raise DataError("components: the file must hold a JSON object")
    colours = tuple(_need(data, "colours", list, "components"))
    if len(colours) != 6 or len(set(colours)) != 6 or not all(isinstance(c, str) for c in colours):
        raise DataError("components: 'colours' must list 6 distinct names")
    cards = _need(data, "fireCards", dict, "components")
    if set(cards) != set(CARDS) or not all(isinstance(n, int) and n >= 0 for n in cards.values()):
        raise DataError("components: 'fireCards' must give a count for each of N, E, S, W")
    total = sum(cards.values())
    stacks: dict[int, tuple[int, ...]] = {}
    for players, counts in _need(data, "fireStacks", dict, "components").items():
        where = f"fireStacks {players!r}"
        if not players.isdigit() or not isinstance(counts, list) or not counts:
            raise DataError(f"{where}: must map a player count to a list of card counts")
        if not all(isinstance(n, int) and n >= 0 for n in counts):
            raise DataError(f"{where}: counts must be whole numbers")
        if sum(counts) + 5 * int(players) > total:
            raise DataError(f"{where}: needs more cards than the deck holds after the deal")
        stacks[int(players)] = tuple(counts)
    tokens = _need(data, "tokens", dict, "components")
    if set(tokens) != set(TOKEN_KINDS) or not all(isinstance(n, int) and n >= 0 for n in tokens.values()):
        raise DataError(f"components: 'tokens' must give a count for each of {', '.join(TOKEN_KINDS)}")
    sites = sum(1 for d in board.districts if d.token_site)
    if sum(tokens.values()) != sites:
        raise DataError(f"components: {sum(tokens.values())} tokens for {sites} token sites on the board")
    decks: dict[str, tuple[str, ...]] = {}
    raw_decks = _need(data, "objectiveDecks", dict, "components")
    if set(raw_decks) != set(DECKS):
        raise DataError("components: 'objectiveDecks' must hold decks I, II and III")
    for deck, ids in raw_decks.items():
        if not isinstance(ids, list) or not ids:
            raise DataError(f"objectiveDecks {deck}: must list district ids")
        for district_id in ids:
            d = _district(board, district_id, f"objectiveDecks {deck}")
            if d.objective is None or d.objective.deck != deck:
                raise DataError(f"objectiveDecks {deck}: {district_id!r} is not an objective of deck {deck}")
        decks[deck] = tuple(ids)
    priority = tuple(tuple(card) for card in _need(data, "colourPriority", list, "components"))
    for i, card in enumerate(priority):
        if sorted(card) != sorted(colours):
            raise DataError(f"colourPriority card {i}: must order all 6 colours, large house first")
    movement = tuple(_need(data, "bandMovement", list, "components"))
    for district_id in movement:
        if _district(board, district_id, "bandMovement").objective is None:
            raise DataError(f"bandMovement: {district_id!r} is not an objective")
    return Components(colours, dict(cards), stacks, dict(tokens), decks, priority, movement)


def _district(board: Board, district_id: object, where: str) -> Any:
    if not isinstance(district_id, str):
        raise DataError(f"{where}: district ids must be strings")
    try:
        return board.district(district_id)
    except KeyError:
        raise DataError(f"{where}: unknown district {district_id!r}") from None


def load_components(path: str | Path | None, board: Board) -> Components:
    """Load and validate a components file (None: the shipped one)."""
    if path is None:
        return shipped_components()
    return parse_components(json.loads(Path(path).read_text(encoding="utf-8")), board)


@cache
def shipped_components() -> Components:
    """Return the shipped components, validated against the shipped board."""
    text = (DATA_DIR / "components.json").read_text(encoding="utf-8")
    return parse_components(json.loads(text), load_board())

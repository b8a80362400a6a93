"""The card data of London (city cards and boroughs), loaded from JSON and validated; errors name the bad entry."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from firebreak.domain.errors import DataError

DATA_DIR = Path(__file__).parent / "data"
DECKS = ("A", "B", "C")
COLOURS = ("brown", "blue", "pink", "grey")
KINDS = ("city", "action", "beggar")
GAIN_KEYS = ("money", "prestige", "povertyDown", "povertyUp", "draw")
PER = ("riverBorough", "northBorough", "southBorough", "borough", "brown", "blue", "pink", "stack")
ONGOING = ("flipInstead", "cardDiscount", "landDiscount", "handLimit", "beggarsAnyColour")
CITY_CARDS = 101
BEGGARS = 11
ACTION_CARDS = 4
BOROUGHS = 20
STARTING_BOROUGHS = ("City", "Westminster", "Southwark & Bermondsey")


@dataclass(frozen=True)
class Gain:
    """What an effect gives (or, for povertyUp, costs): each amount is multiplied by the count of `per`."""

    money: int = 0
    prestige: int = 0
    poverty_down: int = 0
    poverty_up: int = 0
    draw: int = 0
    per: str | None = None


@dataclass(frozen=True)
class Ongoing:
    """An ongoing effect, active while its card lies face up on top of a stack (or its borough is on top)."""

    kind: str
    amount: int = 0


@dataclass(frozen=True)
class Activation:
    """What running a card costs (money, or one more card from hand), gives, and whether it flips after."""

    money: int
    card: bool
    gain: Gain
    flip: bool


@dataclass(frozen=True)
class Card:
    """One city card of the box."""

    id: str
    name: str
    deck: str
    colour: str
    kind: str
    cost: int
    prestige: int
    activation: Activation | None
    ongoing: Ongoing | None
    action: Gain | None

    @property
    def buildable(self) -> bool:
        """Whether the card can be put into a building stack (not a beggar nor an action card)."""
        return self.kind == "city"


@dataclass(frozen=True)
class Borough:
    """One borough card."""

    id: str
    name: str
    side: str
    river: bool
    start: bool
    cost: int
    immediate: Gain
    run: Gain | None
    ongoing: Ongoing | None


@dataclass(frozen=True)
class Catalogue:
    """Every card and borough of the box, by id, in data order."""

    cards: dict[str, Card]
    boroughs: dict[str, Borough]

    def card(self, card_id: str) -> Card:
        """Return the card with this id."""
        return self.cards[card_id]

    @cached_property
    def card_index(self) -> dict[str, int]:
        """The position of each card id in data order."""
        return {c: i for i, c in enumerate(self.cards)}

    @cached_property
    def card_decks(self) -> dict[str, str]:
        """The deck (era) letter of each card id."""
        return {c: card.deck for c, card in self.cards.items()}

    @cached_property
    def borough_index(self) -> dict[str, int]:
        """The position of each borough id in data order."""
        return {b: i for i, b in enumerate(self.boroughs)}

    @cached_property
    def stack_cap(self) -> int:
        """The most stacks a seat can ever have: every stack holds at least one buildable card."""
        return sum(1 for card in self.cards.values() if card.buildable)


def slug(name: str) -> str:
    """The id stem of a name: lower case words joined by dashes ("Southwark & Bermondsey" -> southwark-bermondsey)."""
    return "-".join(re.findall(r"[a-z0-9]+", name.lower().replace("'", "")))


def _int(data: dict[str, Any], key: str, where: str, default: int | None = None, low: int = 0) -> int:
    if key not in data:
        if default is None:
            raise DataError(f"{where}: missing {key!r}")
        return default
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise DataError(f"{where}: {key!r} must be a whole number >= {low}")
    return value


def _choice(data: dict[str, Any], key: str, allowed: tuple[str, ...], where: str) -> str:
    value = data.get(key)
    if value not in allowed:
        raise DataError(f"{where}: {key!r} must be one of {', '.join(allowed)}, not {value!r}")
    return str(value)


def _keys(data: object, allowed: set[str], where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise DataError(f"{where}: must be a JSON object")
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise DataError(f"{where}: unknown field(s) {', '.join(unknown)}")
    return data


def _gain(data: object, where: str) -> Gain:
    raw = _keys(data, {*GAIN_KEYS, "per"}, where)
    per = raw.get("per")
    if per is not None and per not in PER:
        raise DataError(f"{where}: 'per' must be one of {', '.join(PER)}, not {per!r}")
    money, prestige, down, up, draw = (_int(raw, key, where, 0) for key in GAIN_KEYS)
    gain = Gain(money, prestige, down, up, draw, per)
    if gain == Gain(per=per):
        raise DataError(f"{where}: gives nothing")
    return gain


def _ongoing(data: object, where: str) -> Ongoing:
    raw = _keys(data, {"kind", "amount"}, where)
    kind = _choice(raw, "kind", ONGOING, where)
    needs_amount = kind in ("cardDiscount", "landDiscount", "handLimit")
    amount = _int(raw, "amount", where, None if needs_amount else 0, 1 if needs_amount else 0)
    return Ongoing(kind, amount)


def _activation(data: object, where: str) -> Activation:
    raw = _keys(data, {"cost", "gain", "flip"}, where)
    cost = _keys(raw.get("cost", {}), {"money", "card"}, f"{where} cost")
    card = cost.get("card", False)
    if not isinstance(card, bool) or not isinstance(raw.get("flip"), bool):
        raise DataError(f"{where}: 'card' and 'flip' must be true or false")
    money = _int(cost, "money", f"{where} cost", 0)
    if money and card:
        raise DataError(f"{where}: an activation costs money or a card, not both")
    return Activation(money, card, _gain(raw.get("gain"), f"{where} gain"), raw["flip"])


def _where(kind: str, i: int, entry: object) -> str:
    """How an error names an entry: its place in the list and, when it has one, its name."""
    name = entry.get("name") if isinstance(entry, dict) else None
    return f"{kind}[{i}] {name!r}" if isinstance(name, str) else f"{kind}[{i}]"


def parse_cards(data: object) -> list[Card]:
    """Validate decoded cards.json; return the cards of the box, copies expanded."""
    entries = _keys(data, {"note", "cards"}, "cards").get("cards")
    if not isinstance(entries, list):
        raise DataError("cards: 'cards' must be a list")
    out: list[Card] = []
    numbers: dict[str, int] = {}
    for i, entry in enumerate(entries):
        where = _where("cards", i, entry)
        raw = _keys(entry, {"name", "deck", "colour", "kind", "copies", "cost", "prestige", "activation",
                            "ongoing", "action"}, where)
        name = raw.get("name")
        if not isinstance(name, str) or not slug(name):
            raise DataError(f"{where}: 'name' must be a non-empty string")
        deck, colour = _choice(raw, "deck", DECKS, where), _choice(raw, "colour", COLOURS, where)
        kind = _choice(raw, "kind", KINDS, where)
        copies, cost, prestige = (_int(raw, "copies", where, None, 1), _int(raw, "cost", where),
                                  _int(raw, "prestige", where))
        activation = _activation(raw["activation"], f"{where} activation") if "activation" in raw else None
        ongoing = _ongoing(raw["ongoing"], f"{where} ongoing") if "ongoing" in raw else None
        action = _gain(raw["action"], f"{where} action") if "action" in raw else None
        if (kind == "beggar") != (colour == "grey"):
            raise DataError(f"{where}: beggars and only beggars are grey")
        if kind == "action" and (action is None or activation or ongoing or prestige):
            raise DataError(f"{where}: an action card has an 'action' effect and no activation, ongoing or prestige")
        if kind != "action" and action is not None:
            raise DataError(f"{where}: only action cards have an 'action' effect")
        if kind == "beggar" and (activation or ongoing or cost or prestige):
            raise DataError(f"{where}: a beggar has no cost, prestige or effects")
        for _ in range(copies):
            stem = slug(name)
            numbers[stem] = numbers.get(stem, 0) + 1
            out.append(Card(f"{stem}-{numbers[stem]}", name, deck, colour, kind, cost, prestige, activation,
                            ongoing, action))
    counts = {k: sum(1 for c in out if c.kind == k) for k in KINDS}
    if len(out) != CITY_CARDS or counts["beggar"] != BEGGARS or counts["action"] != ACTION_CARDS:
        raise DataError(f"cards: the box holds {CITY_CARDS} city cards with {BEGGARS} beggars and {ACTION_CARDS} "
                        f"action cards, not {len(out)} with {counts['beggar']} and {counts['action']}")
    return out


def parse_boroughs(data: object) -> list[Borough]:
    """Validate decoded boroughs.json; return the boroughs."""
    entries = _keys(data, {"note", "boroughs"}, "boroughs").get("boroughs")
    if not isinstance(entries, list):
        raise DataError("boroughs: 'boroughs' must be a list")
    out: list[Borough] = []
    for i, entry in enumerate(entries):
        where = _where("boroughs", i, entry)
        raw = _keys(entry, {"name", "side", "river", "start", "cost", "immediate", "run", "ongoing"}, where)
        name = raw.get("name")
        if not isinstance(name, str) or not slug(name):
            raise DataError(f"{where}: 'name' must be a non-empty string")
        side = _choice(raw, "side", ("N", "S"), where)
        river, start = raw.get("river"), raw.get("start", False)
        if not isinstance(river, bool) or not isinstance(start, bool):
            raise DataError(f"{where}: 'river' and 'start' must be true or false")
        immediate = _gain(raw.get("immediate"), f"{where} immediate")
        if immediate.per or immediate.money or immediate.poverty_up or not (
                immediate.draw and immediate.prestige and immediate.poverty_down):
            raise DataError(f"{where}: buying land gives cards, prestige and less poverty (immediate needs "
                            "draw, prestige and povertyDown, and nothing else)")
        run = _gain(raw["run"], f"{where} run") if "run" in raw else None
        if run is not None and run.draw:
            raise DataError(f"{where}: a borough's run effect does not draw cards")
        ongoing = _ongoing(raw["ongoing"], f"{where} ongoing") if "ongoing" in raw else None
        if ongoing is not None and ongoing.kind in ("flipInstead", "beggarsAnyColour"):
            raise DataError(f"{where}: a borough's ongoing effect is a discount or a hand limit")
        out.append(Borough(slug(name), name, side, river, start, _int(raw, "cost", where, None, 1), immediate,
                           run, ongoing))
    if len(out) != BOROUGHS or len({b.id for b in out}) != BOROUGHS:
        raise DataError(f"boroughs: the box holds {BOROUGHS} distinct boroughs, not {len({b.id for b in out})}")
    starts = tuple(b.name for b in out if b.start)
    if sorted(starts) != sorted(STARTING_BOROUGHS):
        raise DataError(f"boroughs: the starting boroughs are {', '.join(STARTING_BOROUGHS)}, not {starts}")
    return out


def parse_catalogue(cards: object, boroughs: object) -> Catalogue:
    """Validate both decoded files; return the catalogue."""
    return Catalogue({c.id: c for c in parse_cards(cards)}, {b.id: b for b in parse_boroughs(boroughs)})


def load_catalogue(directory: str | Path | None = None) -> Catalogue:
    """Load and validate cards.json and boroughs.json from a directory (None: the shipped data)."""
    if directory is None:
        return shipped_catalogue()
    folder = Path(directory)
    return parse_catalogue(*(json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
                             for name in ("cards", "boroughs")))


@cache
def shipped_catalogue() -> Catalogue:
    """Return the shipped card data, validated."""
    return load_catalogue(DATA_DIR)


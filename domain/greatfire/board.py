"""The map of The Great Fire: London 1666, loaded from a JSON data file that a user may replace."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from firebreak.domain.errors import DataError

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
OPPOSITE: dict[str, str] = {way: DIRECTIONS[(i + 4) % 8] for i, way in enumerate(DIRECTIONS)}
REGIONS = ("purple", "blue", "green", "orange")
KINDS = ("origin", "burnable", "grass")
DECK_VP: dict[str, int] = {"I": 2, "II": 4, "III": 6}
OBJECTIVE_MIN_SIZE = 3  # the districts of size >= 3 are the VP areas (objectives)
MAX_SIZE = 5
CANVAS = 1000  # positions lie on a CANVAS x CANVAS drawing, north up (y grows southward)
MIN_PLAYERS, MAX_PLAYERS = 2, 6
SHIPPED_BOARD = Path(__file__).parent / "data" / "board.json"

_BOARD_KEYS = frozenset({"districts", "links"})
_DISTRICT_KEYS = frozenset(
    {"id", "name", "region", "kind", "size", "objective", "tokenSite", "presetBand", "x", "y"}
)
_OBJECTIVE_KEYS = frozenset({"vp", "deck"})
_LINK_KEYS = frozenset({"from", "to", "dir"})
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class Objective:
    """The VP a surviving objective district is worth, and the objective deck (I, II, III) naming it."""

    vp: int
    deck: str


@dataclass(frozen=True)
class District:
    """One space of the map: a burnable district, a grassed area or the origin (Pudding Lane)."""

    index: int
    id: str
    name: str
    region: str
    kind: str  # "origin" | "burnable" | "grass"
    size: int | None  # house slots; 0 for the origin, None for grass
    objective: Objective | None
    token_site: bool
    preset_band: tuple[int, ...]  # player counts for which a trained band starts here
    x: int
    y: int


@dataclass(frozen=True)
class Board:
    """The districts in file order and, for each, its neighbours with the direction leading to them."""

    districts: tuple[District, ...]
    neighbours: tuple[tuple[tuple[int, str], ...], ...]  # ((j, direction from i to j), ...) sorted by j

    @cached_property
    def _by_id(self) -> dict[str, int]:
        return {d.id: d.index for d in self.districts}

    @cached_property
    def _origin(self) -> int:
        for d in self.districts:
            if d.kind == "origin":
                return d.index
        raise DataError("board: no origin district")

    def index(self, district_id: str) -> int:
        """Return the index of a district id; raise KeyError for an unknown id."""
        return self._by_id[district_id]

    def district(self, district_id: str) -> District:
        """Return the district with this id; raise KeyError for an unknown id."""
        return self.districts[self._by_id[district_id]]

    @property
    def origin(self) -> int:
        """Return the index of the origin district (Pudding Lane)."""
        return self._origin


def load_board(path: str | Path | None = None) -> Board:
    """Load and validate a board file; None loads the shipped board (cached)."""
    if path is None:
        return _shipped_board()
    return _load(Path(path))


@cache
def _shipped_board() -> Board:
    return _load(SHIPPED_BOARD)


def _load(path: Path) -> Board:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"board file {str(path)!r}: cannot be read ({exc})") from exc
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise DataError(f"board file {str(path)!r}: not valid JSON ({exc})") from exc
    return parse_board(data)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise DataError(f"board: key {key!r} appears twice in one object")
        result[key] = value
    return result


def parse_board(data: object) -> Board:
    """Validate a decoded board JSON value and build the Board; raise DataError naming the bad entry."""
    if not isinstance(data, dict):
        raise DataError("board: must be a JSON object with 'districts' and 'links'")
    _check_keys(data, _BOARD_KEYS, "board")
    raw_districts = data["districts"]
    raw_links = data["links"]
    if not isinstance(raw_districts, list):
        raise DataError("board: 'districts' must be a list")
    if not isinstance(raw_links, list):
        raise DataError("board: 'links' must be a list")
    districts: list[District] = []
    by_id: dict[str, int] = {}
    for i, raw in enumerate(raw_districts):
        district = _parse_district(i, raw)
        if district.id in by_id:
            raise DataError(f"district {district.id!r}: id used twice (entries {by_id[district.id]} and {i})")
        by_id[district.id] = i
        districts.append(district)
    origins = [d.id for d in districts if d.kind == "origin"]
    if len(origins) != 1:
        raise DataError(f"board: needs exactly one origin district, found {len(origins)} {origins}")
    adjacency: list[dict[int, str]] = [{} for _ in districts]
    for n, raw in enumerate(raw_links):
        a, b, way = _parse_link(n, raw, by_id)
        if b in adjacency[a]:
            raise DataError(
                f"link {n} ({districts[a].id} -> {districts[b].id}): "
                "this pair of districts is already linked (list each pair once)"
            )
        adjacency[a][b] = way
        adjacency[b][a] = OPPOSITE[way]
    neighbours = tuple(tuple(sorted(adj.items())) for adj in adjacency)
    return Board(districts=tuple(districts), neighbours=neighbours)


def _check_keys(raw: dict[str, Any], expected: frozenset[str], where: str) -> None:
    missing = sorted(expected - raw.keys())
    if missing:
        raise DataError(f"{where}: missing key(s) {', '.join(map(repr, missing))}")
    extra = sorted(raw.keys() - expected)
    if extra:
        raise DataError(f"{where}: unknown key(s) {', '.join(map(repr, extra))}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_district(i: int, raw: object) -> District:
    if not isinstance(raw, dict):
        raise DataError(f"district {i}: must be a JSON object")
    raw_id = raw.get("id")
    if not isinstance(raw_id, str) or not _SLUG.fullmatch(raw_id):
        raise DataError(f"district {i}: 'id' must be a lowercase slug such as 'pudding-lane', not {raw_id!r}")
    where = f"district {raw_id!r}"
    _check_keys(raw, _DISTRICT_KEYS, where)
    name, region, kind, size = raw["name"], raw["region"], raw["kind"], raw["size"]
    if not isinstance(name, str) or not name.strip():
        raise DataError(f"{where}: 'name' must be a non-empty string")
    if region not in REGIONS:
        raise DataError(f"{where}: unknown region {region!r} (expected one of {', '.join(REGIONS)})")
    if kind not in KINDS:
        raise DataError(f"{where}: unknown kind {kind!r} (expected one of {', '.join(KINDS)})")
    if kind == "origin" and not (_is_int(size) and size == 0):
        raise DataError(f"{where}: size must be 0 for the origin district")
    if kind == "burnable" and not (_is_int(size) and 1 <= size <= MAX_SIZE):
        raise DataError(f"{where}: size must be 1-{MAX_SIZE} for a burnable district")
    if kind == "grass" and size is not None:
        raise DataError(f"{where}: size must be null for a grassed area")
    objective = _parse_objective(where, raw["objective"], kind, size)
    token_site = raw["tokenSite"]
    if not isinstance(token_site, bool):
        raise DataError(f"{where}: 'tokenSite' must be true or false")
    if token_site and kind != "burnable":
        raise DataError(f"{where}: a token site must be a burnable district, not {kind}")
    preset_band = _parse_preset_band(where, raw["presetBand"], kind)
    x, y = raw["x"], raw["y"]
    for key, value in (("x", x), ("y", y)):
        if not (_is_int(value) and 0 <= value <= CANVAS):
            raise DataError(f"{where}: {key!r} must be a whole number 0-{CANVAS}")
    return District(
        index=i, id=raw_id, name=name, region=region, kind=kind, size=size, objective=objective,
        token_site=token_site, preset_band=preset_band, x=x, y=y,
    )


def _parse_objective(where: str, raw: object, kind: str, size: object) -> Objective | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise DataError(f"{where}: 'objective' must be null or an object with 'vp' and 'deck'")
    _check_keys(raw, _OBJECTIVE_KEYS, f"{where} objective")
    if kind != "burnable" or not isinstance(size, int) or size < OBJECTIVE_MIN_SIZE:
        raise DataError(
            f"{where}: only a burnable district of size {OBJECTIVE_MIN_SIZE}+ can be an objective"
        )
    deck, vp = raw["deck"], raw["vp"]
    if not isinstance(deck, str) or deck not in DECK_VP:
        raise DataError(f"{where}: objective deck must be one of {', '.join(DECK_VP)}, not {deck!r}")
    if not (_is_int(vp) and vp == DECK_VP[deck]):
        raise DataError(f"{where}: an objective of deck {deck} is worth {DECK_VP[deck]} VP, not {vp!r}")
    return Objective(vp=vp, deck=deck)


def _parse_preset_band(where: str, raw: object, kind: str) -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise DataError(f"{where}: 'presetBand' must be a list of player counts")
    for count in raw:
        if not (_is_int(count) and MIN_PLAYERS <= count <= MAX_PLAYERS):
            raise DataError(
                f"{where}: presetBand player counts must be {MIN_PLAYERS}-{MAX_PLAYERS}, not {count!r}"
            )
    if len(set(raw)) != len(raw):
        raise DataError(f"{where}: presetBand lists a player count twice")
    if raw and kind == "origin":
        raise DataError(f"{where}: no trained band may stand in the origin district")
    return tuple(sorted(raw))


def _parse_link(n: int, raw: object, by_id: dict[str, int]) -> tuple[int, int, str]:
    if not isinstance(raw, dict):
        raise DataError(f"link {n}: must be a JSON object with 'from', 'to' and 'dir'")
    where = f"link {n} ({raw.get('from')!s} -> {raw.get('to')!s})"
    _check_keys(raw, _LINK_KEYS, where)
    ends: list[int] = []
    for key in ("from", "to"):
        district_id = raw[key]
        if not isinstance(district_id, str):
            raise DataError(f"{where}: {key!r} must be a district id string")
        if district_id not in by_id:
            raise DataError(f"{where}: unknown district {district_id!r}")
        ends.append(by_id[district_id])
    way = raw["dir"]
    if way not in DIRECTIONS:
        raise DataError(f"{where}: unknown direction {way!r} (expected one of {', '.join(DIRECTIONS)})")
    if ends[0] == ends[1]:
        raise DataError(f"{where}: a district cannot be linked to itself")
    return ends[0], ends[1], way

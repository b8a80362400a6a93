"""Great Fire's action table: every action type once, in the order of the action space (ids are indices: a stable
public contract), with its fields, its instances over the board's geometry (districts and their links in board
order, fire cards N, E, S, W, pawns 0..MAX_PAWNS-1) and what applying it does.

The published action schema lists the same types with breakTie (the 2-player expansion's) last, as it always
has. Which actions are legal now is listed by the phase (rules/setup.py, rules/turns.py); applying a listed one
is a lookup in this table (setup and turn actions are distinct types). Not to be confused with rules/actions.py,
the actions phase (R11).
"""

from __future__ import annotations

from firebreak.domain.actions import ActionSpec, ActionTable, Fields
from firebreak.domain.greatfire.components import CARDS
from firebreak.domain.greatfire.geometry import Geometry
from firebreak.domain.greatfire.rules import npc, setup, turns
from firebreak.domain.greatfire.rules.actions import demolish, move_band, move_pawn, put_out
from firebreak.domain.greatfire.schemas import CARD, DISTRICT, published
from firebreak.domain.greatfire.state import State
from firebreak.domain.schemas import COUNT, Schema

MAX_PAWNS = 2  # pawns per seat: one per colour owned, two in the 2-player game (R19)

Spec = ActionSpec[State, Geometry]
AT = {"district": DISTRICT}
ON_CARD = {"card": CARD}


def per_district(geo: Geometry) -> list[Fields]:
    """One instance per district, in board order."""
    return [{"district": d} for d in geo.ids]


def per_card(geo: Geometry) -> list[Fields]:
    """One instance per fire card."""
    return [{"card": c} for c in CARDS]


def pawn_steps(geo: Geometry) -> list[Fields]:
    """Every pawn a seat can have, each with every district as where it goes."""
    return [{"pawn": p, "to": d} for p in range(MAX_PAWNS) for d in geo.ids]


def band_steps(geo: Geometry) -> list[Fields]:
    """Every district (board order) with each of its neighbours (board order) as where a band goes."""
    ids = geo.ids
    return [{"from": ids[a], "to": ids[b]} for a in range(len(ids)) for b in geo.adjacent[a]]


SPECS = [
    Spec("keepHand", "R15: keep a hand of five identical cards.", setup.keep_hand),
    Spec("redeal", "R15: redeal a hand of five identical cards.", setup.redeal),
    Spec("placeBand", "Setup: place a trained band.", setup.place_band, AT, per_district),
    Spec("placePawn", "Setup: place your next landowner pawn.", setup.place_pawn, AT, per_district),
    Spec("playCard", "Fire phase: play a fire card from your hand.", turns.play_card, ON_CARD, per_card),
    Spec("chooseSource", "Fire phase: the burning district the fire spreads from.", turns.choose_source, AT,
         per_district),
    Spec("spreadFire", "Fire phase: the district the fire spreads into.", turns.spread_fire, AT, per_district),
    Spec("playDoubleMove", "Fire phase pause: play your double-move token (R7).", turns.play_double_move),
    Spec("endFire", "Fire phase pause: end the fire phase.", turns.end_fire),
    Spec("discard", "R8: no fire move possible: discard a card.", turns.discard, ON_CARD, per_card),
    Spec("placeCone", "Place a fire cone (intensify, R8, R12).", turns.place_cone, AT, per_district),
    Spec("breakTie", "2 players (R21): break the non-player turn's tie.",
         lambda s, seat, a, ev: npc.apply_choice(s, a, ev), AT, per_district),
    Spec("movePawn", "Actions: move a pawn one step.", move_pawn, {"pawn": COUNT, "to": DISTRICT}, pawn_steps),
    Spec("moveBand", "Actions: move a free trained band one step.", move_band, {"from": DISTRICT, "to": DISTRICT},
         band_steps),
    Spec("putOut", "Actions: put out one cone where your pawn stands.",
         lambda s, seat, a, ev: put_out(s, seat, s.geo.index[a["district"]], ev), AT, per_district),
    Spec("demolish", "Actions: demolish a district next to your pawn.",
         lambda s, seat, a, ev: demolish(s, seat, s.geo.index[a["district"]], ev), AT, per_district),
    Spec("endActions", "Actions: end the phase (R18b: also at 0 points).",
         lambda s, seat, a, ev: turns.end_actions(s, ev)),
]
ACTIONS = ActionTable[State, Geometry](
    SPECS, schema_order=[*(spec.name for spec in SPECS if spec.name != "breakTie"), "breakTie"])


def action_schema() -> Schema:
    """One action as legalActions lists it and act takes it (from the table)."""
    return published("action", "One Great Fire action (send it back as listed in legalActions).",
                     ACTIONS.schema(suffix="Action"))

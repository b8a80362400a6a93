"""Drawing and discarding ("Добирання та скидання карт"): the deck, the development board and its overflow."""

from __future__ import annotations

from firebreak.domain.contract import Action, Event
from firebreak.domain.london.state import State


def draw_actions(s: State) -> list[Action]:
    """The ways to draw one card now: the deck's top card, or any card on the development board."""
    out: list[Action] = [{"type": "drawDeck"}] if s.deck else []
    out.extend({"type": "drawBoard", "card": c} for c in s.board_cards())
    return out


def can_draw(s: State) -> bool:
    """Whether any card is left to draw (deck or board)."""
    return bool(s.deck) or any(c is not None for c in s.board_top + s.board_bottom)


def draw(s: State, seat: int, action: Action, events: list[Event]) -> None:
    """Take one card as the (listed) draw action says; the deck's card is seen by the seat alone."""
    if action["type"] == "drawDeck":
        card = s.deck.pop()
        s.hands[seat].append(card)
        events.append({"type": "cardDrawn", "seat": seat, "card": card, "audience": [seat]})
        events.append({"type": "drew", "seat": seat, "from": "deck", "count": 1, "deckLeft": len(s.deck)})
        return
    card = action["card"]
    for row in (s.board_top, s.board_bottom):
        if card in row:
            row[row.index(card)] = None
    s.hands[seat].append(card)
    s.known[seat].append(card)
    events.append({"type": "drew", "seat": seat, "from": "board", "card": card, "count": 1})


def leave_hand(s: State, seat: int, card: str) -> None:
    """Take a card out of the seat's hand (and out of what everyone knows it holds)."""
    s.hands[seat].remove(card)
    if card in s.known[seat]:
        s.known[seat].remove(card)


def discard_to_board(s: State, seat: int, card: str, events: list[Event]) -> None:
    """Put a discarded card on the development board: the top row, else the bottom row (L3: when the board is
    full after it, the bottom row leaves the game and the top row moves down)."""
    row, name = (s.board_top, "top") if None in s.board_top else (s.board_bottom, "bottom")
    column = row.index(None)
    row[column] = card
    events.append({"type": "discarded", "seat": seat, "card": card, "row": name, "column": column})
    if None not in s.board_top and None not in s.board_bottom:
        cleared = [c for c in s.board_bottom if c is not None]
        s.discard.extend(cleared)
        s.board_bottom[:] = s.board_top
        s.board_top[:] = [None] * len(s.board_top)
        events.append({"type": "boardCleared", "cards": cleared})

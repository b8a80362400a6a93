"""Loans ("Позика") and paying: £10 whenever wanted or needed, £15 back at the start of a turn."""

from __future__ import annotations

from typing import Any

from firebreak.domain.contract import Action, Event
from firebreak.domain.london.state import LOAN, LOAN_REPAY, Phase, State


def loan_actions(s: State, seat: int) -> list[Action]:
    """A loan, while the supply has a token (L5)."""
    return [{"type": "takeLoan"}] if s.loan_tokens() > 0 else []


def repay_actions(s: State, seat: int) -> list[Action]:
    """Repaying one loan (£15), at the start of the turn only."""
    return [{"type": "repayLoan"}] if s.loans[seat] and s.money[seat] >= LOAN_REPAY else []


def take_loan(s: State, seat: int, events: list[Event]) -> None:
    """Take a loan: £10 and a loan token."""
    s.loans[seat] += 1
    s.money[seat] += LOAN
    events.append({"type": "loanTaken", "seat": seat, "loans": s.loans[seat], "money": s.money[seat]})


def repay_loan(s: State, seat: int, events: list[Event]) -> None:
    """Repay one loan with £15."""
    s.loans[seat] -= 1
    s.money[seat] -= LOAN_REPAY
    events.append({"type": "loanRepaid", "seat": seat, "loans": s.loans[seat], "money": s.money[seat]})


def affordable(s: State, seat: int, amount: int) -> bool:
    """Whether the seat can pay the amount, with loans if it must."""
    return amount <= s.money[seat] + LOAN * s.loan_tokens()


def begin_payment(s: State, pending: dict[str, Any]) -> None:
    """Stage a payment of pending["amount"] for what pending["for"] names: pay, take a loan, or cancel."""
    s.pending = pending
    s.phase = Phase.PAY


def pay_actions(s: State, seat: int) -> list[Action]:
    """The choices of the payment step: pay (if the money is there), a loan, or cancel."""
    assert s.pending is not None
    out: list[Action] = [{"type": "pay"}] if s.money[seat] >= s.pending["amount"] else []
    return out + loan_actions(s, seat) + [{"type": "cancel"}]

"""The end of the game and final scoring ("Кінець гри"): steps 1-7, then the tie-breaks."""

from __future__ import annotations

from dataclasses import dataclass

from firebreak.domain.contract import Result, SeatScore
from firebreak.domain.london.rules.poverty import compared, prestige_lost
from firebreak.domain.london.state import LOAN_REPAY, UNPAID_LOAN_PRESTIGE, State

REASON = "The city card deck ran out and every other seat played a last turn."
MONEY_PER_PRESTIGE = 3


@dataclass(frozen=True)
class FinalScore:
    """One seat's final scoring, step by step (the parts are prestige; poverty is the count left after step 6)."""

    seat: int
    land: int          # prestige gained buying boroughs
    play: int          # prestige gained during play from cards and borough runs
    city: int          # step 2: end-game prestige of every city card in the seat's building stacks
    loans: int         # step 4: -7 per loan it could not repay (step 3)
    money: int         # step 5: +1 per £3 left
    poverty: int       # step 7: the poverty table for the poverty left after step 6
    poverty_left: int
    boroughs: int
    best_card: int     # the most prestigious city card in its city (last tie-break)

    @property
    def total(self) -> int:
        """The final prestige."""
        return self.land + self.play + self.city + self.loans + self.money + self.poverty


def repaid(money: int, loans: int) -> tuple[int, int]:
    """Step 3: loans repaid from money as far as it goes; the money left and the loans still unpaid."""
    paid = min(loans, money // LOAN_REPAY)
    return money - paid * LOAN_REPAY, loans - paid


def final_scores(s: State) -> list[FinalScore]:
    """Score every seat as the rulebook's final scoring does (the state itself is left as it ended)."""
    raw_poverty = [s.poverty[seat] + len(s.hands[seat]) for seat in range(s.seats)]  # step 1
    left = compared(raw_poverty)  # step 6
    out = []
    for seat in range(s.seats):
        cards = [s.card(c) for stack in s.stacks[seat] for c in stack]
        money, unpaid = repaid(s.money[seat], s.loans[seat])  # step 3
        out.append(FinalScore(
            seat=seat, land=s.prestige_land[seat], play=s.prestige_play[seat],
            city=sum(c.prestige for c in cards),
            loans=-UNPAID_LOAN_PRESTIGE * unpaid,
            money=money // MONEY_PER_PRESTIGE,
            poverty=-prestige_lost(left[seat]), poverty_left=left[seat],
            boroughs=len(s.boroughs[seat]), best_card=max((c.prestige for c in cards), default=0)))
    return out


def rank_key(f: FinalScore) -> tuple[int, int, int, int]:
    """Higher is better: prestige, then lowest poverty, then most boroughs, then the most prestigious card."""
    return (f.total, -f.poverty_left, f.boroughs, f.best_card)


def result(s: State, among: tuple[int, ...] | None = None, reason: str = "") -> Result:
    """The typed result of an ended match; or (among: the seats to rank, reason: why it ended) the standing of a
    match the service ended early, scored as if it ended now."""
    scores = final_scores(s)
    ranked = [f for f in scores if among is None or f.seat in among]
    best = max(rank_key(f) for f in ranked)
    return Result(
        scores=tuple(SeatScore(f.seat, f.total, {"land": f.land, "play": f.play, "city": f.city, "loans": f.loans,
                                                  "money": f.money, "poverty": f.poverty}) for f in scores),
        winners=tuple(f.seat for f in ranked if rank_key(f) == best),
        reason=reason or REASON)

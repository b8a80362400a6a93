"""What both adapters share: driving a match between decisions and turning its result into payoffs."""

from __future__ import annotations

from firebreak.domain.contract import EncodedMatch, EncodedTitle
from firebreak.domain.encoding import is_encoded
from firebreak.domain.titles import encoded_titles, get


def encoded_title(title_id: str) -> EncodedTitle:
    """Return the registered title with this id; raise ValueError when it does not provide the encoded contract."""
    title = get(title_id)
    if not is_encoded(title):
        raise ValueError(f"title {title_id!r} provides no action space and observation encoding")
    return title


def encoded_title_ids() -> list[str]:
    """The ids of every title the adapters can serve."""
    return [title.id for title in encoded_titles()]


def run_system_steps(match: EncodedMatch) -> None:
    """Run the service's automated steps (e.g. a 2-player non-player turn) until a seat owes a decision."""
    while match.system_due():
        match.run_system_step()


def acting_seat(match: EncodedMatch) -> int | None:
    """The seat the adapters ask next (the lowest of to_act: several seats owing a decision at once are asked
    one after the other, as the service applies their actions); None when the match is over."""
    seats = match.to_act()
    return min(seats) if seats else None


def win_shares(match: EncodedMatch) -> list[float]:
    """Payoffs of a finished match: the winners share 1 (a true tie splits it), the others get 0."""
    result = match.result()
    if result is None:
        return [0.0] * match.seats
    share = 1.0 / len(result.winners) if result.winners else 0.0
    return [share if seat in result.winners else 0.0 for seat in range(match.seats)]


def final_scores(match: EncodedMatch) -> list[float]:
    """Each seat's final total (the title's score, e.g. victory points); zeros before the end."""
    result = match.result()
    totals = [0.0] * match.seats
    if result is not None:
        for row in result.scores:
            totals[row.seat] = float(row.total)
    return totals

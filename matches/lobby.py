"""Creating, joining and filling matches, and listing them for a lobby."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from firebreak.domain import titles
from firebreak.domain.bots import levels
from firebreak.domain.errors import DomainError
from firebreak.matches import invite_codes, mine
from firebreak.matches.callers import Caller
from firebreak.matches.clocks import Clock, ClockError
from firebreak.matches.duties import due_at
from firebreak.matches.invitations import Invitations
from firebreak.matches.lifecycle import MatchStatus, SeatKind, SeatRecord
from firebreak.matches.refusals import Refusal
from firebreak.matches.scheduler import Scheduler
from firebreak.matches.store import Loaded, MatchStore, engine, hash_token

STARTED = "every seat of this match is taken"
RATED = "rated"  # the meta field of a rated match ("1"): the ratings count it once it is played out


class LobbyError(Exception):
    """Raised when a lobby request cannot be met; code says which kind (the API maps it to a typed result): a
    registered refusal, or a title's own code for options it does not accept."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Created:
    """A new match, its host token and a private match's invite code (both shown once)."""

    match_id: str
    host_token: str
    invite_code: str | None = None


@dataclass(frozen=True)
class Seated:
    """A claimed seat and, for a person, its secret token (shown once)."""

    match_id: str
    seat: int
    token: str | None
    started: bool


class Lobby:
    """Lobby operations over the store."""

    def __init__(self, store: MatchStore, scheduler: Scheduler) -> None:
        self.store = store
        self.scheduler = scheduler

    async def page(self, status: MatchStatus, first: int, after: str | None) -> tuple[list[Loaded], bool, str | None]:
        """A page of the lobby, newest first: the matches of a status after a cursor, whether more follow, and the
        page's end cursor. Entries whose match has expired are dropped from the list; a match of a title this
        process does not serve (FIREBREAK_TITLES differs between processes, e.g. in a rolling deploy) is left out
        of the page, not an error, since it cannot be read or played here."""
        ids, more, cursor = await self.store.list_ids(status, first, after)
        served = {title.id for title in titles.all_titles()}
        page, gone = [], []
        for match_id in ids:
            loaded = await self.store.load(match_id)
            if loaded is None or (status is MatchStatus.WAITING and loaded.status is MatchStatus.OVER):
                gone.append(match_id)  # expired, or cancelled (a crash may have left it listed)
            elif loaded.meta["title"] in served:
                page.append(loaded)
        await self.store.prune_lobby(status, gone)
        return page, more, cursor

    async def create(self, title_id: str, seats: int, options: dict[str, Any] | None, seed: int | None,
                     clock: tuple[float | None, float] | None = None, per_move: float | None = None,
                     private: bool = False, host_player: str | None = None, rated: bool = False) -> Created:
        """Set up a new waiting match, with a turn clock if asked: (initial, increment) seconds per seat (initial
        None: no Fischer clock) and a per-move limit; the seed is secret (whoever knows it can know every hidden
        card). A private match stays out of the lobby lists and gets an invite code; host_player (the creator's
        player, if any) may invite players as the host token may. A rated match (meta rated: "1") counts for the
        ratings once played out, seats players and bots only (RATED_NEEDS_PLAYER) and takes no seed (BAD_OPTIONS:
        its creator would know every hidden card)."""
        if rated and seed is not None:
            raise LobbyError(Refusal.BAD_OPTIONS, "a rated match takes no seed (whoever knows it knows the hidden "
                                                  "cards)")
        try:
            title = titles.get(title_id)
            seed = secrets.randbits(63) if seed is None else seed
            options_used = title.check_options(seats, options)
            match = title.new_match(seats=seats, seed=seed, options=options_used)
            initial, increment = (None, 0.0) if clock is None else clock
            clocks = None if clock is None and per_move is None else Clock.new(initial, increment, seats, per_move)
        except DomainError as exc:
            raise LobbyError(exc.code, str(exc)) from None
        except ClockError as exc:
            raise LobbyError(Refusal.BAD_OPTIONS, str(exc)) from None
        extra = {"private": "1"} if private else {}
        if rated:
            extra[RATED] = "1"
        if host_player is not None:
            extra["hostPlayer"] = host_player
        match_id, host_token = await self.store.create(title.id, seats, options_used, seed, match.to_dict(),
                                                       clocks, extra=extra)
        code = None
        if private:  # after the match: a crash in between leaves a private match nobody can reach, which expires
            code = invite_codes.new_code()
            await invite_codes.remember(self.store.redis, code, match_id, self.store.settings.waiting_ttl)
        return Created(match_id, host_token, code)

    async def seat(self, loaded: Loaded, seat: int, record: SeatRecord) -> Seated:
        """Claim a given seat with a ready-made record (a rematch's carried seats); the claim that fills the match
        starts it, as a join's would."""
        return await self._claim(loaded, seat, record, None)

    async def join(self, match_id: str, seat: int | None, name: str | None, player: str | None = None,
                   program: bool = False, by_code: bool = False, token: str | None = None) -> Seated:
        """Take a seat as a person; the returned token is a credential of the seat (shown once). With a player, the
        seat is bound to it (the player's credential acts for it too; a player holds one seat of a match at most:
        ALREADY_SEATED), played as a program if so flagged. A private match is reached only by its creator (the
        player who created it, or the caller's bearer token being its host token), its invite code (by_code: the
        caller found it so) or by an invited player (MATCH_NOT_FOUND otherwise, as for no match at all); a
        rematch's seats are its old occupants' (SEAT_TAKEN)."""
        loaded = await self.store.load(match_id)
        if loaded is not None and not loaded.listed and not by_code:
            creator = loaded.is_creator(Caller(token=token, player=player))
            invited = creator or (player is not None and await Invitations(self.store).of(loaded.id, player)
                                  is not None)
            if not invited:  # a private match without its code: there only for its creator and the invited
                loaded = None
        loaded = self._check_waiting(loaded, match_id, seat)
        if "rematchOf" in loaded.meta:
            raise LobbyError(Refusal.SEAT_TAKEN, "every seat of a rematch is kept for the old match's occupants")
        if player is None and loaded.meta.get(RATED) == "1":
            raise LobbyError(Refusal.RATED_NEEDS_PLAYER, "a rated match seats players and bots only: join with a "
                                                         "player credential")
        if player is not None and loaded.seat_of(Caller(player=player)) is not None:
            raise LobbyError(Refusal.ALREADY_SEATED, "you already hold a seat of this match")
        if player is not None and await self.refuses(loaded, player):  # last of the checks: it tells nothing more
            raise LobbyError(Refusal.NOT_ACCEPTED, "a player of this match does not take you at the table now")
        token = secrets.token_urlsafe(32)
        record = SeatRecord(_clean_name(name or ""), SeatKind.HUMAN, token_hash=hash_token(token), player=player,
                            program=program and player is not None)
        return await self._claim(loaded, seat, record, token)

    async def refuses(self, loaded: Loaded, player: str) -> bool:
        """Whether a player of the waiting match (seated, or its creator) does not take this player at the table
        (none here; social/guards.py fills it in)."""
        return False

    async def add_bot(self, match_id: str, seat: int | None, level: str, caller: Caller | str | None) -> Seated:
        """Seat a bot; only the creator (the host token or the player who created it) or a seated caller may."""
        loaded = await self._waiting(match_id, seat)
        known = levels(titles.get(loaded.meta["title"]))
        if level not in known:
            raise LobbyError(Refusal.UNKNOWN_BOT_LEVEL, f"bot level must be one of {', '.join(known)}")
        if not loaded.is_host(caller):
            raise LobbyError(Refusal.UNAUTHORIZED, "adding a bot needs the match's host token, the credential of the "
                                                    "player who created it, or a seat of the match")
        record = SeatRecord(f"{level} bot", SeatKind.BOT, level)
        return await self._claim(loaded, seat, record, None)

    async def _waiting(self, match_id: str, seat: int | None) -> Loaded:
        return self._check_waiting(await self.store.load(match_id), match_id, seat)

    def _check_waiting(self, loaded: Loaded | None, match_id: str, seat: int | None) -> Loaded:
        if loaded is None:
            raise LobbyError(Refusal.MATCH_NOT_FOUND, f"no match {match_id!r}")
        if loaded.status is not MatchStatus.WAITING:
            raise LobbyError(Refusal.MATCH_STARTED, STARTED)
        if seat is not None and not 0 <= seat < loaded.seat_count:
            raise LobbyError(Refusal.BAD_SEAT, f"seats of this match are 0-{loaded.seat_count - 1}")
        return loaded

    async def _claim(self, loaded: Loaded, seat: int | None, record: SeatRecord, token: str | None) -> Seated:
        # the players' lists change when a player is seated, or when this claim may start the match
        marked = None
        if record.player is not None or len(loaded.seats) + 1 >= loaded.seat_count:
            marked = await mine.mark(self.store, loaded, record.player)
        claimed = await self.store.claim_seat(loaded.id, seat, record, loaded.seat_count, loaded.listed)
        if isinstance(claimed, Refusal):
            await mine.unmark(self.store, loaded.id, marked)
        if claimed is Refusal.SEAT_TAKEN:
            raise LobbyError(claimed, "that seat is taken" if seat is not None else "every seat is taken")
        if claimed is Refusal.ALREADY_SEATED:
            raise LobbyError(claimed, "you already hold a seat of this match")
        if isinstance(claimed, Refusal):
            raise LobbyError(claimed, STARTED)
        started = claimed.started  # this claim started the match: the match as the claim left it
        if started is not None:
            match = engine(started)
            await self.store.reschedule(started.id, started.version,
                                        due_at(match, started.seats, started.timing(), self.store.settings))
            await mine.refresh(self.store, started, marked)
            await self.scheduler.after_step(loaded.id, match, started.seats)
        elif marked is not None:
            await mine.refresh(self.store, await self.store.load(loaded.id) or loaded, marked)
        return Seated(loaded.id, claimed.seat, token, claimed.full)


def _clean_name(name: str) -> str:
    text = " ".join(str(name).split())[:40]
    return text or "player"

"""Players area: sign in as a guest, refresh and end sessions, personal access tokens, linking the operator's
identity, and `me` (the signed-in player)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, cast

import strawberry

from firebreak.api import language
from firebreak.api.context import Info
from firebreak.api.ratelimit import rate_limited
from firebreak.api.schema.account import DataExportResult, DeleteAccountResult, data_export, delete_account
from firebreak.api.schema.events import MyEventConnection, my_events_page
from firebreak.api.schema.invitations import Invitation, my_invitations
from firebreak.api.schema.mine import MyMatchConnection, my_matches
from firebreak.api.schema.player import Player, PlayerKind
from firebreak.api.schema.problems import (
    AlreadyLinked,
    BadHandle,
    ForbiddenScope,
    HandleTaken,
    IdentityTaken,
    InvalidInput,
    TokenNotFound,
    TooManyTokens,
    Unauthenticated,
    player_problem,
)
from firebreak.api.schema.push import PushPreferences, PushSubscription, my_push_preferences, my_push_subscriptions
from firebreak.api.schema.ratings import Rating, my_ratings
from firebreak.api.schema.seeks import Seek, my_seeks
from firebreak.api.schema.social import (
    BlockedPlayer,
    Friend,
    FriendRequests,
    my_blocks,
    my_friend_requests,
    my_friends,
)
from firebreak.api.schema.types import MatchStatus
from firebreak.matches import mypage
from firebreak.matches.refusals import Refusal
from firebreak.players import records
from firebreak.players.errors import HandleChangesLimited, PlayerError, Reason
from firebreak.players.errors import Unauthenticated as Refused
from firebreak.players.records import Principal


@strawberry.enum
class Scope(Enum):
    """What a personal access token may do."""

    # players.records.Scope member for member (same names, same values)
    PLAY = strawberry.enum_value(records.Scope.PLAY.value, description="Join matches and act in the player's seats.")
    BOT = strawberry.enum_value(records.Scope.BOT.value, description="The same, as a program: seats it joins are "
                                                                     "flagged program (ratings can tell).")


@strawberry.type
class AccessToken:
    """A personal access token as listed (never its secret)."""

    id: strawberry.ID = strawberry.field(description="The token's id (revokeAccessToken takes it).")
    name: str = strawberry.field(description="The name given when it was made.")
    scopes: list[Scope] = strawberry.field(description="What it may do.")
    created: float = strawberry.field(description="When it was made (epoch seconds).")
    expires: float | None = strawberry.field(description="When it stops working (epoch seconds; null: never).")

    @classmethod
    def of(cls, info: records.TokenInfo) -> AccessToken:
        """The GraphQL form of a token's listing."""
        return cls(id=strawberry.ID(info.id), name=info.name, scopes=[Scope[s.name] for s in sorted(info.scopes)],
                   created=info.created, expires=info.expires)


@strawberry.type
class Me:
    """The signed-in player (from the bearer credential)."""

    principal: strawberry.Private[Principal]

    @strawberry.field
    def id(self) -> strawberry.ID:
        """The player's id."""
        return strawberry.ID(self.principal.player.id)

    @strawberry.field
    def name(self) -> str:
        """The display name."""
        return self.principal.player.name

    @strawberry.field
    def handle(self) -> str:
        """The public handle, unique across the service (updateProfile changes it)."""
        return self.principal.player.handle

    @strawberry.field
    def kind(self) -> PlayerKind:
        """GUEST or EXTERNAL."""
        return PlayerKind[self.principal.player.kind.name]

    @strawberry.field
    def locale(self) -> str | None:
        """The player's saved locale (updateProfile), null when none is saved: the language answers are written in
        when a request's Accept-Language names none the service speaks."""
        return self.principal.player.locale or None

    @strawberry.field
    def language(self) -> str:
        """The language this answer is written in: the request's Accept-Language (a WebSocket's ?lang=) when it
        names one the service speaks, else the saved locale, else en."""
        return language.chosen()

    @strawberry.field
    async def invitations(self, info: Info) -> list[Invitation]:
        """The player's open invitations to waiting matches, newest first (answer with answerInvitation)."""
        return await my_invitations(info, self.principal)

    @strawberry.field
    async def seeks(self, info: Info) -> list[Seek]:
        """The player's seeks, newest first: the open ones and those ended within the last day (seek, cancelSeek)."""
        return await my_seeks(info, self.principal)

    @strawberry.field
    async def push_subscriptions(self, info: Info) -> list[PushSubscription]:
        """The browsers the player registered for pushes, oldest first (registerPushSubscription; never their
        keys)."""
        return await my_push_subscriptions(info, self.principal)

    @strawberry.field
    async def push_preferences(self, info: Info) -> PushPreferences:
        """Which kinds of event are pushed to the player (updatePushPreferences)."""
        return await my_push_preferences(info, self.principal)

    @strawberry.field
    async def friends(self, info: Info) -> list[Friend]:
        """The player's friends, oldest friendship first: presence (online, else last seen) and live public
        matches to watch (requestFriend, removeFriend)."""
        return await my_friends(info, self.principal)

    @strawberry.field
    async def friend_requests(self, info: Info) -> FriendRequests:
        """The player's pending friend requests, both ways (acceptFriend, declineFriend, cancelFriendRequest)."""
        return await my_friend_requests(info, self.principal)

    @strawberry.field
    async def blocks(self, info: Info) -> list[BlockedPlayer]:
        """The players the player blocks, most recent first (blockPlayer, unblockPlayer; nobody else sees it)."""
        return await my_blocks(info, self.principal)

    @strawberry.field
    async def access_tokens(self, info: Info) -> list[AccessToken]:
        """The player's live personal access tokens, oldest first (never their secrets)."""
        listing = await info.context.services.players.access.listing(self.principal.player.id)
        return [AccessToken.of(token) for token in listing]

    @strawberry.field
    async def ratings(self, info: Info) -> list[Rating]:
        """The player's rating and leaderboard rank in every title they have played rated, by title id."""
        return await my_ratings(info, self.principal.player.id)

    @strawberry.field
    async def your_turn_count(self, info: Info) -> int:
        """How many of the player's live matches wait on the player to act (the badge): those `matches` lists
        first; a yourTurn event raises it. One cheap read of the my-matches index."""
        return await mypage.turn_count(info.context.services.store, self.principal.player.id)

    @strawberry.field
    async def matches(
        self, info: Info,
        status: Annotated[MatchStatus | None, strawberry.argument(description="Only the matches of this status "
                                                                              "(null: all).")] = None,
        first: Annotated[int, strawberry.argument(description="The page size (1-100).")] = 20,
        after: Annotated[str | None, strawberry.argument(description="A previous page's endCursor (or an edge's "
                                                                     "cursor).")] = None,
    ) -> MyMatchConnection:
        """The player's matches: those where it is their turn first (oldest waiting first), then the rest by last
        activity, newest first. A bad `after`: error BAD_CURSOR."""
        return await my_matches(info, self.principal.player.id, status, first, after)

    @strawberry.field
    async def events(
        self, info: Info,
        after: Annotated[str | None, strawberry.argument(description="An event id: the events after it (null: from "
                                                                     "the oldest kept).")] = None,
        first: Annotated[int, strawberry.argument(description="The page size (1-100).")] = 20,
    ) -> MyEventConnection:
        """The player's past events, oldest first (the myEvents subscription follows new ones). A bad `after`:
        error BAD_CURSOR; one older than the oldest kept: CURSOR_EXPIRED."""
        return await my_events_page(info, self.principal.player.id, after, first)

    @strawberry.field
    async def export(self, info: Info) -> DataExportResult:
        """Everything kept about the player, to download once: a one-time ticket and the URL of the REST stream
        (GET /v1/me/export). Needs a session or the operator's JWT (FORBIDDEN_SCOPE for a personal access
        token)."""
        return await data_export(info, self.principal)


@strawberry.type
class Session:
    """A signed-in session: send accessToken as Authorization: Bearer until it expires, then swap refreshToken
    (shown once; each one works once) with refreshSession for a new pair."""

    access_token: str = strawberry.field(description="A short-lived bearer credential of the player.")
    access_token_expires_in: int = strawberry.field(description="Seconds the access token is valid.")
    refresh_token: str = strawberry.field(description="Swaps for a new session once (keep it secret); an already "
                                                      "used one signs the whole session out.")
    refresh_token_expires_in: int = strawberry.field(description="Seconds the session lives unless refreshed.")
    player: Player = strawberry.field(description="The signed-in player.")

    @classmethod
    def of(cls, session: records.Session) -> Session:
        """The GraphQL form of a session."""
        return cls(access_token=session.access_token, access_token_expires_in=session.access_expires_in,
                   refresh_token=session.refresh_token, refresh_token_expires_in=session.refresh_expires_in,
                   player=Player.of(session.player))


@strawberry.type
class SignedOut:
    """The session (or, with everywhere, every session and access token of the player) is signed out."""

    everywhere: bool = strawberry.field(description="Whether every session of the player was signed out.")


@strawberry.type
class AccessTokenCreated:
    """A new personal access token: the token is shown only this once."""

    token: str = strawberry.field(description="The secret: send it as Authorization: Bearer (shown once).")
    access_token: AccessToken = strawberry.field(description="Its listing.")


@strawberry.type
class AccessTokenRevoked:
    """The token stopped working."""

    id: strawberry.ID = strawberry.field(description="The revoked token's id.")


@strawberry.type
class IdentityLinked:
    """The operator's identity is linked: its JWT now signs in this same player (same id, same matches)."""

    player: Player = strawberry.field(description="The player, now of kind EXTERNAL.")


@strawberry.type
class ProfileUpdated:
    """The player's profile as it now is."""

    player: Player = strawberry.field(description="The player, with its handle and name.")
    locale: str | None = strawberry.field(default=None, description="The player's saved locale, null when none is "
                                                                    "saved.")


@strawberry.type
class Language:
    """A language the service speaks."""

    code: str = strawberry.field(description="Its code (en, de, uk): what Accept-Language and a saved locale name.")
    name: str = strawberry.field(description="Its name in itself (Deutsch, Українська).")


@strawberry.input
class UpdateProfileInput:
    """A new handle, display name and/or saved locale (null or left out: left as it is)."""

    handle: str | None = strawberry.field(default=None, description="3 to 24 characters after NFKC: letters and "
                                                                    "digits of one script and '-', '_', '.', "
                                                                    "starting and ending with a letter or digit "
                                                                    "(unique, compared case-folded).")
    name: str | None = strawberry.field(default=None, description="1 to 40 printable characters.")
    locale: str | None = strawberry.field(default=None, description="The language to be answered in when a "
                                                                    "request's Accept-Language names none the "
                                                                    "service speaks: a BCP 47 tag of "
                                                                    "a language Query.languages lists (de-AT saves "
                                                                    "de); \"\" forgets it.")


@strawberry.input
class SignInAsGuestInput:
    """A display name and the device's id (a secret the app keeps: the same id signs the same guest in again)."""

    name: str = strawberry.field(description="1 to 40 printable characters (kept from the first sign-in).")
    device_id: str = strawberry.field(description="16 to 200 printable characters, random, kept on the device.")


@strawberry.input
class RefreshSessionInput:
    """A session's refresh token."""

    refresh_token: str = strawberry.field(description="The refresh token of the session's last answer.")


@strawberry.input
class SignOutInput:
    """Sign out this session, or every session of the player."""

    everywhere: bool = strawberry.field(default=False, description="Also every other session and access token of "
                                                                   "the player.")


@strawberry.input
class CreateAccessTokenInput:
    """A name for the token, its scopes and optionally a lifetime."""

    name: str = strawberry.field(description="1 to 40 printable characters, to tell tokens apart.")
    scopes: list[Scope] = strawberry.field(description="At least one: PLAY, BOT.")
    expires_in_seconds: int | None = strawberry.field(default=None, description="A lifetime (null: none).")


@strawberry.input
class RevokeAccessTokenInput:
    """The token to revoke."""

    id: strawberry.ID = strawberry.field(description="The token's id (Me.accessTokens).")


@strawberry.input
class LinkIdentityInput:
    """A JWT of the operator's identity provider for the account to link."""

    token: str = strawberry.field(description="The operator's JWT (verified like a bearer credential).")


SignInResult = Annotated[Session | InvalidInput,
                         strawberry.union("SignInResult", description="The new session, or why none.")]
RefreshResult = Annotated[Session | Unauthenticated,
                          strawberry.union("RefreshResult", description="The next session, or why none.")]
SignOutResult = Annotated[SignedOut | Unauthenticated | ForbiddenScope,
                          strawberry.union("SignOutResult", description="Signed out, or why not.")]
CreateAccessTokenResult = Annotated[
    AccessTokenCreated | Unauthenticated | ForbiddenScope | InvalidInput | TooManyTokens,
    strawberry.union("CreateAccessTokenResult", description="The new token, or why none.")]
RevokeAccessTokenResult = Annotated[
    AccessTokenRevoked | Unauthenticated | ForbiddenScope | TokenNotFound,
    strawberry.union("RevokeAccessTokenResult", description="Revoked, or why not.")]
LinkIdentityResult = Annotated[
    IdentityLinked | Unauthenticated | ForbiddenScope | IdentityTaken | AlreadyLinked,
    strawberry.union("LinkIdentityResult", description="Linked, or why not.")]
UpdateProfileResult = Annotated[
    ProfileUpdated | Unauthenticated | ForbiddenScope | InvalidInput | BadHandle | HandleTaken,
    strawberry.union("UpdateProfileResult", description="The profile as it now is, or why it did not change.")]
PlayersProblem = (Unauthenticated | ForbiddenScope | InvalidInput | TooManyTokens | TokenNotFound | IdentityTaken
                  | AlreadyLinked)


async def _refused(info: Info, error: PlayerError) -> PlayersProblem:
    """The typed answer of a refusal of a credential given in the input (a refresh token, a JWT to link): counted
    as a failed authentication (the bearer credential's refusals are counted where it is verified)."""
    if isinstance(error, Refused) and error.reason is not Reason.MISSING:
        await info.context.auth_failed()
    return cast(PlayersProblem, player_problem(error))


@strawberry.type
class PlayersQuery:
    """Player reads."""

    @strawberry.field
    async def me(self, info: Info) -> Me | None:
        """The player of the bearer credential (a session's access token, a personal access token or the
        operator's JWT); null without one (a seat token is no player's). A bad one: error UNAUTHENTICATED."""
        principal = await info.context.principal()
        return None if principal is None else Me(principal=principal)

    @strawberry.field
    def languages(self) -> list[Language]:
        """The languages the service speaks: what Accept-Language negotiates among and what a saved locale takes."""
        return [Language(code=code, name=language.endonym(code)) for code in language.languages()]


@strawberry.type
class PlayersMutation:
    """Player writes."""

    @strawberry.mutation
    async def sign_in_as_guest(
        self, info: Info, input: Annotated[SignInAsGuestInput, strawberry.argument(description="Name and device.")],
    ) -> SignInResult:
        """Sign a device's guest in (made on the device's first sign-in): a new session. Rate limited per client
        (RATE_LIMITED)."""
        await info.context.charge_registration()
        try:
            session = await info.context.services.players.sessions.sign_in_as_guest(input.name, input.device_id)
        except PlayerError as exc:
            return cast(InvalidInput, player_problem(exc))
        return Session.of(session)

    @strawberry.mutation
    async def refresh_session(
        self, info: Info, input: Annotated[RefreshSessionInput, strawberry.argument(description="The token.")],
    ) -> RefreshResult:
        """Swap a refresh token for a new session (a new access and refresh token; the old refresh token stops
        working). An already used one signs its whole session out (UNAUTHENTICATED, reason reused)."""
        info.context.check_not_blocked(credential=True)
        try:
            session = await info.context.services.players.sessions.refresh(input.refresh_token)
        except PlayerError as exc:
            return cast(Unauthenticated, await _refused(info, exc))
        return Session.of(session)

    @strawberry.mutation
    async def sign_out(
        self, info: Info,
        input: Annotated[SignOutInput | None, strawberry.argument(description="everywhere: false by default.")]
        = None,
    ) -> SignOutResult:
        """End the bearer credential's session (its refresh token and access tokens stop working), or with
        everywhere every session of the player. Needs a session (not a personal access token: revoke it)."""
        principal = await info.context.player_or_refusal(session=True)
        if isinstance(principal, PlayerError):
            return cast(Unauthenticated | ForbiddenScope, player_problem(principal))
        everywhere = input is not None and input.everywhere
        sessions = info.context.services.players.sessions
        try:
            await sessions.sign_out_principal(principal, everywhere)
        except PlayerError as exc:
            return cast(Unauthenticated, player_problem(exc))
        await info.context.services.signed_out(principal, everywhere)
        return SignedOut(everywhere=everywhere)

    @strawberry.mutation
    async def create_access_token(
        self, info: Info, input: Annotated[CreateAccessTokenInput, strawberry.argument(description="The token.")],
    ) -> CreateAccessTokenResult:
        """Make a personal access token for a bot or script (shown once). Needs a signed-in session or the
        operator's JWT: a personal access token cannot make another (FORBIDDEN_SCOPE)."""
        principal = await info.context.player_or_refusal(session=True)
        if isinstance(principal, PlayerError):
            return cast(Unauthenticated | ForbiddenScope, player_problem(principal))
        try:
            token, listing = await info.context.services.players.access.create(
                principal, input.name, [records.Scope[scope.name] for scope in input.scopes], input.expires_in_seconds)
        except PlayerError as exc:
            return cast(InvalidInput | TooManyTokens | ForbiddenScope, player_problem(exc))
        return AccessTokenCreated(token=token, access_token=AccessToken.of(listing))

    @strawberry.mutation
    async def revoke_access_token(
        self, info: Info, input: Annotated[RevokeAccessTokenInput, strawberry.argument(description="The token.")],
    ) -> RevokeAccessTokenResult:
        """Revoke one of the player's personal access tokens: it stops working at once."""
        principal = await info.context.player_or_refusal(session=True)
        if isinstance(principal, PlayerError):
            return cast(Unauthenticated | ForbiddenScope, player_problem(principal))
        try:
            await info.context.services.players.access.revoke(principal.player.id, str(input.id))
        except PlayerError as exc:
            return cast(TokenNotFound, player_problem(exc))
        return AccessTokenRevoked(id=input.id)

    @strawberry.mutation
    async def update_profile(
        self, info: Info, input: Annotated[UpdateProfileInput, strawberry.argument(description="What changes.")],
    ) -> UpdateProfileResult:
        """Change the signed-in player's handle (unique, compared case-folded after NFKC: the old one is freed at
        once), display name and/or saved locale; a refused one changes nothing. A handle can be changed
        FIREBREAK_HANDLE_CHANGES_PER_DAY times in any 24 hours (RATE_LIMITED past that). Needs a session or the
        operator's JWT (FORBIDDEN_SCOPE for a personal access token)."""
        principal = await info.context.player_or_refusal(session=True)
        if isinstance(principal, PlayerError):
            return cast(Unauthenticated | ForbiddenScope, player_problem(principal))
        directory = info.context.services.players.directory
        locale = None if input.locale is None else language.saved_locale(input.locale)
        if input.locale is not None and locale is None:
            return InvalidInput(code=Refusal.UNSUPPORTED_LOCALE,
                                message=f"the service speaks {', '.join(language.languages())}")
        try:
            player = await directory.update_profile(principal.player.id, input.handle, input.name, locale)
        except HandleChangesLimited as exc:
            raise rate_limited(exc.retry_after) from None
        except PlayerError as exc:
            return cast(InvalidInput | BadHandle | HandleTaken | Unauthenticated, player_problem(exc))
        return ProfileUpdated(player=Player.of(player), locale=player.locale or None)

    @strawberry.mutation
    async def delete_account(self, info: Info) -> DeleteAccountResult:
        """Delete the signed-in player's account, for good. Needs a session begun (or an operator's JWT issued) at
        most FIREBREAK_DELETION_REAUTH_SECONDS ago (REAUTHENTICATE otherwise: sign in again, then ask), never a
        personal access token (FORBIDDEN_SCOPE). At once: every session, refresh token and personal access token
        stops working, and the handle, the device and the operator's identity are freed (the same device signs in
        as a new guest). Then, within moments: live seats resign, waiting seats are left, seeks cancelled,
        invitations dropped, pushes, events and ratings removed; finished matches keep the seat, shown as a deleted
        player."""
        principal = await info.context.player_or_refusal(session=True)
        if isinstance(principal, PlayerError):
            return cast(Unauthenticated | ForbiddenScope, player_problem(principal))
        return await delete_account(info, principal)

    @strawberry.mutation
    async def link_identity(
        self, info: Info, input: Annotated[LinkIdentityInput, strawberry.argument(description="The JWT.")],
    ) -> LinkIdentityResult:
        """Link the operator's identity (its JWT) to the signed-in player, a guest usually: the player keeps its id
        and its matches, and the operator's JWT signs it in from then on."""
        principal = await info.context.player_or_refusal(session=True)
        if isinstance(principal, PlayerError):
            return cast(Unauthenticated | ForbiddenScope, player_problem(principal))
        info.context.check_not_blocked(credential=True)
        try:
            linked = await info.context.services.players.link_external(principal.player, input.token)
        except PlayerError as exc:
            return cast(Unauthenticated | IdentityTaken | AlreadyLinked, await _refused(info, exc))
        return IdentityLinked(player=Player.of(linked))

"""The connections one API process holds, built at startup and shared by every request."""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Any

import anyio

from firebreak.api import revocations
from firebreak.api.admin import AdminCredential
from firebreak.api.chat_hub import ChatHub
from firebreak.api.fanout import Fanout
from firebreak.api.feedhub import FeedHub
from firebreak.api.ratelimit import Limits
from firebreak.api.snapshots import Snapshots
from firebreak.archive.database import Database, DatabaseSettings
from firebreak.archive.reader import ArchiveReader
from firebreak.chat.store import ChatStore
from firebreak.matches import connections
from firebreak.matches.config import Settings
from firebreak.matches.lobby import Lobby
from firebreak.matches.pipeline import Pipeline
from firebreak.matches.ratelimit import RateLimiter
from firebreak.matches.reconciler import DELETE_ACCOUNT_JOB
from firebreak.matches.scheduler import Scheduler
from firebreak.matches.seatlife import SeatLife
from firebreak.matches.store import MatchStore
from firebreak.matchmaking.seeks import Seeks
from firebreak.notifications.webhooks.service import Webhooks
from firebreak.players.authenticate import Authenticator
from firebreak.players.config import PlayerSettings
from firebreak.players.deletion import Deletions
from firebreak.players.invitations import PlayerInvitations
from firebreak.players.records import Principal
from firebreak.push.service import Push
from firebreak.social.guards import GuardedInvitations, GuardedLobby

SOCKET_TIMEOUT = 30.0  # seconds; the subscription blocks at most BLOCK_MS (10 s) per read


@dataclass
class Services:
    """The two Redis roles' clients, the store, the lobby and pipeline over them, the rate limits, and the players
    layer (its Authenticator verifies every player credential, for GraphQL and REST alike)."""

    settings: Settings
    redises: connections.Redises
    store: MatchStore
    scheduler: Scheduler
    lobby: Lobby
    pipeline: Pipeline
    limits: Limits
    snapshots: Snapshots
    fanout: Fanout
    players: Authenticator
    seat_life: SeatLife
    seeks: Seeks
    webhooks: Webhooks
    admin: AdminCredential
    metrics: Any = field(default=None)  # api.metrics.Metrics, set by the app factory
    archive: Database | None = field(default=None)  # the archive (finished matches Redis let go): the store's attic
    feeds: FeedHub = field(default=None)  # type: ignore[assignment]  # set by connect: the players' feeds' reader
    push: Push = field(default=None)  # type: ignore[assignment]  # set by connect: registrations, the VAPID key
    deletions: Deletions = field(default=None)  # type: ignore[assignment]  # set by connect: accounts' deletion
    chat: ChatStore = field(default=None)  # type: ignore[assignment]  # set by connect: chat beside the board
    chat_hub: ChatHub = field(default=None)  # type: ignore[assignment]  # set by connect: chat streams' readers
    revoked: revocations.Listener | None = None  # set by open: the revocations this process listens to

    async def database(self) -> Database:
        """The archive's database (FIREBREAK_DATABASE_URL / FIREBREAK_DATA_DIR: ratings, finished matches), opened
        at the start."""
        assert self.archive is not None, "Services.connect opens the archive"
        return self.archive

    @classmethod
    def connect(cls, settings: Settings, player_settings: PlayerSettings | None = None) -> Services:
        """Build the services for the settings' Redis URLs (connections open lazily); asks REDIS_URL whether
        it is a cluster (see connections.Redises; raises connections.ClusterRefused without QUEUE_REDIS_URL).
        Players live on the matches Redis; their settings come from the environment unless given."""
        # socket_timeout must outlast the subscription's blocking stream reads (redis-py 8 defaults to 5 s,
        # which cut every idle subscription short). Health checks and retries: matches/connections.py.
        redises = connections.Redises.connect(settings.redis_url, settings.queue_redis_url, settings.redis_cluster,
                                              decode_responses=True, max_connections=2000,
                                              socket_timeout=SOCKET_TIMEOUT)
        store = MatchStore(redises.matches, settings, redises.queue)
        scheduler = Scheduler(redises.queue, settings)
        player_settings = player_settings or PlayerSettings.from_env()
        archive = Database.from_settings()  # FIREBREAK_DATABASE_URL, else a SQLite file in FIREBREAK_DATA_DIR
        store.attic = ArchiveReader(archive)
        players = Authenticator.build(redises.matches, player_settings)
        chat = ChatStore(redises.matches)
        deletions = Deletions(redises.matches, redises.queue, players.directory,
                              player_settings.deletion_reauth_seconds)
        return cls(settings, redises, store, scheduler, GuardedLobby(store, scheduler), Pipeline(store, scheduler),
                   Limits(settings, RateLimiter(redises.queue), player_settings),
                   Snapshots(store), Fanout(store),
                   players, SeatLife(store, scheduler),
                   Seeks(redises.queue, settings.queue), Webhooks.from_env(redises.queue, settings.queue),
                   AdminCredential.from_env(), archive=archive, feeds=FeedHub(redises.matches, redises.cluster),
                   push=Push.from_env(redises.matches, DatabaseSettings.from_env().data_dir), deletions=deletions,
                   chat=chat, chat_hub=ChatHub(chat))

    async def delete_account(self, principal: Principal) -> float:
        """Delete the principal's account: the first stage at once (players/deletion.py; raise Reauthenticate), then
        the job that does the rest queued (the reconciler queues it anyway should this process die first); return
        when the deletion was asked."""
        at = await self.deletions.request(principal)
        player = principal.player.id
        await revocations.publish(self.redises.queue, player)  # its open streams end at once
        await anyio.to_thread.run_sync(functools.partial(
            self.scheduler.queue.enqueue, DELETE_ACCOUNT_JOB, player, job_id=f"delete-{player}-{time.time_ns()}",
            result_ttl=600, failure_ttl=7 * 24 * 3600, job_timeout=600))
        return at

    @property
    def invitations(self) -> PlayerInvitations:
        """The invitations by player id over the lobby and the players' directory (both surfaces')."""
        return GuardedInvitations(self.lobby, self.players.directory)  # never to one who blocks the inviter

    async def open(self) -> None:
        """Connect what must be connected before requests come (a cluster client's view of the cluster), and
        listen to the revocations (api/revocations.py)."""
        await self.redises.open()
        if self.revoked is None:
            self.revoked = revocations.Listener(self.redises.queue, self.wake_streams)
        self.revoked.start()

    async def signed_out(self, principal: Principal, everywhere: bool) -> None:
        """After a sign-out everywhere, the player's open streams end at once (a single session's end at their
        periodic recheck: a sign-out is common, and each revocation wakes every stream of every process)."""
        if everywhere:
            await revocations.publish(self.redises.queue, principal.player.id)

    def wake_streams(self) -> None:
        """Wake every stream reader of this process (each stream then looks at its credential again)."""
        self.fanout.wake_all()
        self.feeds.wake_all()
        self.chat_hub.wake_all()

    async def close(self) -> None:
        """Release the connections."""
        if self.revoked is not None:
            await self.revoked.stop()
        await self.fanout.close()
        await self.chat_hub.close()
        await self.feeds.close()
        await self.redises.aclose()
        if self.archive is not None:
            self.archive.close()

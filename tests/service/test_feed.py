"""A player's own event stream (issue 25, section 1): the match events are written with the player's index row, once
per transition, with ids and public facts only, over real HTTP, a real Redis and real workers."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from firebreak.matches import feed, keys
from firebreak.matches.config import Settings
from firebreak.matches.feed import FeedType
from firebreak.matches.store import MatchStore
from tests.service.conftest import Client, service_env
from tests.service.players_support import guest
from tests.service.support import create, play_to_end, wait_for
from tests.service.test_my_matches import seat_player, two_seats
from tests.service.test_rematch_invites import INVITE, REMATCH

MATCH_FACTS = {"id", "type", "at", "matchId", "title", "seat", "version"}


def events(redis: Redis, player: str) -> list[dict[str, Any]]:
    """The player's feed, oldest first, as clients get it."""
    return [feed.FeedEvent.parse(entry_id, fields).to_json() for entry_id, fields in redis.xrange(keys.feed(player))]


def test_two_players_feeds_hold_each_transition_once_with_public_facts_only(client: Client, redis: Redis) -> None:
    """Both play a 2-seat match to its end: each gets matchStarted once, yourTurn each time the match comes to
    them (never twice in a row without the other seat acting between), and matchEnded once with the winners; no
    event carries anything but the listed public facts."""
    first, second = guest(client, "feed one"), guest(client, "feed two")
    s = two_seats(client, first, 0, other=second)
    played = play_to_end(client, s, random.Random(3))
    for who, seat in ((first, 0), (second, 1)):
        wait_for(lambda who=who: any(e["type"] == "matchEnded" for e in events(redis, who.player)), "matchEnded")
        got = [e for e in events(redis, who.player) if e.get("matchId") == s.match_id]
        kinds = [e["type"] for e in got]
        assert kinds.count("matchStarted") == 1 and kinds[0] == "matchStarted", kinds
        assert kinds.count("matchEnded") == 1 and kinds[-1] == "matchEnded", kinds
        assert kinds.count("yourTurn") >= 1
        assert played.accepted[seat] >= kinds.count("yourTurn")
        for event in got:
            extra = {"reason", "winners"} if event["type"] == "matchEnded" else set()
            assert set(event) == MATCH_FACTS | extra, event
            assert event["seat"] == seat and event["title"] == "greatfire"
        ended = got[-1]
        assert ended["reason"] == "finished" and ended["winners"] == played.final["result"]["winners"]
        ids = [e["id"] for e in events(redis, who.player)]
        assert ids == sorted(ids, key=feed.cursor_order) and len(set(ids)) == len(ids)


def test_a_bots_reply_brings_a_your_turn_and_the_webhooks_are_told(client: Client, redis: Redis,
                                                                    redis_url: str) -> None:
    """Against a bot: the start writes matchStarted and yourTurn and marks the player for the webhooks' forwarder;
    played to its end, each time the bot's reply (a worker's commit) hands the match back, a new yourTurn."""
    me = guest(client, "feed vs bot")
    s = two_seats(client, me, 0, bot=True)
    wait_for(lambda: [e["type"] for e in events(redis, me.player)] == ["matchStarted", "yourTurn"], "the start")
    queue = Settings.from_env(service_env(redis_url)).queue
    # Marked for the forwarder, or already forwarded: the service's own forwarder may have run since, and it moves
    # the player's forwarded cursor before it drops the mark (notifications/webhooks/forwarder.py).
    marked = redis.zscore(keys.feed_pending(queue), me.player) is not None
    assert marked or redis.get(keys.feed_forwarded(me.player)) == events(redis, me.player)[-1]["id"]
    play_to_end(client, s, random.Random(11))
    wait_for(lambda: events(redis, me.player)[-1]["type"] == "matchEnded", "the end")
    kinds = [e["type"] for e in events(redis, me.player)]
    assert kinds.count("yourTurn") >= 2, kinds  # the match left the player's turn and a bot's step brought it back
    assert kinds.count("matchStarted") == kinds.count("matchEnded") == 1


def test_emit_writes_once_per_dedupe_key_and_reads_resume_from_a_cursor(redis_url: str, redis: Redis) -> None:
    """emit() twice with one key writes one event (the same id both times); read() after each id gives the rest,
    with no gap or duplicate."""
    settings = Settings.from_env(service_env(redis_url))

    async def scenario() -> tuple[list[str], list[list[str]]]:
        client = AsyncRedis.from_url(redis_url, decode_responses=True)
        store = MatchStore(client, settings, client)
        player = "feed-emit-test"
        await client.delete(keys.feed(player), keys.feed_seen(player))
        ids = [await feed.emit(store, player, FeedType.INVITED, {"matchId": f"m{n}", "by": "p"}, f"k{n}")
               for n in range(5)]
        again = await feed.emit(store, player, FeedType.INVITED, {"matchId": "m0", "by": "p"}, "k0")
        assert again == ids[0]
        tails = [[e.id for e in await feed.read(client, player, after)] for after in ["0", *ids]]
        await client.aclose()
        return ids, tails

    ids, tails = asyncio.run(scenario())
    for n, tail in enumerate(tails):
        assert tail == ids[n:]
    raw = redis.xrange(keys.feed("feed-emit-test"))
    assert len(raw) == 5 and json.loads(raw[0][1]["e"])["type"] == "invited"


def test_a_player_joining_a_waiting_match_gets_no_event_until_it_starts(client: Client, redis: Redis) -> None:
    """Seated in a waiting match: nothing; the second seat taken: matchStarted (and yourTurn for the seat to act)."""
    first, second = guest(client, "feed waiting one"), guest(client, "feed waiting two")
    s = create(client, 2, 0)
    seat_player(client, s, first, 0)
    assert events(redis, first.player) == []
    seat_player(client, s, second, 1)
    wait_for(lambda: [e["type"] for e in events(redis, first.player)] == ["matchStarted", "yourTurn"], "start")
    assert [e["type"] for e in events(redis, second.player)] == ["matchStarted"]


def test_an_invitation_and_a_rematch_reach_the_players_feeds_once(client: Client, redis: Redis) -> None:
    """invited: to the invited player, naming the match and who invited; rematchOffered to the other player of the
    finished match, rematchAccepted to the offerer, rematchStarted to each once, however many times they ask."""
    host, guest_player = guest(client, "feed host"), guest(client, "feed invitee")
    s = create(client, 2, 0)
    seat_player(client, s, host, 0)
    sent = client.gql(INVITE, {"id": s.match_id, "players": [guest_player.player]}, s.host)["invitePlayers"]
    assert sent["__typename"] == "PlayersInvited", sent
    invited = [e for e in events(redis, guest_player.player) if e["type"] == "invited"]
    assert len(invited) == 1 and set(invited[0]) == {"id", "type", "at", "matchId", "title", "by"}
    assert (invited[0]["matchId"], invited[0]["by"]) == (s.match_id, None)  # by the host token: no player
    seat_player(client, s, guest_player, 1)
    played = play_to_end(client, s, random.Random(5))
    assert played.final["status"] == "OVER"
    for who in (host, guest_player, host):
        answer = client.gql(REMATCH, {"id": s.match_id}, who.access)["rematch"]
        assert answer["__typename"] == "Rematched", answer
    assert [e["type"] for e in events(redis, host.player) if e["type"].startswith("rematch")] == [
        "rematchAccepted", "rematchStarted"]  # the host offered: the guest accepted, and it was made
    offered = [e for e in events(redis, guest_player.player) if e["type"] == "rematchOffered"]
    assert len(offered) == 1, offered
    assert offered[0]["of"] == s.match_id and offered[0]["seat"] == 0 and offered[0]["by"] == 0
    assert offered[0]["matchId"] == answer["matchId"]
    for who, seat in ((host, 0), (guest_player, 1)):
        started = [e for e in events(redis, who.player) if e["type"] == "rematchStarted"]
        assert len(started) == 1 and started[0]["matchId"] == answer["matchId"], started
        assert started[0]["seat"] == 1 - seat

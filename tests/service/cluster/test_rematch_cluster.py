"""Rematch, private matches, invitations and the filtered lobby over a Redis Cluster (two API processes, real
workers): the rematch claim lives in the over match's slot, the invite code's lookup in a slot of its own, the
invited hash in the match's slot and the player's index in the player's."""

from __future__ import annotations

from redis.cluster import RedisCluster, key_slot

from firebreak.matches import keys
from firebreak.players import keys as player_keys
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import JOIN, guest
from tests.service.test_rematch_invites import (
    ANSWER,
    CREATE,
    INVITE,
    LIST,
    MY_INVITATIONS,
    OLD,
    _finished,
    _rematch_concurrently,
)


def test_concurrent_rematch_calls_over_the_cluster_make_one_match(client: Client, server: str, second_server: str,
                                                                  redis: RedisCluster) -> None:
    s, ann, anonymous = _finished(client, 2701)
    answers = _rematch_concurrently([server, second_server], s.match_id,
                                    [ann.access if n % 2 else anonymous for n in range(10)])
    new_ids = {a["matchId"] for a in answers}
    assert len(new_ids) == 1, answers
    new_id = new_ids.pop()
    assert key_slot(keys.rematch(s.match_id).encode()) == key_slot(keys.archive(s.match_id).encode())
    assert redis.get(keys.rematch(s.match_id)) == new_id
    assert client.gql(OLD, {"id": s.match_id})["match"]["rematch"] == {"id": new_id}
    assert h.state(client, new_id, ann.access)["you"] == 1


def test_a_private_match_and_its_invitations_over_the_cluster(client: Client, redis: RedisCluster) -> None:
    host, cat = guest(client, "host"), guest(client, "cat")
    created = client.gql(CREATE, {"input": {"title": "greatfire", "seats": 3, "private": True}},
                         host.access)["createMatch"]
    match_id = created["matchId"]
    sent = client.gql(INVITE, {"id": match_id, "players": [cat.player]}, host.access)["invitePlayers"]
    assert sent["__typename"] == "PlayersInvited", sent
    assert redis.zscore(player_keys.invitations(cat.player), match_id) is not None
    assert [i["match"]["id"] for i in client.gql(MY_INVITATIONS, token=cat.access)["me"]["invitations"]] == [match_id]
    accepted = client.gql(ANSWER, {"id": match_id, "accept": True}, cat.access)["answerInvitation"]
    assert accepted["accepted"], accepted
    joined = client.gql(JOIN, {"input": {"code": created["inviteCode"]}})["joinMatch"]
    assert joined["__typename"] == "SeatJoined", joined
    page = client.gql(LIST, {"status": "WAITING", "first": 50, "seats": 3, "free": 1})["matches"]
    assert match_id not in {m["id"] for m in page["items"]}
    listed = h.create(client, 5, 2702)
    filtered = client.gql(LIST, {"status": "WAITING", "first": 50, "seats": 5, "free": 5})["matches"]["items"]
    assert listed.match_id in {m["id"] for m in filtered}

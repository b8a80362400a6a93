"""Secrets stay with their owner: hands, objectives, token identities and (under Hidden Colours) colours are
shown only in the owning seat's "you"; private events reach only their audience; spectators and the host token
read a spectator's view, another match's token and a made-up token are refused (UNAUTHORIZED); tokens, their
hashes and the seed never appear in any answer but the one that issued them."""

from __future__ import annotations

import json
import random

from redis import Redis

from firebreak.matches import keys
from tests.service import support as h

STEPS = 60


def test_every_viewer_sees_only_its_own_secrets_while_people_play(server: str, redis: Redis) -> None:
    with h.recording(server) as c:
        s = h.create(c, 4, 77, {"hiddenColours": True})
        for n in range(4):
            h.join(c, s, f"p{n}")
        stranger = h.all_human_match(c, seats=3, seed=78).humans[0]
        # viewer label -> (token, the seat it must read as)
        viewers: dict[str, tuple[str | None, int | None]] = {
            f"seat {seat}": (token, seat) for seat, token in s.humans.items()}
        viewers |= {"spectator": (None, None), "host": (s.host, None)}
        for wrong in (stranger, "not-a-token-at-all"):
            refused = c.post(h.STATE, {"id": s.match_id}, wrong).json()
            assert refused["data"] == {"match": None}, refused
            assert [e["extensions"]["code"] for e in refused["errors"]] == ["UNAUTHORIZED"], refused
        rng = random.Random(77)
        humans = set(s.humans)
        private_seen = 0
        for step in range(STEPS):
            reads = {label: h.state(c, s.match_id, token) for label, (token, _seat) in viewers.items()}
            for label, (_token, seat) in viewers.items():
                h.check_match(reads[label], seat, humans, hidden=True)
            if step % 10 == 0:
                # the view each caller gets is exactly the engine's view for the seat the token holds
                engine, _ = h.replay(s, h.stored(redis, s.match_id)["log"])
                for label, (_token, seat) in viewers.items():
                    assert reads[label]["view"] == json.loads(json.dumps(engine.view(seat))), label
            seat, token, m = h.to_act(c, s)
            result = h.act(c, s.match_id, token, rng.choice(m["legalActions"]), m["version"])
            assert result["__typename"] == "ActionAccepted", result
            h.check_events(result["events"], seat)
            private_seen += sum("audience" in e for e in result["events"])
        assert private_seen, "no private event came back to the acting seat: the check saw nothing to check"
        version = h.state(c, s.match_id, None)["version"]
        assert version == STEPS
        for viewer_token, seat in viewers.values():
            rows = h.all_events(c, s.match_id, viewer_token)
            assert [r["version"] for r in rows] == list(range(1, version + 1))
            for row in rows:
                h.check_events(row["events"], seat)
        h.check_event_log(c, s, version)
        h.check_redaction(c, redis, s, {s.host: None})
        h.check_replay(redis, s)
        c.assert_secrets_confined()


def test_hidden_colours_stay_hidden_from_every_other_seat(server: str) -> None:
    """Under hiddenColours, a seat learns its own colours (in "you") and nobody else's, from any field."""
    with h.recording(server) as c:
        s = h.create(c, 5, 91, {"hiddenColours": True})
        for n in range(5):
            h.join(c, s, f"p{n}")
        own = {}
        for seat, token in s.humans.items():
            m = h.state(c, s.match_id, token)
            h.check_match(m, seat, set(s.humans), hidden=True)
            own[seat] = m["view"]["you"]["colours"]
            assert m["view"]["players"][seat]["colours"] is None
        assert all(own.values())
        assert len({tuple(v) for v in own.values()}) == 5, "two seats were told the same colours"
        spectator = h.state(c, s.match_id, None)
        h.check_match(spectator, None, set(s.humans), hidden=True)
        for row in h.all_events(c, s.match_id, None):
            for e in row["events"]:
                assert "colours" not in e or e["type"] == "priorityCardFlipped", f"an event shows colours: {e}"


def test_tokens_hashes_and_the_seed_never_leave_their_answer(server: str, redis: Redis) -> None:
    """A match created without a seed: the seed the service drew, the seat tokens, their stored hashes and the
    host token appear nowhere but in the one answer that issued each token, whatever is asked."""
    with h.recording(server) as c:
        created = c.gql(h.CREATE, {"input": {"title": "greatfire", "seats": 3}})["createMatch"]
        s = h.Setup(created["matchId"], created["hostToken"], 3, -1, created["match"]["options"])
        c.origins[s.host] = len(c.bodies) - 1
        h.join(c, s, "ann")
        h.join(c, s, "bob", seat=2)
        h.add_bot(c, s, "random")
        seed = str(redis.hget(keys.meta(s.match_id), "seed"))
        assert len(seed) >= 6, seed
        tokens = list(s.humans.values())
        for token in [None, s.host, *tokens]:
            h.state(c, s.match_id, token)
            h.all_events(c, s.match_id, token)
            c.gql("""query { matches(status: ACTIVE, first: 100) { items { id you view seats { name kind } } } }""",
                  token=token)
            c.gql("""query { matches(status: WAITING, first: 100) { items { id you view } } }""", token=token)
        # refusals of requests made with the tokens (the requests never carry a token anywhere but the header)
        other = h.all_human_match(c, seats=3, seed=3)
        for token in [s.host, *tokens]:
            h.act(c, s.match_id, token, {"type": "nope"}, 0, key="k1")
            h.act(c, s.match_id, token, {"type": "endActions"}, 10**6)
            h.act(c, other.match_id, token, {"type": "endActions"}, 0)
            h.act(c, "0123456789abcdef", token, {"type": "endActions"}, 0)
            c.post(h.BOT, {"input": {"matchId": s.match_id, "level": "random"}}, token)
            c.post(h.BOT, {"input": {"matchId": other.match_id, "level": "random"}}, token)
            c.post(h.JOIN, {"input": {"matchId": s.match_id, "name": "late"}}, token)
            c.post(h.STATE.replace("match(id: $id)", "match(id: $id, x: 1)"), {"id": s.match_id}, token)
        h.wait_for(lambda: h.state(c, s.match_id, None)["status"] == "OVER" or
                   h.state(c, s.match_id, None)["toAct"], "the match to wait for a person")
        c.assert_secrets_confined()
        for n, body in enumerate(c.bodies):
            assert seed not in body, f"the secret seed appears in response #{n}: {body[:300]}"

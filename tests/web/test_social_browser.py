"""Friends, blocks, profiles, chat and reports in the web client (issue 49), in headless Chromium, two (or three)
browser contexts for two players (and a spectator) against the real service.

Chat: two players at a table with a bot talk on the match page and each sees the other's message without a reload;
a preset is answered by the bot seat; a signed-in spectator writes in the spectators' channel, which the seats read
in their second tab and a signed-out visitor reads without a send box; a message that looks like HTML shows as its
characters; a refused message is worded (a bidirectional override, a mute); a report filed from the page reaches the
operator's list (the admin API). Friends: two players find each other by the start of a handle, one asks, the other
accepts, both see the other online with the live public match to watch; one blocks the other and the friendship
goes, on both pages, and the block is listed (and lifted)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis import Redis

from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import Signed, guest, rest
from tests.service.test_account_deletion import deletion_done, seated_match
from tests.web.test_browser import MATCH, opened
from tests.web.test_phone_browser import MIN_TARGET, TOUCH, check_fits
from tests.web.test_players_browser import sign_in

ADMIN = "admin-" + secrets.token_urlsafe(24)
REPORTS = """query { reports(status: OPEN, first: 100) { __typename
  ... on ReportPage { reports { id reporter player matchId channel seq message reason note } }
  ... on Problem { code } } }"""
CHAT = "[data-testid=chat]"
BURST = 5
SEND = """mutation($input: SendChatMessageInput!) { sendChatMessage(input: $input) { __typename } }"""
# Every thing to tap in the chat panel, with its size, and how far right the panel reaches.
CHAT_TARGETS_JS = """() => { const chat = document.querySelector('[data-testid=chat]');
  const shown = [...chat.querySelectorAll('button, input, select, a[href]')].filter((el) => el.offsetParent !== null);
  return { right: chat.getBoundingClientRect().right, scroll: chat.scrollWidth - chat.clientWidth,
    targets: shown.map((el) => { const r = el.getBoundingClientRect();
      return { testid: el.dataset.testid || el.tagName, tag: el.tagName, width: r.width, height: r.height }; }) }; }"""
HOSTILE = '<img src=x onerror="window.__pwned = 1"><b>bold</b>'


@pytest.fixture(scope="module")
def svc(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[h.Private]:
    """An API (serving the web client) and a worker of their own, with an admin token to read the reports; a
    sender's chat burst is 5 messages as by default, refilled at one message in two minutes (a test that sends
    more in a row meets RATE_LIMITED however slowly it runs)."""
    with h.private_service(redis_url, tmp_path_factory.mktemp("social-web"), "firebreak-social-web", api=True,
                           workers=1, FIREBREAK_ADMIN_TOKEN=ADMIN, FIREBREAK_CHAT_BURST=str(BURST),
                           FIREBREAK_CHAT_PER_MINUTE="0.5") as service:
        service.wait_reconciling()
        yield service


def signed(page: Any, name: str) -> Signed:
    """Sign in on the page as a guest; the session the page keeps, as the service tests name it."""
    player = sign_in(page, name)
    kept = json.loads(page.evaluate("() => localStorage.getItem('firebreak.session')"))
    assert kept["player"]["id"] == player
    return Signed(player, name, kept["accessToken"], kept["refreshToken"])


def message(page: Any, channel: str, text: str) -> Any:
    """The chat message of that channel showing exactly that text (waited for)."""
    item = page.locator(f"{CHAT} [data-testid=chat-message][data-channel={channel}]").filter(
        has=page.locator("[data-testid=chat-text]", has_text=text))
    item.first.wait_for()
    return item.first


def say(page: Any, text: str) -> None:
    page.locator(f"{CHAT} [data-testid=chat-input]").fill(text)
    page.locator(f"{CHAT} [data-testid=chat-send]").click()


def test_two_players_and_a_spectator_chat_beside_the_board(browser: Any, svc: h.Private, screenshots: Path) -> None:
    assert svc.base is not None
    tag = secrets.token_hex(3)
    with svc.client() as c, opened(browser, svc.base) as a, opened(browser, svc.base) as b, \
            opened(browser, svc.base) as s, opened(browser, svc.base) as anon:
        ann, bob = signed(a.page, f"Ann{tag}"), signed(b.page, f"Bob{tag}")
        setup = seated_match(c, ann, [bob], 3, bots=1, seed=4242)
        bot_seat = next(iter(setup.bots))
        for p in (a, b):
            p.page.goto(f"/#/match/{setup.match_id}")
            p.page.locator(f"{MATCH}[data-status=ACTIVE]").wait_for()
            p.page.locator(f"{CHAT}[data-channel=SEATS]").wait_for()
        assert a.page.get_attribute(MATCH, "data-viewer") == "seat-0"

        # Each sees the other's message live (the subscription), with the sender's name and @handle.
        say(a.page, "hello bob")
        seen = message(b.page, "SEATS", "hello bob")
        assert seen.get_by_test_id("chat-name").inner_text() == ann.name
        assert seen.get_by_test_id("chat-handle").inner_text().startswith(f"@ann{tag}-")
        say(b.page, "hi ann, good luck")
        message(a.page, "SEATS", "hi ann, good luck")

        # A preset is a tap; the bot seat answers it with its own preset.
        a.page.locator(f"{CHAT} [data-testid=chat-preset][data-preset=goodLuck]").click()
        bot_said = f"{CHAT} [data-testid=chat-message][data-seat='{bot_seat}'][data-preset]"
        b.page.locator(bot_said).first.wait_for()
        a.page.locator(bot_said).first.wait_for()

        # HTML-looking text is shown as its characters: no element made, no script run.
        say(b.page, HOSTILE)
        hostile = message(a.page, "SEATS", "onerror")
        assert hostile.get_by_test_id("chat-text").inner_text() == HOSTILE
        assert a.page.locator(f"{CHAT} img, {CHAT} .chat-text b").count() == 0
        assert a.page.evaluate("() => window.__pwned") is None

        # A refusal in words: a bidirectional override changes nothing.
        say(b.page, "evil \u202egnp.exe")
        b.page.locator(f"{CHAT} [data-testid=chat-said][data-code=BAD_MESSAGE]").wait_for()
        assert "direction" in b.page.get_by_test_id("chat-said").inner_text()
        assert b.page.locator(f"{CHAT} [data-testid=chat-message]", has_text="gnp.exe").count() == 0

        # Past the burst, a sender is told to wait (Bob has sent 3 messages, the refused override included).
        refused = None
        for n in range(BURST + 3):
            say(b.page, f"more {n}")
            b.page.wait_for_function("""n => document.querySelector('[data-testid=chat-said]').dataset.code
              === 'RATE_LIMITED' || [...document.querySelectorAll('[data-testid=chat-message]')].some(
              (m) => m.textContent.includes(`more ${n}`))""", arg=n)
            if b.page.get_by_test_id("chat-said").get_attribute("data-code") == "RATE_LIMITED":
                refused = n
                break
        assert refused is not None and refused >= BURST - 3, refused
        assert "wait a moment" in b.page.get_by_test_id("chat-said").inner_text()
        assert b.page.locator(f"{CHAT} [data-testid=chat-message]", has_text=f"more {refused}").count() == 0
        assert b.page.get_by_test_id("chat-input").input_value() == f"more {refused}"  # kept, to send later

        # A signed-in spectator writes in the spectators' channel (and has no seats' tab).
        cat = signed(s.page, f"Cat{tag}")
        s.page.goto(f"/#/watch/{setup.match_id}")
        s.page.locator(f"{CHAT}[data-channel=SPECTATORS]").wait_for()
        assert s.page.locator(f"{CHAT} [data-testid=chat-tab]").count() == 0
        say(s.page, "go ann go")
        message(s.page, "SPECTATORS", "go ann go")
        assert s.page.locator(f"{CHAT} [data-channel=SEATS]").count() == 0
        # The seats read it in their second tab, where they have no send box.
        a.page.locator(f"{CHAT} [data-testid=chat-tab][data-channel=SPECTATORS]").click()
        message(a.page, "SPECTATORS", "go ann go")
        assert not a.page.locator(f"{CHAT} [data-testid=chat-input]").is_visible()
        assert a.page.get_by_test_id("chat-read-only").is_visible()
        a.page.locator(f"{CHAT} [data-testid=chat-tab][data-channel=SEATS]").click()
        # Signed out: the spectators' channel, read-only.
        anon.page.goto(f"/#/watch/{setup.match_id}")
        message(anon.page, "SPECTATORS", "go ann go")
        assert not anon.page.locator(f"{CHAT} [data-testid=chat-input]").is_visible()
        assert anon.page.locator(f"{CHAT} [data-testid=chat-report]").count() == 0

        # A muted spectator is told until when.
        muted = rest(svc.base, "PUT", f"/v1/admin/players/{cat.player}/mute", ADMIN, {"seconds": 600})
        assert muted.status_code == 200, muted.text
        say(s.page, "am I muted?")
        s.page.locator(f"{CHAT} [data-testid=chat-said][data-code=MUTED]").wait_for()
        assert "muted until" in s.page.get_by_test_id("chat-said").inner_text()

        # Ann reports Bob's message from the page; the operator's list has it, its text kept.
        reported = message(a.page, "SEATS", "hi ann, good luck")
        seq = int(reported.get_attribute("data-seq"))
        reported.get_by_test_id("chat-report").click()
        reported.get_by_test_id("report-reason").select_option("ABUSE")
        reported.get_by_test_id("report-note").fill("rude <b>note</b>")
        reported.get_by_test_id("report-send").click()
        reported.get_by_test_id("report-filed").wait_for()
        assert a.page.locator(f"{CHAT} [data-testid=chat-message].mine [data-testid=chat-report]").count() == 0
        a.page.screenshot(path=str(screenshots / "chat-beside-the-board.png"), full_page=True)
        # Bob's @handle leads to his profile, where Ann reports the player himself.
        reported.get_by_test_id("chat-handle").click()
        a.page.locator(f"[data-testid=profile-facts][data-player='{bob.player}']").wait_for()
        a.page.get_by_test_id("report-player").click()
        a.page.get_by_test_id("report-reason").select_option("NAME")
        a.page.get_by_test_id("report-send").click()
        a.page.get_by_test_id("report-filed").wait_for()

        listed = c.gql(REPORTS, token=ADMIN)["reports"]["reports"]
        mine = [(r["reporter"], r["player"], r["matchId"], r["channel"], r["seq"], r["reason"], r["note"],
                 r["message"]) for r in listed if r["reporter"] == ann.player]
        assert mine == [(ann.player, bob.player, setup.match_id, "SEATS", seq, "ABUSE", "rude <b>note</b>",
                         "hi ann, good luck"), (ann.player, bob.player, None, None, None, "NAME", "", None)], mine


def test_a_seat_token_person_chats_and_a_deleted_players_message_reads_removed(browser: Any, server: str,
                                                                              redis_url: str) -> None:
    """A person seated by a seat token (no sign-in) writes in the seats' channel and reads the spectators'; a
    spectator who deleted their account since left "message removed" (no name, no handle, nothing to report)."""
    c = Client(server)
    redis = Redis.from_url(redis_url, decode_responses=True)
    try:
        s = h.create(c, 2, 93)
        seat = h.join(c, s, "Tok")
        h.add_bot(c, s, "random")
        gone = guest(c, "Gone")
        said = c.gql(SEND, {"input": {"matchId": s.match_id, "channel": "SPECTATORS", "text": "soon gone"}},
                     gone.access)["sendChatMessage"]
        assert said["__typename"] == "ChatMessageSent", said
        assert rest(server, "DELETE", "/v1/me", gone.access).status_code == 202
        h.wait_for(lambda: deletion_done(redis, gone.player), "the deletion", deadline=90)
        with opened(browser, server) as p:
            page = p.page
            page.goto("/")
            page.evaluate("""([id, rec]) => localStorage.setItem('firebreak.matches', JSON.stringify({[id]: rec}))""",
                          [s.match_id, {"token": seat["token"], "seat": seat["seat"], "name": "Tok", "at": 1}])
            page.goto(f"/#/match/{s.match_id}")
            page.locator(f"{MATCH}[data-viewer='seat-{seat['seat']}']").wait_for()
            page.locator(f"{CHAT}[data-channel=SEATS]").wait_for()
            say(page, "from my seat token")
            mine = message(page, "SEATS", "from my seat token")
            assert mine.get_attribute("class") == "chat-message mine"
            assert mine.get_by_test_id("chat-name").inner_text() == "Tok"
            assert mine.get_by_test_id("chat-handle").count() == 0 and mine.get_by_test_id("chat-report").count() == 0
            page.locator(f"{CHAT} [data-testid=chat-tab][data-channel=SPECTATORS]").click()
            removed = page.locator(f"{CHAT} [data-testid=chat-message][data-channel=SPECTATORS][data-removed=true]")
            removed.wait_for()
            assert removed.get_by_test_id("chat-text").inner_text() == "message removed"
            assert removed.get_by_test_id("chat-handle").count() == 0
            assert removed.get_by_test_id("chat-report").count() == 0
            assert "soon gone" not in page.locator(CHAT).inner_text()
    finally:
        redis.close()
        c.http.close()


def befriend_page(page: Any) -> None:
    page.get_by_test_id("friends-link").click()
    page.get_by_test_id("friends-view").wait_for()


def person(page: Any, where: str, player: str) -> Any:
    return page.locator(f"[data-testid={where}] [data-testid=person][data-player='{player}']")


def test_two_players_become_friends_then_one_blocks_the_other(browser: Any, server: str) -> None:
    tag = secrets.token_hex(3)
    c = Client(server)
    try:
        with opened(browser, server) as a, opened(browser, server) as b:
            ann, bob = signed(a.page, f"Fa{tag}"), signed(b.page, f"Fb{tag}")
            ann_handle = a.page.get_by_test_id("my-handle").inner_text().removeprefix("@")
            # Ann plays a live public match (against a bot), for her friends to watch.
            live = seated_match(c, ann, [], 2, bots=1, seed=77)

            # Bob finds Ann by the start of her handle, in capitals, and asks.
            befriend_page(b.page)
            b.page.get_by_test_id("search-prefix").fill(ann_handle[:8].upper())
            b.page.get_by_test_id("search").click()
            found = person(b.page, "search-results", ann.player)
            found.wait_for()
            assert found.get_attribute("data-handle") == ann_handle
            found.get_by_test_id("add-friend").click()
            person(b.page, "outgoing-requests", ann.player).wait_for()
            asked = f"[data-testid=search-results] [data-player='{ann.player}'][data-relation=outgoing]"
            b.page.locator(asked).wait_for()

            # Her profile: handle, name, member since.
            found.get_by_test_id("profile-link").click()
            b.page.get_by_test_id("profile-view").wait_for()
            b.page.locator(f"[data-testid=profile-facts][data-player='{ann.player}']").wait_for()
            assert b.page.get_by_test_id("profile-handle").inner_text() == f"@{ann_handle}"
            assert b.page.get_by_test_id("profile-name").inner_text() == ann.name
            assert b.page.get_by_test_id("member-since").inner_text()

            # On her profile Bob takes the request back, and asks again.
            facts = b.page.get_by_test_id("profile-facts")
            facts.locator("[data-relation=outgoing]").get_by_test_id("cancel-request").click()
            facts.locator("[data-relation=none]").get_by_test_id("add-friend").click()
            facts.locator("[data-relation=outgoing]").wait_for()

            # Ann declines; Bob's request is gone from his page (read again) and he asks once more from a search.
            befriend_page(a.page)
            person(a.page, "incoming-requests", bob.player).get_by_test_id("decline-friend").click()
            person(a.page, "incoming-requests", bob.player).wait_for(state="detached")
            befriend_page(b.page)
            b.page.get_by_test_id("friends-view").wait_for()
            b.page.locator("[data-testid=outgoing-requests] li.muted").wait_for()
            assert person(b.page, "outgoing-requests", ann.player).count() == 0
            b.page.get_by_test_id("search-prefix").fill(ann_handle[:8])
            b.page.get_by_test_id("search").click()
            person(b.page, "search-results", ann.player).get_by_test_id("add-friend").click()
            person(b.page, "outgoing-requests", ann.player).wait_for()

            # Ann accepts (her page shows the request without a reload), and both see the other online.
            incoming = person(a.page, "incoming-requests", bob.player)
            incoming.get_by_test_id("accept-friend").click()
            person(a.page, "friends", bob.player).locator("[data-testid=presence][data-online=true]").wait_for()
            befriend_page(b.page)
            anns = person(b.page, "friends", ann.player)
            anns.locator("[data-testid=presence][data-online=true]").wait_for()
            watch = anns.locator(f"[data-testid=watch-friend][data-match='{live.match_id}']")
            watch.wait_for()

            # Ann blocks Bob: he leaves her friends for her blocks, and she leaves his friends (read again).
            person(a.page, "friends", bob.player).get_by_test_id("block").click()
            person(a.page, "blocks", bob.player).wait_for()
            assert person(a.page, "friends", bob.player).count() == 0
            person(b.page, "friends", ann.player).wait_for(state="detached")
            b.page.get_by_test_id("search-prefix").fill(ann_handle[:8])
            b.page.get_by_test_id("search").click()
            # A block is private: Bob sees Ann as anyone, and his new request is refused in general words.
            again = b.page.locator(f"[data-testid=search-results] [data-player='{ann.player}'][data-relation=none]")
            again.get_by_test_id("add-friend").click()
            b.page.wait_for_function(
                "() => document.querySelector('[data-testid=friends-message]').textContent.length > 0")
            assert person(b.page, "outgoing-requests", ann.player).count() == 0

            # Unblocking lifts it (the friendship stays ended).
            person(a.page, "blocks", bob.player).get_by_test_id("unblock").click()
            person(a.page, "blocks", bob.player).wait_for(state="detached")
            assert person(a.page, "friends", bob.player).count() == 0

            # Unblocked, Bob may ask again; friends once more, he ends it and Ann's list drops him (read again).
            b.page.get_by_test_id("search").click()
            person(b.page, "search-results", ann.player).get_by_test_id("add-friend").click()
            person(a.page, "incoming-requests", bob.player).get_by_test_id("accept-friend").click()
            person(a.page, "friends", bob.player).wait_for()
            person(b.page, "friends", ann.player).get_by_test_id("remove-friend").click()
            person(b.page, "friends", ann.player).wait_for(state="detached")
            person(a.page, "friends", bob.player).wait_for(state="detached")
            assert person(b.page, "search-results", ann.player).get_attribute("data-relation") == "none"
    finally:
        c.http.close()


def test_friends_profiles_and_chat_fit_a_phone(browser: Any, server: str, screenshots: Path) -> None:
    """At 360 and 414 px on a touch screen: the friends page with a search result, a profile and a spectator's chat
    are no wider than the screen, and everything to tap there is 44 px at least (a handle in a message is a link
    in a sentence, as the phone test counts them)."""
    tag = secrets.token_hex(3)
    c = Client(server)
    try:
        other, watcher = guest(c, f"Ph{tag}"), guest(c, f"Pw{tag}")
        handle = c.gql("{ me { handle } }", token=other.access)["me"]["handle"]
        live = seated_match(c, other, [], 2, bots=1, seed=91)
        sent = c.gql(SEND, {"input": {"matchId": live.match_id, "channel": "SPECTATORS", "text": "a long "
                                      + "word" * 40}}, watcher.access)["sendChatMessage"]
        assert sent["__typename"] == "ChatMessageSent", sent
        for width in (360, 414):
            with opened(browser, server, viewport={"width": width, "height": 800}, **TOUCH) as p:
                page = p.page
                signed(page, f"Pp{tag}")
                befriend_page(page)
                page.get_by_test_id("search-prefix").fill(handle[:8])
                page.get_by_test_id("search").click()
                person(page, "search-results", other.player).wait_for()
                m = check_fits(page, width, "friends")
                assert m["small"] == [], m["small"]
                person(page, "search-results", other.player).get_by_test_id("profile-link").click()
                page.locator(f"[data-testid=profile-facts][data-player='{other.player}']").wait_for()
                page.get_by_test_id("report-player").click()
                m = check_fits(page, width, "profile")
                assert m["small"] == [], m["small"]

                page.goto(f"/#/watch/{live.match_id}")
                message(page, "SPECTATORS", "a long word")
                page.locator(f"{CHAT} [data-testid=chat-report]").first.click()
                check_fits(page, width, "match")
                found = page.evaluate(CHAT_TARGETS_JS)
                assert found["right"] <= width and found["scroll"] <= 0, found
                small = [t for t in found["targets"] if t["tag"] != "A"
                         and (t["width"] < MIN_TARGET - 0.5 or t["height"] < MIN_TARGET - 0.5)]
                assert found["targets"] and small == [], found
                page.screenshot(path=str(screenshots / f"chat-phone-{width}.png"), full_page=True)
    finally:
        c.http.close()


def test_a_friend_is_invited_to_a_match_from_the_friends_list(browser: Any, server: str) -> None:
    """Ann and Bob are friends; on her friends list Ann picks a title and "Invite to a match": a private match of
    two seats is made with her seated, Bob is invited (he sees it among his invitations), and her page opens it."""
    tag = secrets.token_hex(3)
    c = Client(server)
    try:
        with opened(browser, server) as a:
            ann = signed(a.page, f"Ia{tag}")
            bob = guest(c, f"Ib{tag}")
            asked = c.gql("""mutation($id: ID!) { requestFriend(input: {playerId: $id}) { __typename } }""",
                          {"id": ann.player}, bob.access)["requestFriend"]
            assert asked["__typename"] == "FriendshipChanged", asked
            c.gql("""mutation($id: ID!) { acceptFriend(input: {playerId: $id}) { __typename } }""",
                  {"id": bob.player}, ann.access)
            befriend_page(a.page)
            row = person(a.page, "friends", bob.player)
            row.wait_for()
            row.get_by_test_id("invite-title").select_option("london")
            row.get_by_test_id("invite-friend").click()
            a.page.wait_for_url("**/#/match/*")
            match_id = a.page.url.rsplit("/", 1)[1]
            invited = c.gql("{ me { invitations { match { id title seatCount } } } }",
                            token=bob.access)["me"]["invitations"]
            assert invited == [{"match": {"id": match_id, "title": "london", "seatCount": 2}}], invited
            listed = c.gql('{ matches(status: WAITING, first: 100) { items { id } } }')["matches"]
            assert match_id not in json.dumps(listed)  # private: not in the lobby
    finally:
        c.http.close()

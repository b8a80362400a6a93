// Two players sign in, find each other with seeks, play London and The Great Fire to the end with legal actions
// read from the API, and rematch; against the live service at FIREBREAK_URL (tests/service/test_typescript_client.py).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Player } from './players.mjs';

let ann;
let bob;
const played = [];

before(async () => {
  assert.ok(process.env.FIREBREAK_URL, 'FIREBREAK_URL names the service');
  [ann, bob] = await Promise.all([new Player('ann').signIn(), new Player('bob').signIn()]);
  await Promise.all([ann.follow(), bob.follow()]);
});

after(async () => {
  await Promise.all([ann?.close(), bob?.close()]);
});

/** Both seek a two-seat match of a title; the match the seeks made. */
async function seekEachOther(title) {
  const [mine, theirs] = [await ann.fb.placeSeek({ title, seats: 2 }), await bob.fb.placeSeek({ title, seats: 2 })];
  const [a, b] = await Promise.all([ann.next((e) => e.type === 'seekMatched' && e.seekId === mine.id),
    bob.next((e) => e.type === 'seekMatched' && e.seekId === theirs.id)]);
  assert.equal(a.matchId, b.matchId, 'the two seeks made one match');
  assert.equal((await ann.fb.seek(mine.id)).status, 'MATCHED');
  return a.matchId;
}

/** Plays a match to its end from both sides; the over match as ann sees it. */
async function playOut(matchId) {
  ann.drive(matchId);
  bob.drive(matchId);
  const [over] = await Promise.all([ann.finished(matchId), bob.finished(matchId)]);
  assert.equal(over.status, 'OVER');
  assert.equal(over.endReason, 'FINISHED');
  assert.ok(over.result && over.result.winners.length > 0, 'the match has winners');
  played.push(matchId);
  return over;
}

for (const title of ['london', 'greatfire']) {
  test(`${title}: two players seek, play it to the end and rematch`, async () => {
    const matchId = await seekEachOther(title);
    const match = await ann.fb.match(matchId);
    assert.equal(match.title, title);
    // a refusal is a typed result and changes nothing
    const stale = await ann.fb.act(matchId, { type: 'none' }, match.version + 7);
    assert.equal(stale.code, 'STALE_VERSION');
    assert.equal(stale.code === 'STALE_VERSION' && stale.currentVersion, match.version);
    const waiting = match.toAct.includes(match.you) ? bob : ann;
    const read = await waiting.fb.match(matchId);
    if (read.legalActions.length === 0 && read.version === match.version) {
      const refused = await waiting.fb.act(matchId, match.legalActions[0] ?? { type: 'none' }, read.version);
      assert.ok(['NOT_YOUR_TURN', 'ILLEGAL_ACTION', 'STALE_VERSION'].includes(refused.code), refused.code);
    }
    // the same idempotency key again answers the first outcome and plays nothing more
    const mover = waiting === ann ? bob : ann;
    const now = await mover.fb.match(matchId);
    const key = `first-${matchId}`;
    const once = await mover.fb.act(matchId, now.legalActions[0], now.version, { idempotencyKey: key });
    const twice = await mover.fb.act(matchId, now.legalActions[0], now.version, { idempotencyKey: key });
    assert.equal(once.code, 'ACCEPTED');
    assert.deepEqual(twice, once);
    assert.equal((await ann.fb.match(matchId)).version, once.code === 'ACCEPTED' && once.version);
    const over = await playOut(matchId);
    assert.ok(ann.acted > 0 && bob.acted > 0);
    const late = await ann.fb.act(matchId, { type: 'none' }, over.version);
    assert.equal(late.code, 'MATCH_OVER');

    // rematch: ann offers, bob hears of it on his stream and accepts, both get the same new match
    const offered = await ann.fb.offerRematch(matchId);
    assert.equal(offered.offer.status, 'OPEN');
    assert.equal(offered.match, null);
    await bob.next((e) => e.type === 'rematchOffered' && e.of === matchId);
    const accepted = await bob.fb.acceptRematch(matchId);
    assert.equal(accepted.matchId, offered.matchId);
    assert.equal(accepted.offer.status, 'ACCEPTED');
    assert.equal((await ann.fb.match(matchId)).rematch?.id, accepted.matchId);
    if (title === 'greatfire') await playOut(accepted.matchId);
    else assert.equal((await bob.fb.match(accepted.matchId)).status, 'ACTIVE');
  });
}

test('my matches page by page hold every match played, each once', async () => {
  const ids = [];
  for await (const row of ann.fb.allMyMatches({ first: 1 })) ids.push(row.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of played) assert.ok(ids.includes(id), id);
  const over = await ann.fb.myMatches({ status: 'OVER', first: 50 });
  assert.deepEqual(new Set(over.items.map((m) => m.id)), new Set(played));
});

test('the stream resumes after an event id with every later event once, in order', async () => {
  const kept = ann.seen.filter((e) => e.type !== 'ready');
  assert.ok(kept.length >= 4, kept.length);
  const stop = new AbortController();
  const again = [];
  for await (const event of ann.fb.events({ after: kept[0].id, signal: stop.signal })) {
    if (event.type === 'ready') continue;
    again.push(event);
    if (again.length === kept.length - 1) stop.abort();
  }
  assert.deepEqual(again.map((e) => e.id), kept.slice(1).map((e) => e.id));
});

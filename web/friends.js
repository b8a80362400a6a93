// Friends (#/friends) and a player's public profile (#/players/<handle>), from docs/guides/social.md. The friends
// page finds players by the start of a handle (searchPlayers), lists the friend requests both ways (accept, decline,
// cancel), the friends with their presence (online, else last seen) and live public matches to watch, and the
// players this one blocks (unblock). A profile shows the handle, name, member since, ratings and recent public
// matches, with the friend and block actions that fit and "Report". The friends page is read again while shown (a
// request from someone else shows without a reload). Every name and handle goes in as text (dom.js).

import { CREATE, JOIN, gql } from './api.js';
import { h } from './dom.js';
import { date, t, theirs } from './i18n.js';
import { onMyEvent } from './events.js';
import { reportForm } from './report.js';
import * as session from './session.js';
import * as store from './store.js';

const INVITE = `mutation($input: InvitePlayersInput!) { invitePlayers(input: $input) { __typename
  ... on Problem { code message } } }`;

/** "Invite to a match": a private 2-seat match of the title, the player seated, the friend invited (they answer it
 * from their invitations); then the match page, to wait for them or fill the seats otherwise. */
async function inviteToMatch(friend, title, said) {
  try {
    const made = (await session.call(CREATE, { input: { title, seats: 2, private: true } })).createMatch;
    if (made.__typename !== 'MatchCreated') throw new Error(made.message);
    store.remember(made.matchId, { hostToken: made.hostToken, created: true });
    const sat = (await session.call(JOIN, { input: { matchId: made.matchId } })).joinMatch;
    if (sat.__typename !== 'SeatJoined') throw new Error(sat.message);
    store.remember(made.matchId, { seat: sat.seat, player: true });
    const asked = (await session.call(INVITE, { input: { matchId: made.matchId, playerIds: [friend.id] } }))
      .invitePlayers;
    if (asked.__typename !== 'PlayersInvited') throw new Error(asked.message);
    location.hash = `#/match/${encodeURIComponent(made.matchId)}`;
  } catch (error) {
    said.textContent = t('Could not invite {name}: {reason}', { name: friend.name, reason: error.message });
  }
}

let titlesRead = null; // the service's titles, read once: { id, name }[]
let titleNames = new Map(); // title id -> its name in the reader's language, once read

/** The service's titles (read once per page; [] when they cannot be read, tried again next time). */
function readTitles() {
  if (!titlesRead) {
    titlesRead = gql('{ titles { id name } }').then((d) => d.titles, () => {
      titlesRead = null;
      return [];
    });
  }
  return titlesRead.then((titles) => {
    titleNames = new Map(titles.map((x) => [x.id, theirs(x.name)]));
    return titles;
  });
}

/** A title's name for its id (the id until the titles are read). */
function titleName(id) {
  return titleNames.get(id) || id;
}

/** The invite control of a friend's row: a title to play (the service's titles) and the button. */
function inviteControl(friend) {
  const title = h('select', { 'aria-label': t('Title to play'), 'data-testid': 'invite-title' });
  readTitles().then((titles) => title.replaceChildren(...titles.map((x) => h('option', { value: x.id }, theirs(x.name)))));
  const said = h('span', { class: 'account-error', role: 'status', 'data-testid': 'invite-said' });
  const button = h('button', { type: 'button', class: 'small', 'data-testid': 'invite-friend' }, t('Invite to a match'));
  button.addEventListener('click', async () => {
    button.disabled = true;
    await inviteToMatch(friend, title.value, said);
    button.disabled = false;
  });
  return h('span', { class: 'invite' }, title, ' ', button, said);
}

const POLL_MS = 4000;
const SEARCH_PAGE = 20;
const WHO = 'id handle name';
const SOCIAL = `{ me { id
  friends { player { ${WHO} } since online lastSeen liveMatches { id title } }
  friendRequests { incoming { player { ${WHO} } at } outgoing { player { ${WHO} } at } }
  blocks { player { ${WHO} } since } } }`;
const SEARCH = `query($prefix: String!, $first: Int!, $after: String) {
  searchPlayers(prefix: $prefix, first: $first, after: $after) { players { ${WHO} } endCursor hasNextPage } }`;
const PROFILE = `query($handle: String!) { player(handle: $handle) { id handle name memberSince
  ratings { title value provisional games rank } recentMatches { id title endedAt outcome endReason rated } } }`;
const FRIEND = '... on FriendshipChanged { status } ... on Problem { code message }';
const BLOCK = '... on BlockChanged { blocked } ... on Problem { code message }';
const MUTATIONS = Object.fromEntries([['requestFriend', FRIEND], ['acceptFriend', FRIEND], ['declineFriend', FRIEND],
  ['cancelFriendRequest', FRIEND], ['removeFriend', FRIEND], ['blockPlayer', BLOCK], ['unblockPlayer', BLOCK]]
  .map(([name, answer]) => [name,
    `mutation($input: PlayerRefInput!) { ${name}(input: $input) { __typename ${answer} } }`]));

const OUTCOMES = { WON: t('won'), SHARED: t('shared the win'), LOST: t('lost') };

/** Where the signed-in player stands with each other player: 'friend', 'incoming', 'outgoing' or 'blocked'. */
function relations(me) {
  const out = new Map();
  for (const f of me.friends) out.set(f.player.id, 'friend');
  for (const r of me.friendRequests.incoming) out.set(r.player.id, 'incoming');
  for (const r of me.friendRequests.outgoing) out.set(r.player.id, 'outgoing');
  for (const b of me.blocks) out.set(b.player.id, 'blocked');
  return out;
}

function day(epoch) {
  return date(epoch);
}

/** "last seen 5 minutes ago" (or a date, past a day). */
function seen(epoch) {
  if (!epoch) return t('not seen lately');
  const minutes = Math.max(0, Math.round((Date.now() / 1000 - epoch) / 60));
  if (minutes < 1) return t('last seen just now');
  if (minutes < 60) return t('last seen {n} min ago', { n: minutes });
  if (minutes < 24 * 60) return t('last seen {n} h ago', { n: Math.round(minutes / 60) });
  return t('last seen {day}', { day: day(epoch) });
}

/** Run one friend or block mutation on another player; a refusal's words, or null when it went through. */
async function change(name, playerId) {
  try {
    const r = (await session.call(MUTATIONS[name], { input: { playerId } }))[name];
    return r.__typename === 'FriendshipChanged' || r.__typename === 'BlockChanged' ? null : r.message;
  } catch (error) {
    return error.message;
  }
}

/** The name, @handle (a link to the profile) and the actions that fit how the caller stands with the player. */
function personRow(player, relation, act, extra = []) {
  const button = (testid, text, name, cls = 'small') => h('button', { type: 'button', class: cls,
    'data-testid': testid, onclick: () => act(name, player) }, text);
  const actions = {
    friend: [button('remove-friend', t('Remove friend'), 'removeFriend'), button('block', t('Block'), 'blockPlayer')],
    incoming: [button('accept-friend', t('Accept'), 'acceptFriend', 'small primary'),
      button('decline-friend', t('Decline'), 'declineFriend'), button('block', t('Block'), 'blockPlayer')],
    outgoing: [h('span', { class: 'muted' }, t('Request sent')),
      button('cancel-request', t('Cancel request'), 'cancelFriendRequest'),
      button('block', t('Block'), 'blockPlayer')],
    blocked: [h('span', { class: 'muted' }, t('Blocked')), button('unblock', t('Unblock'), 'unblockPlayer')],
    self: [h('span', { class: 'muted' }, t('You'))],
    none: [button('add-friend', t('Add friend'), 'requestFriend', 'small primary'),
      button('block', t('Block'), 'blockPlayer')],
  }[relation || 'none'];
  return h('li', { class: 'person', 'data-testid': 'person', 'data-player': player.id, 'data-handle': player.handle,
    'data-relation': relation || 'none' },
  h('span', { class: 'who' }, h('strong', {}, player.name), ' ',
    h('a', { href: `#/players/${encodeURIComponent(player.handle)}`, 'data-testid': 'profile-link' },
      `@${player.handle}`), extra),
  h('span', { class: 'actions' }, actions));
}

/** The friends page in root; returns a function that stops its polling. */
export function mountFriends(root) {
  let stopped = false;
  let timer = null;
  let me = null;
  let found = null; // the last search's players (null: no search yet)
  let cursor = null;
  let more = false;
  const message = h('p', { class: 'message', role: 'status', 'data-testid': 'friends-message' });
  const prefix = h('input', { type: 'search', maxlength: 24, placeholder: t('The start of a handle'),
    'aria-label': t('Handle starts with'), 'data-testid': 'search-prefix', autocomplete: 'off' });
  const results = h('ul', { class: 'people', 'data-testid': 'search-results' });
  const moreButton = h('button', { type: 'button', class: 'small', 'data-testid': 'search-more', hidden: true },
    t('More'));
  const search = h('form', { class: 'search-form', 'data-testid': 'search-form' }, prefix,
    h('button', { type: 'submit', 'data-testid': 'search' }, t('Find')));
  const incoming = h('ul', { class: 'people', 'data-testid': 'incoming-requests' });
  const outgoing = h('ul', { class: 'people', 'data-testid': 'outgoing-requests' });
  const friends = h('ul', { class: 'people', 'data-testid': 'friends' });
  const blocks = h('ul', { class: 'people', 'data-testid': 'blocks' });
  const requestsPanel = h('div', { class: 'panel', 'data-testid': 'requests-panel' }, h('h2', {}, t('Friend requests')),
    incoming, outgoing);
  const view = h('section', { class: 'social', 'data-testid': 'friends-view' },
    h('div', { class: 'social-head' }, h('h1', {}, t('Friends')), h('span', { class: 'spacer' }),
      h('a', { href: '#/', class: 'button' }, t('Lobby'))),
    message,
    h('div', { class: 'panel' }, h('h2', {}, t('Find a player')), search, results, moreButton),
    requestsPanel,
    h('div', { class: 'panel' }, h('h2', {}, t('Your friends')), friends),
    h('div', { class: 'panel' }, h('h2', {}, t('Blocked players')),
      h('p', { class: 'muted' }, t('They cannot ask you to be friends, invite you, offer you a rematch or be seated with you by a seek, and you do not see their chat. They are not told.')), blocks));
  root.replaceChildren(view);

  if (!session.signedIn()) {
    view.replaceChildren(h('h1', {}, t('Friends')),
      h('p', { 'data-testid': 'friends-signed-out' }, t('Sign in (at the top of the page) to find players and keep friends. A player\u2019s profile is open to anyone:'), ' ',
        h('a', { href: '#/' }, t('back to the lobby')), '.'));
    return () => {};
  }

  async function act(name, player) {
    message.textContent = '';
    const refused = await change(name, player.id);
    if (stopped) return;
    message.textContent = refused || '';
    await load();
  }

  function draw() {
    const rel = relations(me);
    const list = (el, rows, empty) => el.replaceChildren(...(rows.length ? rows
      : [h('li', { class: 'muted' }, empty)]));
    const fresh = document.activeElement;
    list(incoming, me.friendRequests.incoming.map((r) => personRow(r.player, 'incoming', act,
      [' ', h('span', { class: 'muted' }, t('asks to be your friend'))])), t('No request waits for your answer.'));
    list(outgoing, me.friendRequests.outgoing.map((r) => personRow(r.player, 'outgoing', act)),
      t('You have no request waiting for an answer.'));
    list(friends, me.friends.map((f) => {
      const presence = h('span', { class: `presence${f.online ? ' online' : ''}`, 'data-testid': 'presence',
        'data-online': String(f.online) }, f.online ? t('online') : seen(f.lastSeen));
      const watching = f.liveMatches.map((m) => h('a', { href: `#/watch/${encodeURIComponent(m.id)}`,
        class: 'button', 'data-testid': 'watch-friend', 'data-match': m.id }, t('Watch {title}', { title: titleName(m.title) })));
      return personRow(f.player, 'friend', act, [' ', presence, watching.length ? ' ' : '', watching, ' ',
        inviteControl(f.player)]);
    }), t('No friends yet: find players above and ask them.'));
    list(blocks, me.blocks.map((b) => personRow(b.player, 'blocked', act,
      [' ', h('span', { class: 'muted' }, t('since {day}', { day: day(b.since) }))])), t('You block nobody.'));
    if (found) {
      list(results, found.map((p) => personRow(p, p.id === me.id ? 'self' : rel.get(p.id), act)),
        t('No player\u2019s handle starts with that.'));
    }
    moreButton.hidden = !(found && more);
    if (fresh && fresh !== document.activeElement && view.contains(fresh)) fresh.focus();
  }

  async function load() {
    clearTimeout(timer);
    try {
      await readTitles();
      const read = (await session.call(SOCIAL)).me;
      if (stopped || !read) return;
      // redraw only what changed: a row replaced under a finger pressing its button would lose the click
      const same = me && JSON.stringify(read) === JSON.stringify(me);
      me = read;
      if (!same) draw();
    } catch (error) {
      if (!stopped) message.textContent = t('Cannot read your friends: {reason}', { reason: error.message });
    }
    if (!stopped) timer = setTimeout(load, POLL_MS);
  }

  async function find(next) {
    const text = prefix.value.trim();
    if (!text) return;
    try {
      const page = (await session.call(SEARCH, { prefix: text, first: SEARCH_PAGE, after: next ? cursor : null }))
        .searchPlayers;
      if (stopped) return;
      found = next ? [...(found || []), ...page.players] : page.players;
      cursor = page.endCursor;
      more = page.hasNextPage;
      message.textContent = '';
      if (me) draw();
    } catch (error) {
      message.textContent = {
        BAD_SEARCH: t('A handle holds letters, digits, \u201c-\u201d, \u201c_\u201d and \u201c.\u201d only (at most 24 of them).'),
        RATE_LIMITED: t('Too many searches: wait a moment.'),
      }[error.code] || t('Cannot search: {reason}', { reason: error.message });
    }
  }

  search.addEventListener('submit', (event) => { event.preventDefault(); find(false); });
  moreButton.addEventListener('click', () => find(true));
  load();
  // a friend request or an acceptance (the player's own events, events.js) is shown at once, not at the next read
  const unlisten = onMyEvent((event) => { if (!stopped && event.type.startsWith('friend')) load(); });
  return () => { stopped = true; unlisten(); clearTimeout(timer); };
}

/** A player's public profile in root (#/players/<handle>). */
export function mountProfile(root, handle) {
  let stopped = false;
  const view = h('section', { class: 'social profile', 'data-testid': 'profile-view' },
    h('p', { class: 'muted' }, t('Loading\u2026')));
  root.replaceChildren(view);

  async function load(said = '') {
    let p;
    let me = null;
    try {
      await readTitles();
      p = (await gql(PROFILE, { handle })).player; // public: no credential needed
      if (p && session.signedIn()) me = (await session.call(SOCIAL)).me;
    } catch (error) {
      if (!stopped) view.replaceChildren(h('p', {}, t('Cannot read the profile: {reason}', { reason: error.message })));
      return;
    }
    if (stopped) return;
    if (!p) {
      view.replaceChildren(h('h1', {}, `@${handle}`), h('p', { 'data-testid': 'profile-missing' },
        t('No player has this handle.')), h('a', { href: '#/friends', class: 'button' }, t('Friends')));
      return;
    }
    const message = h('p', { class: 'message', role: 'status', 'data-testid': 'profile-message' }, said);
    const act = async (name, player) => {
      const refused = await change(name, player.id);
      if (!stopped) load(refused || '');
    };
    let relation = null;
    if (me) relation = p.id === me.id ? 'self' : relations(me).get(p.id);
    const ratings = p.ratings.length
      ? h('table', { class: 'simple', 'data-testid': 'profile-ratings' },
        h('thead', {}, h('tr', {}, [t('Title'), t('Rating'), t('Rank'), t('Rated matches')].map((x) => h('th', {}, x)))),
        h('tbody', {}, p.ratings.map((r) => h('tr', {}, h('td', {}, titleName(r.title)),
          h('td', { class: 'num' }, r.value, r.provisional ? '?' : ''), h('td', { class: 'num' }, `#${r.rank}`),
          h('td', { class: 'num' }, r.games)))))
      : h('p', { class: 'muted' }, t('No rated match yet.'));
    const recent = p.recentMatches.length
      ? h('ul', { class: 'people', 'data-testid': 'profile-matches' }, p.recentMatches.map((m) => h('li',
        { class: 'person', 'data-match': m.id }, h('span', { class: 'who' }, `${titleName(m.title)}, ${day(m.endedAt)}: `,
          m.outcome ? OUTCOMES[m.outcome] : t('nobody won'), m.rated ? ` ${t('(rated)')}` : ''),
        h('a', { href: `#/watch/${encodeURIComponent(m.id)}`, class: 'button' }, t('See')))))
      : h('p', { class: 'muted' }, t('No finished public match yet.'));
    const report = h('button', { type: 'button', class: 'small', 'data-testid': 'report-player' }, t('Report'));
    const reportHolder = h('div', {});
    report.addEventListener('click', () => {
      report.hidden = true;
      reportHolder.replaceChildren(reportForm({ playerId: p.id }, () => {
        reportHolder.replaceChildren();
        report.hidden = false;
      }));
    });
    const canAct = me && relation !== 'self';
    view.replaceChildren(
      h('div', { class: 'social-head' }, h('h1', { 'data-testid': 'profile-name' }, p.name),
        h('span', { class: 'muted', 'data-testid': 'profile-handle' }, `@${p.handle}`), h('span', { class: 'spacer' }),
        h('a', { href: '#/friends', class: 'button' }, t('Friends'))),
      message,
      h('div', { class: 'panel', 'data-testid': 'profile-facts', 'data-player': p.id },
        h('dl', {}, h('dt', {}, t('Handle')), h('dd', {}, `@${p.handle}`), h('dt', {}, t('Name')), h('dd', {}, p.name),
          h('dt', {}, t('Member since')), h('dd', { 'data-testid': 'member-since' }, day(p.memberSince))),
        canAct ? h('ul', { class: 'people' }, personRow(p, relation, act)) : null,
        canAct ? h('div', {}, report, reportHolder) : null),
      h('div', { class: 'panel' }, h('h2', {}, t('Ratings')), ratings),
      h('div', { class: 'panel' }, h('h2', {}, t('Recent public matches')), recent));
  }

  load();
  return () => { stopped = true; };
}

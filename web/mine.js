// "My matches" (#/me): the signed-in player's matches as the service lists them (me.matches): those where it is
// their turn first, badged, then the rest by last activity. A status filter, "More" pages on with the cursor. The
// player's own events (events.js: the SDK's stream) are listed as news and make the list be read again at once;
// while that stream is not live the list is read again every few seconds instead.

import { MY_MATCHES, TITLES, gql } from './api.js';
import { h } from './dom.js';
import { live, news, onMyEvent } from './events.js';
import * as session from './session.js';

const POLL_MS = 3000;
const LIVE_POLL_MS = 60_000; // with the stream live: only a safety net (a seat taken is no event of the player's)
const PAGE = 10;
const MOST = 100; // the largest page the service answers

const OUTCOMES = { WON: 'You won', SHARED: 'You shared the win', LOST: 'You lost' };
const REASONS = { ABANDONED: 'Abandoned', CANCELLED: 'Cancelled', RESIGNED: 'Ended by a resignation' };
const ENDED = { finished: 'finished', abandoned: 'was abandoned', resigned: 'ended by a resignation',
  cancelled: 'was cancelled' };

/** One of the player's events as a line of news: its words and where it leads. */
function newsLine(event, names) {
  const title = names.get(event.title) || event.title || 'a match';
  const match = event.matchId ? `#/match/${encodeURIComponent(event.matchId)}` : null;
  switch (event.type) {
    case 'yourTurn': return [`Your turn in ${title}`, match];
    case 'matchStarted': return [`Your match of ${title} started`, match];
    case 'matchEnded': return [`Your match of ${title} ${ENDED[event.reason] || 'ended'}`, match];
    case 'seatTakenOver': return [`A bot took over your seat in ${title}`, match];
    case 'invited': return [`You are invited to a match of ${title}`, null];
    case 'rematchOffered': return [`A rematch of ${title} is offered`, `#/match/${encodeURIComponent(event.of)}`];
    case 'rematchAccepted': return [`A rematch of ${title} was accepted`, `#/match/${encodeURIComponent(event.of)}`];
    case 'rematchDeclined': return [`A rematch of ${title} was declined`, `#/match/${encodeURIComponent(event.of)}`];
    case 'rematchExpired': return [`A rematch offer of ${title} expired`, `#/match/${encodeURIComponent(event.of)}`];
    case 'rematchStarted': return [`The rematch of ${title} started`, match];
    case 'seekMatched': return ['Your seek found a match', match];
    case 'friendRequested': return [`@${event.handle} asks to be your friend`, '#/friends'];
    case 'friendAccepted': return [`@${event.handle} is now your friend`, '#/friends'];
    default: return [event.type, match];
  }
}

/** Show the player's matches in root; return a function that stops its polling. */
export function mountMine(root) {
  let stopped = false;
  let timer = null;
  let seq = 0;
  let shown = PAGE; // how many rows the polling reads again (grows with "More")
  let names = new Map(); // title id -> name
  const status = h('select', { 'data-testid': 'me-status' },
    h('option', { value: '' }, 'All'), h('option', { value: 'ACTIVE' }, 'Being played'),
    h('option', { value: 'WAITING' }, 'Waiting'), h('option', { value: 'OVER' }, 'Over'));
  const list = h('div', { class: 'me-list', 'data-testid': 'me-list' }, h('p', { class: 'muted' }, 'Loading\u2026'));
  const more = h('button', { type: 'button', 'data-testid': 'me-more', hidden: true }, 'More');
  const message = h('p', { class: 'message', 'data-testid': 'me-message', role: 'status' });
  const newsList = h('ul', { class: 'news-list', 'data-testid': 'my-news', 'aria-live': 'polite' });
  const view = h('section', { class: 'my-matches-view', 'data-testid': 'me-view' },
    h('div', { class: 'my-matches-head' }, h('h1', {}, 'My matches'), h('span', { class: 'spacer' }),
      h('label', {}, 'Show ', status), h('a', { href: '#/', class: 'button' }, 'Lobby')),
    message, list, more, h('section', { class: 'news' }, h('h2', {}, 'News'), newsList));
  root.replaceChildren(view);

  function row(node) {
    const bot = (seat) => seat.kind === 'bot' && !String(seat.name).includes(seat.level) ? ` (${seat.level} bot)` : '';
    const others = node.others.map((seat) => (seat.taken ? `${seat.name}${bot(seat)}${seat.resigned ? ' (resigned)' : ''}`
      : 'an open seat'));
    let result = null;
    if (node.status === 'OVER') {
      result = node.outcome ? OUTCOMES[node.outcome] : REASONS[node.endReason] || 'Nobody won';
      if (node.outcome && node.endReason === 'RESIGNED') result = `${result} (by a resignation)`;
    }
    const link = node.status === 'ACTIVE' && node.yourTurn ? 'Play' : 'Open';
    return h('div', { class: `match-row me-row${node.yourTurn ? ' your-turn' : ''}`, 'data-testid': 'me-match',
      'data-match': node.id, 'data-status': node.status, 'data-your-turn': String(node.yourTurn) },
    h('div', { class: 'row-head' },
      node.yourTurn ? h('span', { class: 'badge', 'data-testid': 'your-turn' }, 'Your turn') : null,
      h('strong', {}, names.get(node.title) || node.title),
      h('span', { class: `status ${node.status.toLowerCase()}` }, node.status.toLowerCase()),
      h('span', { class: 'muted' }, `seat ${node.seat + 1} \u00b7 match ${node.id.slice(0, 8)}`),
      result ? h('span', { class: `outcome ${(node.outcome || 'none').toLowerCase()}`, 'data-testid': 'me-result' },
        result) : null,
      h('span', { class: 'spacer' }),
      h('a', { href: `#/match/${encodeURIComponent(node.id)}`, class: `button${node.yourTurn ? ' primary' : ''}`,
        'data-testid': 'me-link' }, link)),
    h('p', { class: 'muted others', 'data-testid': 'me-others' }, others.length ? `With ${others.join(', ')}` : ''));
  }

  /** An invitation's answer: accept (a seat bound to the player: the match page opens) or decline. */
  async function answer(event, accept, said) {
    try {
      await session.client.answerInvitation(event.matchId, accept);
      if (accept) location.hash = `#/match/${encodeURIComponent(event.matchId)}`;
      else said.textContent = 'Declined.';
    } catch (error) {
      said.textContent = `Not answered: ${(error.problem && error.problem.detail) || error.message}`;
    }
  }

  function drawNews() {
    const items = news().map((event) => {
      const [text, href] = newsLine(event, names);
      const said = h('span', { class: 'muted', role: 'status' });
      const invited = event.type === 'invited' ? [' ',
        h('button', { type: 'button', class: 'small primary', 'data-testid': 'accept-invitation',
          onclick: () => answer(event, true, said) }, 'Accept'), ' ',
        h('button', { type: 'button', class: 'small', 'data-testid': 'decline-invitation',
          onclick: () => answer(event, false, said) }, 'Decline'), ' ', said] : [];
      return h('li', { 'data-testid': 'my-event', 'data-event': event.id, 'data-type': event.type,
        'data-match': event.matchId || '' },
      href ? h('a', { href }, text) : text, ...invited);
    });
    newsList.replaceChildren(...(items.length ? items
      : [h('li', { class: 'muted' }, 'Nothing new since this page opened.')]));
  }

  let drawn = ''; // what the list shows: redrawn only when it changed (a row being clicked stays put)
  function draw(edges, pageInfo) {
    const signature = JSON.stringify([edges, pageInfo, [...names]]);
    if (signature === drawn) return;
    drawn = signature;
    list.replaceChildren(...(edges.length ? edges.map((e) => row(e.node))
      : [h('p', { class: 'muted', 'data-testid': 'me-empty' }, 'No matches here yet: create or join one in the lobby.')]));
    more.hidden = !pageInfo.hasNextPage;
    more.dataset.cursor = pageInfo.endCursor || '';
  }

  /** Read the first `shown` rows again (the player's turn moves matches up and down). */
  async function refresh() {
    if (stopped) return;
    clearTimeout(timer);
    if (!session.signedIn()) {
      list.replaceChildren(h('p', { 'data-testid': 'me-signed-out' },
        'Sign in as a guest (at the top) to see your matches on every device.'));
      more.hidden = true;
      return;
    }
    const ticket = ++seq;
    try {
      const data = await session.call(MY_MATCHES, { status: status.value || null, first: Math.min(shown, MOST) });
      if (stopped || ticket !== seq) return;
      if (!data.me) throw new Error('not signed in');
      draw(data.me.matches.edges, data.me.matches.pageInfo);
      message.textContent = '';
    } catch (error) {
      if (ticket === seq) message.textContent = `Cannot read your matches: ${error.message}`;
    }
    if (!stopped && ticket === seq) timer = setTimeout(refresh, live() ? LIVE_POLL_MS : POLL_MS);
  }

  more.addEventListener('click', async () => {
    more.disabled = true;
    const ticket = ++seq; // a poll in flight no longer writes the list
    clearTimeout(timer);
    try {
      const data = await session.call(MY_MATCHES, { status: status.value || null, first: PAGE,
        after: more.dataset.cursor || null });
      if (stopped || ticket !== seq) return;
      const page = data.me.matches;
      list.append(...page.edges.map((e) => row(e.node)));
      drawn = '';
      shown = list.querySelectorAll('[data-testid=me-match]').length;
      more.hidden = !page.pageInfo.hasNextPage;
      more.dataset.cursor = page.pageInfo.endCursor || more.dataset.cursor;
    } catch (error) {
      message.textContent = `Cannot read more: ${error.message}`;
    } finally {
      more.disabled = false;
    }
    if (!stopped && ticket === seq) timer = setTimeout(refresh, live() ? LIVE_POLL_MS : POLL_MS);
  });
  status.addEventListener('change', () => { shown = PAGE; refresh(); });
  const unlisten = onMyEvent((event) => {
    if (event.type !== 'ready') drawNews();
    refresh(); // the stream is (again) live, or something of the player's happened: read the list now
  });
  drawNews();

  (async () => {
    try {
      names = new Map((await gql(TITLES)).titles.map((t) => [t.id, t.name]));
    } catch {
      // the ids stand in for the names
    }
    drawNews();
    refresh();
  })();

  return () => {
    stopped = true;
    unlisten();
    clearTimeout(timer);
  };
}

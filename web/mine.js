// "My matches" (#/me): the signed-in player's matches as the service lists them (me.matches): those where it is
// their turn first, badged, then the rest by last activity. A status filter, "More" pages on with the cursor. The
// player's own events (events.js: the SDK's stream) are listed as news and make the list be read again at once;
// while that stream is not live the list is read again every few seconds instead.

import { MY_MATCHES, TITLES, gql } from './api.js';
import { h } from './dom.js';
import { list, t, theirs } from './i18n.js';
import { live, news, onMyEvent } from './events.js';
import * as session from './session.js';
import { seatName, statusText } from './words.js';

const POLL_MS = 3000;
const LIVE_POLL_MS = 60_000; // with the stream live: only a safety net (a seat taken is no event of the player's)
const PAGE = 10;
const MOST = 100; // the largest page the service answers

const OUTCOMES = { WON: t('You won'), SHARED: t('You shared the win'), LOST: t('You lost') };
const REASONS = { ABANDONED: t('Abandoned'), CANCELLED: t('Cancelled'), RESIGNED: t('Ended by a resignation') };

/** One of the player's events as a line of news: its words and where it leads. */
function newsLine(event, names) {
  const title = names.get(event.title) || event.title || t('a match');
  const match = event.matchId ? `#/match/${encodeURIComponent(event.matchId)}` : null;
  const offer = `#/match/${encodeURIComponent(event.of)}`;
  const ended = { finished: t('Your match of {title} finished', { title }),
    abandoned: t('Your match of {title} was abandoned', { title }),
    resigned: t('Your match of {title} ended by a resignation', { title }),
    cancelled: t('Your match of {title} was cancelled', { title }) };
  switch (event.type) {
    case 'yourTurn': return [t('Your turn in {title}', { title }), match];
    case 'matchStarted': return [t('Your match of {title} started', { title }), match];
    case 'matchEnded': return [ended[event.reason] || t('Your match of {title} ended', { title }), match];
    case 'seatTakenOver': return [t('A bot took over your seat in {title}', { title }), match];
    case 'invited': return [t('You are invited to a match of {title}', { title }), null];
    case 'rematchOffered': return [t('A rematch of {title} is offered', { title }), offer];
    case 'rematchAccepted': return [t('A rematch of {title} was accepted', { title }), offer];
    case 'rematchDeclined': return [t('A rematch of {title} was declined', { title }), offer];
    case 'rematchExpired': return [t('A rematch offer of {title} expired', { title }), offer];
    case 'rematchStarted': return [t('The rematch of {title} started', { title }), match];
    case 'seekMatched': return [t('Your seek found a match'), match];
    case 'friendRequested': return [t('{who} asks to be your friend', { who: `@${event.handle}` }), '#/friends'];
    case 'friendAccepted': return [t('{who} is now your friend', { who: `@${event.handle}` }), '#/friends'];
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
    h('option', { value: '' }, t('All')), h('option', { value: 'ACTIVE' }, t('Being played')),
    h('option', { value: 'WAITING' }, t('Waiting')), h('option', { value: 'OVER' }, t('Over')));
  const rows = h('div', { class: 'me-list', 'data-testid': 'me-list' }, h('p', { class: 'muted' }, t('Loading\u2026')));
  const more = h('button', { type: 'button', 'data-testid': 'me-more', hidden: true }, t('More'));
  const message = h('p', { class: 'message', 'data-testid': 'me-message', role: 'status' });
  const newsList = h('ul', { class: 'news-list', 'data-testid': 'my-news', 'aria-live': 'polite' });
  const view = h('section', { class: 'my-matches-view', 'data-testid': 'me-view' },
    h('div', { class: 'my-matches-head' }, h('h1', {}, t('My matches')), h('span', { class: 'spacer' }),
      h('label', {}, t('Show'), ' ', status), h('a', { href: '#/', class: 'button' }, t('Lobby'))),
    message, rows, more, h('section', { class: 'news' }, h('h2', {}, t('News')), newsList));
  root.replaceChildren(view);

  function row(node) {
    const bot = (seat) => (seat.kind === 'bot' && !String(seat.name).includes(seat.level)
      ? ` ${t('({level} bot)', { level: theirs(seat.level) })}` : '');
    const others = node.others.map((seat) => (seat.taken
      ? `${seatName(seat)}${bot(seat)}${seat.resigned ? ` ${t('(resigned)')}` : ''}` : t('an open seat')));
    let result = null;
    if (node.status === 'OVER') {
      result = node.outcome ? OUTCOMES[node.outcome] : REASONS[node.endReason] || t('Nobody won');
      if (node.outcome && node.endReason === 'RESIGNED') result = t('{outcome} (by a resignation)', { outcome: result });
    }
    const link = node.status === 'ACTIVE' && node.yourTurn ? t('Play') : t('Open');
    return h('div', { class: `match-row me-row${node.yourTurn ? ' your-turn' : ''}`, 'data-testid': 'me-match',
      'data-match': node.id, 'data-status': node.status, 'data-your-turn': String(node.yourTurn) },
    h('div', { class: 'row-head' },
      node.yourTurn ? h('span', { class: 'badge', 'data-testid': 'your-turn' }, t('Your turn')) : null,
      h('strong', {}, names.get(node.title) || node.title),
      h('span', { class: `status ${node.status.toLowerCase()}` }, statusText(node.status)),
      h('span', { class: 'muted' }, t('seat {n} \u00b7 match {id}', { n: node.seat + 1, id: node.id.slice(0, 8) })),
      result ? h('span', { class: `outcome ${(node.outcome || 'none').toLowerCase()}`, 'data-testid': 'me-result' },
        result) : null,
      h('span', { class: 'spacer' }),
      h('a', { href: `#/match/${encodeURIComponent(node.id)}`, class: `button${node.yourTurn ? ' primary' : ''}`,
        'data-testid': 'me-link' }, link)),
    h('p', { class: 'muted others', 'data-testid': 'me-others' }, others.length ? t('With {names}', { names: list(others) }) : ''));
  }

  /** An invitation's answer: accept (a seat bound to the player: the match page opens) or decline. */
  async function answer(event, accept, said) {
    try {
      await session.client.answerInvitation(event.matchId, accept);
      if (accept) location.hash = `#/match/${encodeURIComponent(event.matchId)}`;
      else said.textContent = t('Declined.');
    } catch (error) {
      said.textContent = t('Not answered: {reason}', { reason: (error.problem && error.problem.detail) || error.message });
    }
  }

  function drawNews() {
    const items = news().map((event) => {
      const [text, href] = newsLine(event, names);
      const said = h('span', { class: 'muted', role: 'status' });
      const invited = event.type === 'invited' ? [' ',
        h('button', { type: 'button', class: 'small primary', 'data-testid': 'accept-invitation',
          onclick: () => answer(event, true, said) }, t('Accept')), ' ',
        h('button', { type: 'button', class: 'small', 'data-testid': 'decline-invitation',
          onclick: () => answer(event, false, said) }, t('Decline')), ' ', said] : [];
      return h('li', { 'data-testid': 'my-event', 'data-event': event.id, 'data-type': event.type,
        'data-match': event.matchId || '' },
      href ? h('a', { href }, text) : text, ...invited);
    });
    newsList.replaceChildren(...(items.length ? items
      : [h('li', { class: 'muted' }, t('Nothing new since this page opened.'))]));
  }

  let drawn = ''; // what the list shows: redrawn only when it changed (a row being clicked stays put)
  function draw(edges, pageInfo) {
    const signature = JSON.stringify([edges, pageInfo, [...names]]);
    if (signature === drawn) return;
    drawn = signature;
    rows.replaceChildren(...(edges.length ? edges.map((e) => row(e.node))
      : [h('p', { class: 'muted', 'data-testid': 'me-empty' }, t('No matches here yet: create or join one in the lobby.'))]));
    more.hidden = !pageInfo.hasNextPage;
    more.dataset.cursor = pageInfo.endCursor || '';
  }

  /** Read the first `shown` rows again (the player's turn moves matches up and down). */
  async function refresh() {
    if (stopped) return;
    clearTimeout(timer);
    if (!session.signedIn()) {
      rows.replaceChildren(h('p', { 'data-testid': 'me-signed-out' },
        t('Sign in as a guest (at the top) to see your matches on every device.')));
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
      if (ticket === seq) message.textContent = t('Cannot read your matches: {reason}', { reason: error.message });
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
      rows.append(...page.edges.map((e) => row(e.node)));
      drawn = '';
      shown = rows.querySelectorAll('[data-testid=me-match]').length;
      more.hidden = !page.pageInfo.hasNextPage;
      more.dataset.cursor = page.pageInfo.endCursor || more.dataset.cursor;
    } catch (error) {
      message.textContent = t('Cannot read more: {reason}', { reason: error.message });
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
      names = new Map((await gql(TITLES)).titles.map((x) => [x.id, theirs(x.name)]));
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

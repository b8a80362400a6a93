// The match page frame, the same for every title: the head, the waiting room, the turn panel, the caller's
// legal actions, the result, the players (with their clocks) and the events log. The title's client module
// fills the slots placed here and words the actions and events.

import { requestedClient } from './clients.js';
import { h, place } from './dom.js';
import { list, t, theirs, tn } from './i18n.js';
import { resultPanel } from './result.js';
import { seatButtons, seatList } from './seats.js';
import * as session from './session.js';
import * as store from './store.js';
import { statusText } from './words.js';
import { actionText, eventText } from './titles/fallback.js';

/** The head: back to the lobby, the title's name, status, version, who is viewing, the spectator link. */
export function renderHead(page) {
  const d = page.data;
  page.noticeEl.textContent = page.notice;
  if (!d) return;
  const watch = `#/watch/${encodeURIComponent(page.id)}`;
  const link = h('a', { href: watch, 'data-testid': 'spectator-link', class: 'button' }, t('Spectator link'));
  const copy = h('button', { type: 'button', class: 'small', title: t('Copy the spectator link') }, t('Copy'));
  copy.addEventListener('click', async () => {
    const url = new URL(watch, location.href).href;
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = t('Copied');
    } catch {
      window.prompt(t('Spectator link (no token in it):'), url);
    }
  });
  const route = location.hash.split('?')[0];
  let other = null; // switch between the title's client and the generic one
  if (requestedClient() === 'fallback') {
    other = h('a', { href: route, class: 'small', 'data-testid': 'client-switch' }, t('Title client'));
  } else if (page.clientName !== 'fallback') {
    other = h('a', { href: `${route}?client=fallback`, class: 'small', 'data-testid': 'client-switch',
      title: t('Play through the generic client: legal actions as buttons, the view as a tree') },
    t('Generic client'));
  }
  page.head.replaceChildren(
    h('a', { href: '#/', class: 'button' }, `\u2190 ${t('Lobby')}`),
    h('h1', {}, page.title ? theirs(page.title.name) : d.title),
    h('span', { class: `status ${d.status.toLowerCase()}`, 'data-testid': 'status' }, statusText(d.status)),
    h('span', { class: 'muted', 'data-testid': 'version' }, t('version {n}', { n: d.version })),
    h('span', { class: 'viewer', 'data-testid': 'viewer' }, d.mySeat === null ? t('Spectating')
      : t('You are {name}, seat {n}', { name: page.name(d.mySeat, false), n: d.mySeat + 1 })),
    h('span', { class: 'spacer' }),
    other, link, copy);
}

/** The waiting room: the seats, and join / add-bot controls with the title's bot levels. */
export function waitingPanel(page) {
  const d = page.data;
  const player = session.player();
  const name = h('input', { type: 'text', maxlength: 40, placeholder: t('Your name'), value: store.playerName(),
    'data-testid': 'player-name' });
  name.addEventListener('input', () => store.setPlayerName(name.value));
  const level = h('select', { 'data-testid': 'bot-level' },
    page.title.botLevels.map((l) => h('option', { value: l.name, title: theirs(l.description) }, theirs(l.name))));
  return h('div', { class: 'panel waiting', 'data-testid': 'waiting' },
    h('h2', {}, t('Waiting for players')),
    h('p', {}, tn('The match starts by itself when its seat is taken.',
      'The match starts by itself when all {n} seats are taken.', d.seatCount)),
    seatList(d),
    h('p', {}, player ? h('span', {}, t('Playing as {name}', { name: player.name }))
      : h('label', {}, t('Play as'), ' ', name), ' ',
      h('label', {}, t('Bot level'), ' ', level), ' ',
      page.spectate ? null : seatButtons(d, { getName: () => name.value, getLevel: () => level.value,
        onDone: (message) => page.seated(message) })));
}

/** The frame of a started match, built once (so the log keeps its scroll position): the title's main and below
 * slots with the events log, and the side panel. */
export function layout(page) {
  return h('div', { class: 'match-body' },
    h('div', { class: 'main-col' }, page.slots.main,
      h('div', { class: 'below' }, page.slots.below,
        h('div', { class: 'panel events' }, h('h2', {}, t('Events (newest first)')), page.logList))),
    page.side);
}

/** The side panel: your seat's controls, turn, your move, result, the title's side slot, players. */
export function renderSide(page, state) {
  const d = state.match;
  // the seat controls first: a step that changes the panels below (whose turn, the prompt) never moves them
  const parts = [kept(page, 'seat', seatPanel(page, state)), turnPanel(page, state)];
  if (state.yourTurn) parts.push(actionsPanel(page, state));
  if (d.status === 'OVER' && d.result) parts.push(resultPanel(d.result, (seat) => page.name(seat)));
  parts.push(page.slots.side, playersPanel(page, state));
  const scroll = page.side.scrollTop;
  place(page.side, parts);
  page.side.scrollTop = scroll;
}

/** The part drawn last time under this name when the new one is the same (attributes and text; its buttons call
 * only the page's own methods, never a value of the old state): a click pressed on a button and released after a
 * redraw (another seat's step, a bot's above all, may come at any moment) would otherwise be released on a
 * replacement and lost. */
function kept(page, name, part) {
  const before = page.drawn.get(name);
  if (before && part && before.isEqualNode(part)) return before;
  page.drawn.set(name, part);
  return part;
}

/** The rematch controls of a seat of an over match: go to the rematch once made; accept or decline a standing offer
 * (or wait for the others once accepted); otherwise offer one, saying how the last offer ended. */
function offerControls(page, d, button) {
  const offer = d.rematchOffer;
  if (d.rematch) return [button('rematch', t('Go to the rematch'), () => page.rematch(), 'primary')];
  if (offer && offer.status === 'OPEN') {
    if (offer.accepted.includes(d.mySeat)) {
      const waiting = d.seats.filter((s) => !offer.accepted.includes(s.seat)).map((s) => page.name(s.seat));
      return [h('span', { 'data-testid': 'rematch-offer', 'data-offer': 'waiting' },
        t('Rematch offered: waiting for {names} to accept.', { names: list(waiting) }))];
    }
    return [h('span', { 'data-testid': 'rematch-offer', 'data-offer': 'open' },
      t('{name} offers a rematch.', { name: page.name(offer.by) }), ' '),
      button('rematch-accept', t('Accept the rematch'), () => page.acceptRematch(), 'primary'), ' ',
      button('rematch-decline', t('Decline'), () => page.declineRematch())];
  }
  const ended = { DECLINED: `${t('The rematch was declined.')} `, EXPIRED: `${t('The rematch offer expired.')} ` };
  const said = offer && ended[offer.status] ? [h('span', { class: 'muted', 'data-testid': 'rematch-offer',
    'data-offer': offer.status.toLowerCase() }, ended[offer.status])] : [];
  return [...said, button('rematch', t('Offer a rematch'), () => page.rematch(), 'primary')];
}

/** The caller's seat controls: resign (asked twice) while active, reclaim while the service's bot plays the seat,
 * rematch offers once over; the rematch's link once made. Null when there is nothing to offer. */
function seatPanel(page, state) {
  const d = state.match;
  const mine = page.mySeatInfo();
  const disabled = state.busy ? true : null;
  const button = (testid, text, onclick, cls = '') => h('button', { type: 'button', class: cls, 'data-testid': testid,
    disabled, onclick }, text);
  const controls = [];
  if (d.status === 'ACTIVE' && mine && !mine.resigned) {
    if (mine.takenOver) {
      controls.push(h('p', { class: 'muted' }, t('Your clock ran out: a bot plays your seat until you take it back.')),
        button('reclaim', t('Reclaim my seat'), () => page.reclaim(), 'primary'));
    }
    if (page.confirming) {
      controls.push(h('span', { class: 'confirm', 'data-testid': 'resign-confirm-box' }, `${t('Resign this match?')} `,
        button('resign-confirm', t('Yes, resign'), () => page.resign(), 'primary'), ' ',
        button('resign-cancel', t('Keep playing'), () => { page.confirming = false; page.render(); })));
    } else {
      controls.push(button('resign', t('Resign'), () => { page.confirming = true; page.render(); }));
    }
  }
  if (d.status === 'OVER') {
    if (d.rematch) {
      controls.push(h('span', { 'data-testid': 'rematch-asked' }, `${t('Everyone accepted the rematch.')} `));
      if (!mine) {
        controls.push(h('a', { href: `#/watch/${encodeURIComponent(d.rematch.id)}`, class: 'button',
          'data-testid': 'rematch-link' }, t('Watch the rematch')));
      }
    }
    if (mine) controls.push(...offerControls(page, d, button));
  }
  if (!controls.length) return null;
  return h('div', { class: 'panel seat-controls', 'data-testid': 'seat-controls' }, controls);
}

function turnPanel(page, state) {
  const d = state.match;
  const own = page.client.turn ? page.client.turn(state) || {} : {};
  const names = (seats) => list(seats.map((seat) => page.name(seat)));
  let headline;
  if (d.status === 'OVER') headline = t('The game is over');
  else if (state.yourTurn) headline = t('Your turn');
  else if (own.headline) headline = own.headline;
  else if (d.serviceToAct) {
    headline = d.toAct.length ? t('{names} (bot) is playing\u2026', { names: names(d.toAct) })
      : t('The service is playing\u2026');
  } else if (d.toAct.length) headline = t('Waiting for {names}', { names: names(d.toAct) });
  else headline = t('Waiting\u2026');
  return h('div', { class: `panel turn${state.yourTurn ? ' yours' : ''}`, 'data-testid': 'turn' },
    h('h2', {}, headline),
    state.yourTurn && own.prompt ? h('p', { class: 'prompt', 'data-testid': 'prompt' }, own.prompt) : null,
    own.facts ? h('p', { class: 'muted', 'data-testid': 'stage' }, own.facts) : null);
}

/** A button label for an action: the title's words (the service's label, for a title's own client), else generic
 * ones. */
function label(page, action) {
  try {
    return page.client.describeAction(action) || actionText(action);
  } catch {
    return actionText(action);
  }
}

function actionsPanel(page, state) {
  const disabled = state.busy ? true : null;
  const button = (action, testid, cls) => {
    const b = h('button', { type: 'button', class: cls, 'data-testid': testid, 'data-type': action.type, disabled },
      label(page, action));
    b.addEventListener('click', () => page.act(action));
    return b;
  };
  const acts = state.legalActions;
  const body = page.client.offersActions
    ? [page.slots.actions, h('details', { class: 'all-actions' }, h('summary', {}, t('All legal actions ({n})', { n: acts.length })),
      h('div', { class: 'buttons' }, acts.map((a) => button(a, 'action-list-item', 'small'))))]
    : [h('div', { class: 'buttons generic' }, acts.map((a) => button(a, 'action', '')))];
  return h('div', { class: 'panel actions', 'data-testid': 'actions' }, h('h2', {}, t('Your move')), body);
}

function clockText(page, clock) {
  const elapsed = clock.running ? (Date.now() - page.readAt) / 1000 : 0;
  const left = Math.max(0, Math.ceil(clock.secondsLeft - elapsed));
  const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
  return clock.takenOver ? t('{clock} (bot plays)', { clock: text }) : text;
}

/** Count the running clocks down between reads (called every second while the match is active). */
export function updateClocks(page) {
  for (const clock of page.data.clock.seats) {
    const cell = page.side.querySelector(`[data-clock-seat='${clock.seat}']`);
    if (cell) cell.textContent = clockText(page, clock);
  }
}

function playersPanel(page, state) {
  const d = state.match;
  const columns = page.client.playerColumns ? page.client.playerColumns(state) : [];
  const clocks = d.clock ? new Map(d.clock.seats.map((c) => [c.seat, c])) : null;
  const rows = d.seats.map((seat) => {
    const acting = d.toAct.includes(seat.seat);
    const clock = clocks && clocks.get(seat.seat);
    return h('tr', { class: `${acting ? 'acting' : ''}${seat.seat === d.mySeat ? ' me' : ''}`, 'data-seat': seat.seat,
      'data-testid': 'player' },
    h('td', {}, acting ? '\u25b6 ' : '', page.name(seat.seat),
      seat.kind === 'bot' ? h('span', { class: 'muted' }, ` ${t('bot/{level}', { level: theirs(seat.level) })}`) : ''),
    clocks ? h('td', { class: `num clock${clock && clock.running ? ' running' : ''}`, 'data-clock-seat': seat.seat,
      'data-label': t('Clock') }, clock ? clockText(page, clock) : '') : null,
    columns.map((c) => h('td', { class: c.numeric ? 'num' : null, 'data-label': c.label }, c.cell(seat.seat))));
  });
  return h('div', { class: 'panel' }, h('h2', {}, t('Players')),
    h('table', { class: 'players', 'data-testid': 'players' },
      h('thead', {}, h('tr', {}, h('th', {}, t('Player')), clocks ? h('th', {}, t('Clock')) : null,
        columns.map((c) => h('th', { title: c.description || null }, c.label)))),
      h('tbody', {}, rows)));
}

// The service's own events (clocks, take-overs, abandonment): the same for every title, in the service's words.
const SERVICE_EVENTS = new Set(['clockExpired', 'seatTakenOver', 'seatReturned', 'seatResigned', 'matchAbandoned']);

/** The events log, newest step first: each event in the title's words (the service's labels; generic ones from its
 * fields for the generic client). */
export function renderLog(page, steps) {
  const describe = (e) => {
    if (SERVICE_EVENTS.has(e.type) && e.label) return e.label;
    try {
      return page.client.describeEvent(e) || eventText(e, (seat) => page.name(seat));
    } catch {
      return eventText(e, (seat) => page.name(seat));
    }
  };
  const items = [];
  for (const [version, events] of steps) {
    if (!events.length) continue;
    items.push(h('li', { 'data-version': version, class: 'step' },
      h('span', { class: 'ver' }, version),
      h('ul', {}, [...events].reverse().map((e) => h('li', {
        class: `ev ev-${e.type}${e.audience ? ' private' : ''}`, 'data-type': e.type, 'data-seat': e.seat,
        title: e.audience ? t('Only you see this') : null,
      }, describe(e))))));
  }
  page.logList.replaceChildren(...(items.length ? items : [h('li', { class: 'muted' }, t('No events yet.'))]));
}

// London's panels: cards drawn from the catalogue, the hand, the development board, the boroughs, every city,
// the legal actions as buttons and the players' columns.

import { h } from '../../dom.js';
import { noun, t, tn } from '../../i18n.js';
import { boroughEffect, cardEffect, money } from './describe.js';

const HAND_TYPES = new Set(['play', 'discard']);

/** The legal action that clicking this card (or borough) picks: types it may have, matched on its id. */
function actionFor(state, types, key, id) {
  if (!state.yourTurn || state.busy) return null;
  return state.legalActions.find((a) => types.has(a.type) && a[key] === id) || null;
}

/** A card as a tile (a button when a legal action goes with it): name, colour, cost, prestige, effect. */
export function cardTile(client, id, { action = null, testid = 'card', faceDown = false, extra = null } = {}) {
  const c = client.words.cards[id] || { name: id, colour: 'grey', cost: 0, prestige: 0 };
  const name = client.words.cards[id] ? client.words.card(id) : String(id);
  const cls = `lcard colour-${c.colour}${faceDown ? ' face-down' : ''}${action ? ' playable' : ''}`;
  const attrs = { class: cls, 'data-testid': testid, 'data-card': id, 'data-colour': c.colour,
    'data-type': action ? action.type : null, title: action ? client.describeAction(action) : cardEffect(c) };
  const body = [
    h('span', { class: 'lc-head' }, h('span', { class: 'lc-name' }, name),
      h('span', { class: 'lc-cost', title: t('cost') }, money(c.cost))),
    h('span', { class: 'lc-effect' }, faceDown ? t('Face down') : cardEffect(c)),
    h('span', { class: 'lc-foot' }, c.prestige ? `\u2605${c.prestige}` : '', extra),
  ];
  if (!action) return h('div', attrs, body);
  const b = h('button', { type: 'button', ...attrs }, body);
  b.addEventListener('click', () => client.ctx.act(action));
  return b;
}

/** A borough as a tile (a button when buying it is legal). */
export function boroughTile(client, id, { action = null, testid = 'borough', covered = false } = {}) {
  const b = client.words.boroughs[id] || { name: id, cost: 0, side: '', river: false };
  const attrs = { class: `lborough${action ? ' playable' : ''}${covered ? ' covered' : ''}`, 'data-testid': testid,
    'data-borough': id, 'data-type': action ? action.type : null, title: boroughEffect(b) };
  const side = b.side === 'S' ? t('South') : t('North');
  const body = [h('span', { class: 'lc-head' }, h('span', { class: 'lc-name' }, noun('borough', b.name)),
    h('span', { class: 'lc-cost' }, money(b.cost))),
  h('span', { class: 'lc-effect' }, `${b.river ? t('{side}, river', { side }) : side}. ${boroughEffect(b)}`)];
  if (!action) return h('div', attrs, body);
  const el = h('button', { type: 'button', ...attrs }, body);
  el.addEventListener('click', () => client.ctx.act(action));
  return el;
}

/** The caller's hand: a tile per card; a card whose play or discard is legal now is clickable. */
export function handPanel(client, state) {
  const you = state.view.you;
  const p = you.pending || {};
  const tiles = you.hand.map((id) => cardTile(client, id, { testid: 'hand-card',
    action: actionFor(state, HAND_TYPES, 'card', id), extra: p.card === id ? ` ${t('(staged)')}` : null }));
  return h('div', { class: 'panel lhand', 'data-testid': 'you' },
    h('h2', {}, t('Your hand ({n})', { n: you.hand.length })),
    h('div', { class: 'cards', 'data-testid': 'hand' }, tiles.length ? tiles : h('span', { class: 'muted' }, t('empty'))));
}

/** Every legal action as a button (always all of them, whatever the tiles offer), and the step's prompt. */
export function actionsPanel(client, state) {
  const disabled = state.busy ? true : null;
  return [h('div', { class: 'buttons' }, state.legalActions.map((action) => {
    const b = h('button', { type: 'button', class: action.type === 'cancel' ? 'small' : 'primary',
      'data-testid': 'action', 'data-type': action.type, 'data-card': action.card, 'data-borough': action.borough,
      'data-stack': action.stack, disabled }, action.label);
    b.addEventListener('click', () => client.ctx.act(action));
    return b;
  }))];
}

/** The development board's two rows (drawable cards clickable when drawing from the board is legal). */
export function boardPanel(client, state) {
  const board = state.view.board;
  const drawable = new Set(['drawBoard']);
  const row = (name, cells) => h('div', { class: 'lrow', 'data-testid': `board-${name}` },
    h('span', { class: 'lrow-name' }, name === 'top' ? t('Top row') : t('Bottom row')),
    cells.map((id) => (id === null ? h('div', { class: 'lcard empty' }, t('empty'))
      : cardTile(client, id, { testid: 'board-card', action: actionFor(state, drawable, 'card', id) }))));
  return h('div', { class: 'panel lboard', 'data-testid': 'dev-board' },
    h('h2', {}, t('Development board')), row('top', board.top), row('bottom', board.bottom));
}

/** The boroughs on offer (clickable to buy when legal) and how many are left in the borough deck. */
export function boroughsPanel(client, state) {
  const v = state.view;
  const buy = new Set(['buyLand']);
  return h('div', { class: 'panel lboroughs', 'data-testid': 'borough-display' },
    h('h2', {}, t('Boroughs on offer ({n} in the deck)', { n: v.boroughDeck })),
    h('div', { class: 'cards' }, v.boroughDisplay.map((id) => boroughTile(client, id,
      { action: actionFor(state, buy, 'borough', id) }))));
}

/** One stack of a city: the top card face up (or face down), and how many cards it covers. */
function stackTile(client, state, owner, stack, index) {
  const top = stack[stack.length - 1];
  const covered = stack.length - 1;
  const mine = owner === state.view.you?.seat;
  const acts = new Set(['activate', 'flip']);
  let tile;
  if (top.hidden) {
    tile = h('div', { class: 'lcard face-down', 'data-testid': 'city-card', 'data-hidden': 'true' }, t('Face down'));
  } else {
    tile = cardTile(client, top.card, { testid: 'city-card', faceDown: !top.faceUp,
      action: mine ? actionFor(state, acts, 'card', top.card) : null });
  }
  return h('div', { class: 'lstack', 'data-testid': 'stack', 'data-stack': index, 'data-covered': covered },
    h('span', { class: 'muted' }, covered ? tn('Stack {stack}, covers {n}', 'Stack {stack}, covers {n}', covered,
      { stack: index + 1 }) : t('Stack {stack}', { stack: index + 1 })), tile);
}

/** Every player's city: stacks, then bought boroughs (the top one last). */
export function citiesPanel(client, state) {
  return h('div', { class: 'panel lcities', 'data-testid': 'cities' }, h('h2', {}, t('Cities')),
    state.view.players.map((p) => h('div', { class: 'lcity', 'data-testid': 'city', 'data-seat': p.seat },
      h('h3', {}, client.ctx.name(p.seat), h('span', { class: 'muted' }, ` \u00b7 ${[money(p.money),
        tn('{n} loan', '{n} loans', p.loans), t('poverty {n}', { n: p.poverty }), t('prestige {n}', { n: p.prestige }),
        tn('{n} card in hand', '{n} cards in hand', p.handSize)].join(' \u00b7 ')}`)),
      h('div', { class: 'cards' }, p.stacks.length ? p.stacks.map((s, i) => stackTile(client, state, p.seat, s, i))
        : h('span', { class: 'muted' }, t('no buildings yet'))),
      p.boroughs.length ? h('div', { class: 'cards' }, p.boroughs.map((id, i) => boroughTile(client, id,
        { testid: 'owned-borough', covered: i < p.boroughs.length - 1 }))) : null,
      p.knownHand.length ? h('p', { class: 'muted' }, t('Known in hand: {cards}', { cards: p.knownHand.map(client.words.card).join(', ') }))
        : null,
      p.hand ? h('p', { class: 'muted', 'data-testid': 'final-hand' },
        t('Hand at the end: {cards}', { cards: p.hand.map(client.words.card).join(', ') || t('empty') })) : null)));
}

/** The facts under the turn panel: the deck, the discard pile, the last turns. */
export function factsPanel(state) {
  const v = state.view;
  const rows = [[t('Deck'), `${tn('{n} card', '{n} cards', v.deck.count)} (${Object.entries(v.deck.byDeck)
    .map(([k, n]) => `${k}: ${n}`).join(', ')})`], [t('Out of the game'), tn('{n} card', '{n} cards', v.discardPile.length)]];
  if (v.turnsLeft !== null && v.turnsLeft !== undefined) rows.push([t('Last turns'), `${v.turnsLeft}`]);
  if (v.drawsLeft) rows.push([t('Draws owed'), `${v.drawsLeft}`]);
  return h('div', { class: 'panel facts lfacts', 'data-testid': 'facts' }, h('h2', {}, t('London')),
    h('dl', {}, rows.map(([k, val]) => [h('dt', {}, k), h('dd', {}, val)])));
}

/** The players table's London columns: money, loans, poverty, prestige, hand size, boroughs. */
export function playerColumns(view) {
  const bySeat = new Map(view.players.map((p) => [p.seat, p]));
  const column = (label, cell) => ({ label, numeric: true,
    cell: (seat) => (bySeat.has(seat) ? cell(bySeat.get(seat)) : '') });
  return [
    column(t('Money'), (p) => money(p.money)),
    column(t('Loans'), (p) => p.loans),
    column(t('Poverty'), (p) => p.poverty),
    column(t('Prestige'), (p) => p.prestige),
    column(t('Hand'), (p) => p.handSize),
    column(t('Boroughs'), (p) => p.boroughs.length),
  ];
}

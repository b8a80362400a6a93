// London's panels: cards drawn from the catalogue, the hand, the development board, the boroughs, every city,
// the legal actions as buttons and the players' columns.

import { h } from '../../dom.js';
import { boroughEffect, cardEffect } from './describe.js';

const HAND_TYPES = new Set(['play', 'discard']);

/** The legal action that clicking this card (or borough) picks: types it may have, matched on its id. */
function actionFor(state, types, key, id) {
  if (!state.yourTurn || state.busy) return null;
  return state.legalActions.find((a) => types.has(a.type) && a[key] === id) || null;
}

/** A card as a tile (a button when a legal action goes with it): name, colour, cost, prestige, effect. */
export function cardTile(client, id, { action = null, testid = 'card', faceDown = false, extra = null } = {}) {
  const c = client.words.cards[id] || { name: id, colour: 'grey', cost: 0, prestige: 0 };
  const cls = `lcard colour-${c.colour}${faceDown ? ' face-down' : ''}${action ? ' playable' : ''}`;
  const attrs = { class: cls, 'data-testid': testid, 'data-card': id, 'data-colour': c.colour,
    'data-type': action ? action.type : null, title: action ? client.describeAction(action) : cardEffect(c) };
  const body = [
    h('span', { class: 'lc-head' }, h('span', { class: 'lc-name' }, c.name),
      h('span', { class: 'lc-cost', title: 'cost' }, `£${c.cost}`)),
    h('span', { class: 'lc-effect' }, faceDown ? 'Face down' : cardEffect(c)),
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
  const body = [h('span', { class: 'lc-head' }, h('span', { class: 'lc-name' }, b.name),
    h('span', { class: 'lc-cost' }, `£${b.cost}`)),
  h('span', { class: 'lc-effect' }, `${b.side === 'S' ? 'South' : 'North'}${b.river ? ', river' : ''}. ${boroughEffect(b)}`)];
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
    action: actionFor(state, HAND_TYPES, 'card', id), extra: p.card === id ? ' (staged)' : null }));
  return h('div', { class: 'panel lhand', 'data-testid': 'you' },
    h('h2', {}, `Your hand (${you.hand.length})`),
    h('div', { class: 'cards', 'data-testid': 'hand' }, tiles.length ? tiles : h('span', { class: 'muted' }, 'empty')));
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
    h('span', { class: 'lrow-name' }, name === 'top' ? 'Top row' : 'Bottom row'),
    cells.map((id) => (id === null ? h('div', { class: 'lcard empty' }, 'empty')
      : cardTile(client, id, { testid: 'board-card', action: actionFor(state, drawable, 'card', id) }))));
  return h('div', { class: 'panel lboard', 'data-testid': 'dev-board' },
    h('h2', {}, 'Development board'), row('top', board.top), row('bottom', board.bottom));
}

/** The boroughs on offer (clickable to buy when legal) and how many are left in the borough deck. */
export function boroughsPanel(client, state) {
  const v = state.view;
  const buy = new Set(['buyLand']);
  return h('div', { class: 'panel lboroughs', 'data-testid': 'borough-display' },
    h('h2', {}, `Boroughs on offer (${v.boroughDeck} in the deck)`),
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
    tile = h('div', { class: 'lcard face-down', 'data-testid': 'city-card', 'data-hidden': 'true' }, 'Face down');
  } else {
    tile = cardTile(client, top.card, { testid: 'city-card', faceDown: !top.faceUp,
      action: mine ? actionFor(state, acts, 'card', top.card) : null });
  }
  return h('div', { class: 'lstack', 'data-testid': 'stack', 'data-stack': index, 'data-covered': covered },
    h('span', { class: 'muted' }, `Stack ${index + 1}${covered ? `, covers ${covered}` : ''}`), tile);
}

/** Every player's city: stacks, then bought boroughs (the top one last). */
export function citiesPanel(client, state) {
  return h('div', { class: 'panel lcities', 'data-testid': 'cities' }, h('h2', {}, 'Cities'),
    state.view.players.map((p) => h('div', { class: 'lcity', 'data-testid': 'city', 'data-seat': p.seat },
      h('h3', {}, client.ctx.name(p.seat), h('span', { class: 'muted' },
        ` \u00b7 £${p.money} \u00b7 ${p.loans} loan(s) \u00b7 poverty ${p.poverty} \u00b7 prestige ${p.prestige}`
        + ` \u00b7 ${p.handSize} card(s) in hand`)),
      h('div', { class: 'cards' }, p.stacks.length ? p.stacks.map((s, i) => stackTile(client, state, p.seat, s, i))
        : h('span', { class: 'muted' }, 'no buildings yet')),
      p.boroughs.length ? h('div', { class: 'cards' }, p.boroughs.map((id, i) => boroughTile(client, id,
        { testid: 'owned-borough', covered: i < p.boroughs.length - 1 }))) : null,
      p.knownHand.length ? h('p', { class: 'muted' }, `Known in hand: ${p.knownHand.map(client.words.card).join(', ')}`)
        : null,
      p.hand ? h('p', { class: 'muted', 'data-testid': 'final-hand' },
        `Hand at the end: ${p.hand.map(client.words.card).join(', ') || 'empty'}`) : null)));
}

/** The facts under the turn panel: the deck, the discard pile, the last turns. */
export function factsPanel(state) {
  const v = state.view;
  const rows = [['Deck', `${v.deck.count} card(s) (${Object.entries(v.deck.byDeck).map(([k, n]) => `${k}: ${n}`)
    .join(', ')})`], ['Out of the game', `${v.discardPile.length} card(s)`]];
  if (v.turnsLeft !== null && v.turnsLeft !== undefined) rows.push(['Last turns', `${v.turnsLeft}`]);
  if (v.drawsLeft) rows.push(['Draws owed', `${v.drawsLeft}`]);
  return h('div', { class: 'panel facts lfacts', 'data-testid': 'facts' }, h('h2', {}, 'London'),
    h('dl', {}, rows.map(([k, val]) => [h('dt', {}, k), h('dd', {}, val)])));
}

/** The players table's London columns: money, loans, poverty, prestige, hand size, boroughs. */
export function playerColumns(view) {
  const bySeat = new Map(view.players.map((p) => [p.seat, p]));
  const column = (label, cell) => ({ label, numeric: true,
    cell: (seat) => (bySeat.has(seat) ? cell(bySeat.get(seat)) : '') });
  return [
    column('Money', (p) => `£${p.money}`),
    column('Loans', (p) => p.loans),
    column('Poverty', (p) => p.poverty),
    column('Prestige', (p) => p.prestige),
    column('Hand', (p) => p.handSize),
    column('Boroughs', (p) => p.boroughs.length),
  ];
}

// The Great Fire's panels around the board: how to move (choosers, buttons, hints), your hand and objectives,
// the city's facts, the players' columns and the score track.

import { h } from '../../dom.js';
import { noun, t, tn } from '../../i18n.js';
import { COLOUR_HEX } from './board.js';
import { cardLabel, tokenName } from './describe.js';

const BUTTON_TYPES = new Set(['keepHand', 'redeal', 'playDoubleMove', 'endFire', 'endActions']);
const CARD_TYPES = new Set(['playCard', 'discard']);
const TRACK_MAX = 20;
const LIST_OPEN_UP_TO = 12; // districts by name: a longer list starts folded (the player may open it)

/** A colour's name (the title's catalogue). */
export function colourName(colour) {
  return noun('colour', colour);
}

/** A small square of a colour. */
export function swatch(colour, title = colourName(colour)) {
  return h('span', { class: 'swatch', style: `background:${COLOUR_HEX[colour] || '#888'}`, title, 'data-colour': colour });
}

function isTargeted(action) {
  return action.type === 'moveBand' || action.type === 'movePawn' || typeof action.district === 'string';
}

function cancelButton(client) {
  const b = h('button', { type: 'button', class: 'small', 'data-testid': 'cancel' }, t('Cancel'));
  b.addEventListener('click', () => { client.clearChoice(); client.ctx.redraw(); });
  return b;
}

/** The move controls for the actions slot: a district's choices, the band being moved, buttons, a hint. */
export function actionsPanel(client, state) {
  const acts = state.legalActions;
  const words = client.words;
  const disabled = state.busy ? true : null;
  const button = (action, testid, cls) => {
    const b = h('button', { type: 'button', class: cls, 'data-testid': testid, 'data-type': action.type, disabled },
      action.label);
    b.addEventListener('click', () => client.ctx.act(action));
    return b;
  };
  const rows = [];
  if (client.chooser) {
    rows.push(h('div', { class: 'chooser', 'data-testid': 'chooser' },
      h('p', {}, t('At {district}:', { district: words.district(client.chooser) })),
      client.districtOptions(client.chooser, acts).map((o) => {
        if (o.action) return button(o.action, 'choice', 'primary');
        const b = h('button', { type: 'button', class: 'primary', 'data-testid': 'choice', 'data-type': 'selectBand',
          disabled }, t('Move a trained band from here\u2026'));
        b.addEventListener('click', () => { client.bandFrom = o.select; client.chooser = null; client.ctx.redraw(); });
        return b;
      }),
      cancelButton(client)));
  }
  if (client.bandFrom) {
    rows.push(h('div', { class: 'chooser', 'data-testid': 'band-selected' },
      h('p', {}, t('Moving a trained band from {district}: click a highlighted district.',
        { district: words.district(client.bandFrom) })),
      cancelButton(client)));
  }
  const plain = acts.filter((a) => BUTTON_TYPES.has(a.type) || (!CARD_TYPES.has(a.type) && !isTargeted(a)));
  if (plain.length) rows.push(h('div', { class: 'buttons' }, plain.map((a) => button(a, 'action', 'primary'))));
  const list = client.chooser ? null : targetList(client, state);
  if (list) rows.push(list);
  if (!client.chooser && !client.bandFrom) {
    const onCards = acts.some((a) => CARD_TYPES.has(a.type));
    const onMap = acts.some(isTargeted);
    let hint = null;
    if (onCards && onMap) hint = t('Click a highlighted card in your hand or a highlighted district.');
    else if (onCards) hint = t('Click a highlighted card in your hand.');
    else if (onMap) hint = t('Click a highlighted district.');
    if (hint) {
      rows.push(h('p', { class: 'hint' }, acts.some((a) => a.type === 'moveBand')
        ? `${hint} ${t('To move a trained band, click its district, then where it goes.')}` : hint));
    }
  }
  return rows;
}

/** The districts the player may pick now, by name, as buttons (shown on narrow screens only, style.css: there
 * the map's boxes are too small to tap); each does what tapping its district does. Names alone when every one
 * does the same kind of thing (the prompt says what), else what each does. A long list starts folded. */
function targetList(client, state) {
  const ids = [...client.targets(state)].filter((id) => id !== client.bandFrom);
  if (!ids.length) return null;
  const words = client.words;
  const disabled = state.busy ? true : null;
  const picks = ids.map((id) => ({ id, options: client.districtOptions(id, state.legalActions) }));
  const kinds = new Set(picks.map((p) => (p.options.length === 1 && p.options[0].action ? p.options[0].action.type
    : 'more')));
  const buttons = picks.map(({ id, options }) => {
    let text = `${words.district(id)}\u2026`;
    if (options.length === 1 && options[0].action) {
      text = kinds.size === 1 ? words.district(id) : options[0].action.label;
    } else if (options.length === 1) {
      text = t('Move a trained band from {district}\u2026', { district: words.district(id) });
    }
    const b = h('button', { type: 'button', 'data-testid': 'target-choice', 'data-district': id, disabled }, text);
    b.addEventListener('click', () => client.onDistrict(id));
    return b;
  });
  const open = client.listOpen === null ? ids.length <= LIST_OPEN_UP_TO : client.listOpen;
  const summary = h('summary', {}, t('Districts you may pick, by name ({n})', { n: ids.length }));
  const list = h('details', { class: 'target-list', 'data-testid': 'target-list', open: open ? true : null },
    summary, h('div', { class: 'target-buttons' }, buttons));
  summary.addEventListener('click', () => { client.listOpen = !list.open; }); // the player's choice, kept
  return list;
}

/** The caller's hand (playable cards clickable), objectives, tokens and colours. */
export function youPanel(client, state) {
  const view = state.view;
  const you = view.you;
  const words = client.words;
  const cards = you.hand.map((card, i) => {
    const action = state.legalActions.find((a) => CARD_TYPES.has(a.type) && a.card === card);
    const b = h('button', {
      type: 'button', class: `card${action ? ' playable' : ''}`, 'data-testid': 'hand-card', 'data-card': card,
      'data-index': i, 'data-type': action ? action.type : null, disabled: !action || state.busy ? true : null,
      title: action ? action.label : t('Fire card {card}', { card: cardLabel(card) }),
    }, h('span', { class: 'arrow' }, cardLabel(card).split(' ').pop()), h('span', { class: 'letter' },
      cardLabel(card).charAt(0)));
    if (action) b.addEventListener('click', () => client.ctx.act(action));
    return b;
  });
  const objectives = you.objectives.map((o) => {
    const dv = view.districts[o.district];
    const standing = dv && Object.values(dv.houses).some((n) => n > 0) && !dv.burning;
    return h('li', { 'data-district': o.district },
      `${t('{district}: {vp} VP (deck {deck})', { district: words.district(o.district), vp: o.vp, deck: o.deck })} \u2014 `,
      h('span', { class: standing ? 'ok' : 'lost' }, standing ? t('standing') : dv && dv.burning ? t('burning') : t('lost')));
  });
  return h('div', { class: 'panel you', 'data-testid': 'you' },
    h('h2', {}, t('Your hand')),
    h('div', { class: 'hand', 'data-testid': 'hand' }, cards.length ? cards : h('span', { class: 'muted' }, t('empty'))),
    h('h2', {}, t('Your objectives')),
    h('ul', { class: 'objectives', 'data-testid': 'objectives' }, objectives),
    h('h2', {}, t('Your tokens')),
    h('p', { 'data-testid': 'my-tokens' }, you.tokens.length
      ? you.tokens.map(tokenName).join(', ') : h('span', { class: 'muted' }, t('none'))),
    h('p', {}, `${t('Your colours:')} `, you.colours.map((c) => [swatch(c), ` ${colourName(c)} `])));
}

/** The city: supply, decks, the hero, the non-player's cards. */
export function factsPanel(client, state) {
  const v = state.view;
  const words = client.words;
  const rows = [
    [t('Supply'), tn('{n} fire cone', '{n} fire cones', v.supply)],
    [t('Fire deck'), [tn('{n} card', '{n} cards', v.deckSize), tn('{n} fire stack card left', '{n} fire stack cards left',
      v.stacksLeft)].join(', ') + (v.untilIntensify !== null
      ? ` ${t('(next intensify in {n})', { n: v.untilIntensify })}` : '')],
    [t('Discard pile'), `${v.discardPile}${v.discardCards ? ` (${Object.entries(v.discardCards)
      .map(([card, n]) => `${n}\u00d7${cardLabel(card)}`).join(', ')})` : ''}`],
    [t('Hero of London'), v.hero === null ? t('nobody yet') : words.name(v.hero)],
  ];
  if (v.turnsLeft !== null && v.turnsLeft !== undefined) rows.push([t('Turns left'), `${v.turnsLeft}`]);
  const np = v.nonPlayer;
  if (np) {
    rows.push([t('Non-player'), [np.fireCard ? t('fire {card}', { card: cardLabel(np.fireCard) }) : null,
      np.priorityCard ? t('priority {colours}', { colours: np.priorityCard.map(colourName).join(' > ') }) : null,
      np.movementCard ? t('movement {district}', { district: words.district(np.movementCard) }) : null]
      .filter(Boolean).join(' \u00b7 ') || '\u2014']);
  }
  return h('div', { class: 'panel facts', 'data-testid': 'facts' }, h('h2', {}, t('The city')),
    h('dl', {}, rows.map(([k, val]) => [h('dt', {}, k), h('dd', {}, val)])));
}

/** The players table's Great Fire columns: colours, pawns, hand size, put out, tokens, houses lost, hero. */
export function playerColumns(view) {
  const bySeat = new Map(view.players.map((p) => [p.seat, p]));
  const column = (label, cell, numeric = false) => ({ label, numeric,
    cell: (seat) => (bySeat.has(seat) ? cell(bySeat.get(seat)) : '') });
  return [
    column(t('Colours'), (p) => (p.colours ? p.colours.map((c) => swatch(c))
      : h('span', { class: 'muted' }, t('hidden')))),
    column(t('Pawns'), (p) => p.pawnColours.map((c) => swatch(c, t('pawn: {colour}', { colour: colourName(c) })))),
    column(t('Hand'), (p) => p.handSize, true),
    column(t('Put out'), (p) => p.putOut, true),
    column(t('Tokens'), (p) => (Array.isArray(p.tokens) ? p.tokens.length : p.tokens), true),
    column(t('Houses lost'), (p) => (p.housesLost === null ? '?' : p.housesLost), true),
    column(t('Hero'), (p) => (p.hero ? '\u2605' : '')),
  ];
}

/** The score track: houses lost per colour. */
export function scoreTrack(view) {
  const track = view.scoreTrack || {};
  return [h('h2', {}, t('Score track: houses lost')),
    h('div', { class: 'score-track', 'data-testid': 'score-track' }, Object.entries(track).map(([colour, lost]) =>
      h('div', { class: 'track-row', 'data-colour': colour },
        h('span', { class: 'track-name' }, swatch(colour), ` ${colourName(colour)}`),
        h('span', { class: 'track-bar' }, h('span', { class: 'track-fill',
          style: `width:${Math.min(100, (100 * lost) / TRACK_MAX)}%;background:${COLOUR_HEX[colour] || '#888'}` })),
        h('span', { class: 'num' }, `${lost}/${TRACK_MAX}`))))];
}

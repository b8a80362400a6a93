// Great Fire words the page writes itself: the prompt of the pending decision, phase names, fire cards and tokens
// (their names from the title's catalogue, as the service's labels write them). What an action or an event means
// comes from the service as its label (issue 50).

import { noun, t, tn } from '../../i18n.js';

const CARD_NAMES = { N: 'North \u2191', E: 'East \u2192', S: 'South \u2193', W: 'West \u2190' };
const TOKEN_IDS = { demolition: 'demolition', doubleMove: 'double move', victoryPoint: 'victory point' };

/** A fire card's name, "North ↑" (the catalogue's "fire card"). */
export function cardLabel(card) {
  return CARD_NAMES[card] ? noun('fire card', CARD_NAMES[card]) : String(card);
}

/** A token's name, capitalised ("Demolition"). */
export function tokenName(token) {
  const name = noun('token', TOKEN_IDS[token] || token);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** What the pending decision asks of the seat to act. */
export function prompt(view) {
  const st = view.stage || {};
  switch (view.phase) {
    case 'redeal': return t('Five identical cards: keep your hand or redeal.');
    case 'placeBands': return t('Place a trained band: click a highlighted district.');
    case 'placePawns': return t('Place a pawn: click a highlighted district.');
    case 'fire':
      if (!st.card) return t('Play a fire card from your hand.');
      if (!st.source) return t('Card {card}: click the district the fire spreads from.', { card: cardLabel(st.card) });
      if (st.movesLeft > 0) {
        return tn('Card {card}: click where the fire spreads ({n} move left).',
          'Card {card}: click where the fire spreads ({n} moves left).', st.movesLeft, { card: cardLabel(st.card) });
      }
      return t('Play a double move token or end the fire phase.');
    case 'discard': return t('No fire move is possible: discard a card.');
    case 'placeCones':
      return tn('Place {n} fire cone: click a highlighted district.', 'Place {n} fire cones: click a highlighted district.',
        st.conesToPlace);
    case 'actions':
      return tn('Actions: {n} action point left. Click a highlighted district, or end.',
        'Actions: {n} action points left. Click a highlighted district, or end.', st.actionPoints);
    case 'nonPlayerChoice': return t('Break the non-player tie: click a highlighted district.');
    default: return '';
  }
}

export const PHASES = {
  redeal: t('Redeal'), placeBands: t('Placing trained bands'), placePawns: t('Placing pawns'), fire: t('Fire'),
  discard: t('Discard'), placeCones: t('Placing fire cones'), actions: t('Actions'), nonPlayer: t('Non-player turn'),
  nonPlayerChoice: t('Non-player tie'), over: t('Game over'),
};

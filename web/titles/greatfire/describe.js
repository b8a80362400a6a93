// Great Fire words the page writes itself: the prompt of the pending decision, phase names, fire cards. What an
// action or an event means comes from the service as its label (issue 50).

export const ARROWS = { N: '\u2191', E: '\u2192', S: '\u2193', W: '\u2190' };
export const TOKEN_NAMES = { demolition: 'Demolition', doubleMove: 'Double move', victoryPoint: 'Victory point' };

/** "N ↑" for a fire card. */
export function cardLabel(card) {
  return ARROWS[card] ? `${card} ${ARROWS[card]}` : String(card);
}

/** What the pending decision asks of the seat to act. */
export function prompt(view) {
  const st = view.stage || {};
  switch (view.phase) {
    case 'redeal': return 'Five identical cards: keep your hand or redeal.';
    case 'placeBands': return 'Place a trained band: click a highlighted district.';
    case 'placePawns': return 'Place a pawn: click a highlighted district.';
    case 'fire':
      if (!st.card) return 'Play a fire card from your hand.';
      if (!st.source) return `Card ${cardLabel(st.card)}: click the district the fire spreads from.`;
      if (st.movesLeft > 0) return `Card ${cardLabel(st.card)}: click where the fire spreads (${st.movesLeft} move(s) left).`;
      return 'Play a double move token or end the fire phase.';
    case 'discard': return 'No fire move is possible: discard a card.';
    case 'placeCones': return `Place ${st.conesToPlace} fire cone(s): click a highlighted district.`;
    case 'actions': return `Actions: ${st.actionPoints} action point(s) left. Click a highlighted district, or end.`;
    case 'nonPlayerChoice': return 'Break the non-player tie: click a highlighted district.';
    default: return '';
  }
}

export const PHASES = {
  redeal: 'Redeal', placeBands: 'Placing bands', placePawns: 'Placing pawns', fire: 'Fire', discard: 'Discard',
  placeCones: 'Placing cones', actions: 'Actions', nonPlayer: 'Non-player turn', nonPlayerChoice: 'Non-player tie',
  over: 'Game over',
};

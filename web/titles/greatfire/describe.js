// Human-readable text for Great Fire events, actions and decisions.

export const ARROWS = { N: '\u2191', E: '\u2192', S: '\u2193', W: '\u2190' };
export const TOKEN_NAMES = { demolition: 'Demolition', doubleMove: 'Double move', victoryPoint: 'Victory point' };

/** "N ↑" for a fire card. */
export function cardLabel(card) {
  return ARROWS[card] ? `${card} ${ARROWS[card]}` : String(card);
}

function housesText(houses) {
  const parts = Object.entries(houses || {}).map(([colour, n]) => `${n} ${colour}`);
  return parts.length ? parts.join(', ') : 'none';
}

/**
 * One line for an event. ctx: {name(seat) -> display name, district(id) -> district name}.
 */
export function describeEvent(e, ctx) {
  const who = e.seat === null || e.seat === undefined ? 'The non-player' : ctx.name(e.seat);
  const d = (id) => ctx.district(id);
  switch (e.type) {
    case 'handDealt': return `${who} was dealt ${e.hand.map(cardLabel).join(' ')}`;
    case 'handKept': return `${who} kept their hand`;
    case 'handRedealt': return `${who} showed ${(e.shown || []).map(cardLabel).join(' ')} and redealt`;
    case 'bandPlaced': return `${who} placed a trained band in ${d(e.district)}`;
    case 'pawnPlaced': return `${who} placed a pawn in ${d(e.district)}`;
    case 'turnStarted': return `Turn of ${who}`;
    case 'handRevealed': return `${who} cannot move the fire and shows ${e.hand.map(cardLabel).join(' ')}`;
    case 'cardPlayed': return `${who} played fire card ${cardLabel(e.card)}`;
    case 'sourceChosen': return `${who} spreads the fire from ${d(e.district)}`;
    case 'fireSpread': return `Fire spread from ${d(e.from)} to ${d(e.to)}${e.contained ? ' (contained)' : ''}`;
    case 'housesBurnt': return `Houses burnt in ${d(e.district)}: ${housesText(e.houses)}`;
    case 'fireGrew': return `The fire grew in ${d(e.district)} (+${e.cones})`;
    case 'tokenRemoved': return `The token in ${d(e.district)} burnt`;
    case 'tokenTaken': return `${who} took the token in ${d(e.district)}`;
    case 'tokenRevealed': return `${who}: the token from ${d(e.district)} is ${TOKEN_NAMES[e.token] || e.token}`;
    case 'tokenPlayed': return `${who} played a ${TOKEN_NAMES[e.token] || e.token} token`;
    case 'tokenDestroyed': return `The token in ${d(e.district)} was destroyed`;
    case 'actionsStarted': return `${who} has ${e.actionPoints} action points`;
    case 'pawnMoved': return `${who} moved a pawn to ${d(e.to)}`;
    case 'bandMoved': return `${who} moved a band from ${d(e.from)} to ${d(e.to)}${e.pinned ? ' (pinned)' : ''}`;
    case 'firePutOut': return `${who} put out fire in ${d(e.district)} (${e.putOut} put out in all)`;
    case 'heroOfLondon': return `${who} is now the Hero of London`;
    case 'demolished': return `${who} demolished ${d(e.district)} (${housesText(e.houses)})`;
    case 'actionsEnded': return `${who} ended their actions`;
    case 'cardDrawn': return `${who} drew a fire card (${e.deckSize} left)`;
    case 'cardSeen': return `${who} drew ${cardLabel(e.card)}`;
    case 'turnEnded': return `End of the turn of ${who}`;
    case 'stackRevealed': return `A stack card (${e.stack}) was revealed: the fire intensifies`;
    case 'conePlaced': return `${who} placed a fire cone in ${d(e.district)}`;
    case 'conesLost': return `${who} had nowhere to place ${e.cones} cone(s)`;
    case 'conesReturned': return `Put-out cones went back to the supply (${(e.seats || []).map(ctx.name).join(', ')})`;
    case 'puddingLaneRefilled': return `Pudding Lane was refilled (+${e.cones})`;
    case 'cardDiscarded': return `${who} discarded ${cardLabel(e.card)}`;
    case 'finalRounds': return `Final rounds: ${e.turns} turn(s) left`;
    case 'gameOver': return 'The game is over';
    case 'nonPlayerTurnStarted': return `Non-player turn, conducted by ${ctx.name(e.conductor)}`;
    case 'nonPlayerTurnEnded': return 'The non-player turn ended';
    case 'fireCardFlipped': return `Non-player fire card: ${cardLabel(e.card)}`;
    case 'priorityCardFlipped': return `Colour priority: ${(e.colours || []).join(' > ')}`;
    case 'priorityDeckShuffled': return 'The priority deck was shuffled';
    case 'movementCardFlipped': return `Movement card: ${d(e.objective)}`;
    case 'movementDeckShuffled': return 'The movement deck was shuffled';
    case 'noFireMove': return 'The non-player fire does not move';
    case 'noBandMove': return 'No band moves';
    case 'tieToBreak': return `${who} must break a tie (${e.kind})`;
    case 'tieBroken': return `Tie broken: ${d(e.district)} (${e.by === 'seed' ? 'by lot' : ctx.name(e.by)})`;
    default: {
      const rest = Object.entries(e).filter(([k]) => !['type', 'version', 'audience'].includes(k));
      return `${e.type}${rest.length ? ` ${rest.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')}` : ''}`;
    }
  }
}

/** A button label for a legal action. */
export function describeAction(a, ctx) {
  const d = (id) => ctx.district(id);
  switch (a.type) {
    case 'keepHand': return 'Keep hand';
    case 'redeal': return 'Redeal';
    case 'placeBand': return `Place a band in ${d(a.district)}`;
    case 'placePawn': return `Place a pawn in ${d(a.district)}`;
    case 'playCard': return `Play ${cardLabel(a.card)}`;
    case 'chooseSource': return `Spread from ${d(a.district)}`;
    case 'spreadFire': return `Spread to ${d(a.district)}`;
    case 'playDoubleMove': return 'Play double move';
    case 'endFire': return 'End the fire phase';
    case 'discard': return `Discard ${cardLabel(a.card)}`;
    case 'placeCone': return `Place a cone in ${d(a.district)}`;
    case 'movePawn': return `Move pawn ${a.pawn + 1} to ${d(a.to)}`;
    case 'moveBand': return `Move a band from ${d(a.from)} to ${d(a.to)}`;
    case 'putOut': return `Put out fire in ${d(a.district)}`;
    case 'demolish': return `Demolish ${d(a.district)}`;
    case 'endActions': return 'End actions';
    case 'breakTie': return `Choose ${d(a.district)}`;
    default: return JSON.stringify(a);
  }
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

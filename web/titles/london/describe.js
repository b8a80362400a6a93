// London's words: card and borough effects from the catalogue, button labels for legal actions, event lines and
// the prompt for the step the seat is at.

const PER = { riverBorough: 'river borough', borough: 'borough', blue: 'blue card' };
const ONGOING = {
  flipInstead: () => 'may flip instead of the activated card',
  beggarsAnyColour: () => 'beggars count as any colour',
  cardDiscount: (n) => `cards cost £${n} less`,
  landDiscount: (n) => `boroughs cost £${n} less`,
  handLimit: (n) => `hand limit +${n}`,
};
const ACTIONS = { develop: 'develop', buyLand: 'buy land', run: 'run the city', drawThree: 'draw three cards' };

/** The names of the catalogue: card(id) and borough(id) give a name (the id when unknown). */
export function namer(board) {
  const cards = (board && board.cards) || {};
  const boroughs = (board && board.boroughs) || {};
  return {
    cards,
    boroughs,
    card: (id) => (cards[id] ? cards[id].name : String(id)),
    borough: (id) => (boroughs[id] ? boroughs[id].name : String(id)),
    source: (id) => (cards[id] ? cards[id].name : boroughs[id] ? boroughs[id].name : String(id)),
  };
}

/** A gain in words: "+£3, +1 prestige per blue card, -2 poverty, draw 1". */
export function gainText(g) {
  if (!g) return '';
  const parts = [];
  if (g.money) parts.push(`+£${g.money}`);
  if (g.prestige) parts.push(`+${g.prestige} prestige`);
  if (g.poverty_down) parts.push(`-${g.poverty_down} poverty`);
  if (g.poverty_up) parts.push(`+${g.poverty_up} poverty`);
  if (g.draw) parts.push(`draw ${g.draw}`);
  const text = parts.join(', ');
  return g.per && text ? `${text} per ${PER[g.per] || g.per}` : text;
}

function ongoingText(o) {
  return o ? `Ongoing: ${(ONGOING[o.kind] || ((n) => `${o.kind} ${n}`))(o.amount)}` : '';
}

/** A card's effect in a short line, from the catalogue entry. */
export function cardEffect(c) {
  if (!c) return '';
  const parts = [];
  if (c.kind === 'beggar') parts.push('Beggar');
  if (c.action) parts.push(`Action: ${gainText(c.action)}`);
  if (c.activation) {
    const a = c.activation;
    const cost = [a.money ? `£${a.money}` : null, a.card ? 'a card' : null].filter(Boolean).join(' + ');
    parts.push(`${cost ? `Pay ${cost}: ` : 'Run: '}${gainText(a.gain) || 'nothing'}${a.flip ? ' (flips)' : ' (stays up)'}`);
  }
  if (c.ongoing) parts.push(ongoingText(c.ongoing));
  return parts.length ? parts.join('. ') : 'No effect';
}

/** A borough's effect in a short line: what buying it gives, its run effect, its ongoing effect. */
export function boroughEffect(b) {
  if (!b) return '';
  return [`Buy: ${gainText(b.immediate) || 'nothing'}`, b.run && gainText(b.run) ? `Run: ${gainText(b.run)}` : null,
    b.ongoing ? ongoingText(b.ongoing) : null].filter(Boolean).join('. ');
}

/** A button label for a legal action. ctx: the namer, name(seat), pending (the staged choice) and stacks. */
export function describeAction(a, ctx) {
  const p = ctx.pending || {};
  switch (a.type) {
    case 'repayLoan': return 'Repay a loan (£15)';
    case 'takeLoan': return 'Take a loan';
    case 'drawDeck': return 'Draw from the deck';
    case 'drawBoard': return `Draw ${ctx.card(a.card)} from the board`;
    case 'skipDraw': return 'Nothing to draw: go on';
    case 'develop': return 'Develop';
    case 'buyLand': return `Buy ${ctx.borough(a.borough)}`;
    case 'run': return 'Run the city';
    case 'drawThree': return 'Draw three cards';
    case 'play': return `Play ${ctx.card(a.card)}`;
    case 'discard': return `Discard ${ctx.card(a.card)}`;
    case 'newStack': return p.card ? `Build ${ctx.card(p.card)} as a new stack` : 'Start a new stack';
    case 'placeOn': {
      const top = ctx.stackTop ? ctx.stackTop(a.stack) : null;
      return `Build on stack ${a.stack + 1}${top ? ` (${ctx.card(top)})` : ''}`;
    }
    case 'pay': return typeof p.amount === 'number' ? `Pay £${p.amount}` : 'Pay';
    case 'cancel': return 'Cancel';
    case 'endDevelop': return 'Stop developing';
    case 'activate': return `Activate ${ctx.card(a.card)}`;
    case 'runBorough': return 'Run your top borough';
    case 'flip': return `Flip ${ctx.card(a.card)}`;
    case 'endRun': return 'Finish running the city';
    default: return JSON.stringify(a);
  }
}

function gainedText(e) {
  const parts = [e.money ? `£${e.money}` : null, e.prestige ? `${e.prestige} prestige` : null,
    e.draws ? `${e.draws} draw(s)` : null, e.povertyReturned ? `returned ${e.povertyReturned} poverty` : null,
    e.povertyGained ? `took ${e.povertyGained} poverty` : null].filter(Boolean);
  return parts.length ? parts.join(', ') : 'nothing';
}

/** One line of the events log for an event. ctx: the namer and name(seat). */
export function describeEvent(e, ctx) {
  const who = e.seat === null || e.seat === undefined ? '' : ctx.name(e.seat);
  switch (e.type) {
    case 'setUp': return `The match was set up: ${e.seats} players, ${ctx.name(e.start)} starts`;
    case 'handDealt': return `${who} was dealt ${e.hand.map(ctx.card).join(', ')}`;
    case 'turnStarted': return `Turn of ${who}`;
    case 'turnEnded': return `End of the turn of ${who}`;
    case 'lastTurns': return `The deck ran out: ${e.turns} last turn(s)`;
    case 'gameOver': return 'The game is over';
    case 'drew': return e.from === 'board' && e.card ? `${who} drew ${ctx.card(e.card)} from the board`
      : `${who} drew ${e.count} card(s) from the deck${e.deckLeft !== undefined ? ` (${e.deckLeft} left)` : ''}`;
    case 'cardDrawn': return `${who} drew ${ctx.card(e.card)}`;
    case 'discarded': return `${who} discarded ${ctx.card(e.card)} to the board (${e.row} row)`;
    case 'boardCleared': return `The board was full: ${e.cards.length} card(s) left the game`;
    case 'gained': return `${who} gained from ${ctx.source(e.source)}: ${gainedText(e)}`;
    case 'loanTaken': return `${who} took a loan (now ${e.loans}, £${e.money})`;
    case 'loanRepaid': return `${who} repaid a loan (now ${e.loans}, £${e.money})`;
    case 'actionChosen': return `${who} chose to ${ACTIONS[e.action] || e.action}`;
    case 'actionPlayed': return `${who} played the action card ${ctx.card(e.card)}${e.paid ? ` for £${e.paid}` : ''}`;
    case 'cardPlayed': return `${who} built ${ctx.card(e.card)} ${e.covered ? 'on' : 'as'} stack ${e.stack + 1}`
      + `${e.paid ? ` for £${e.paid}` : ''}`;
    case 'landBought': return `${who} bought ${ctx.borough(e.borough)} for £${e.paid}`;
    case 'activated': return `${who} activated ${ctx.card(e.card)}${e.paid ? ` paying £${e.paid}` : ''}`
      + `${e.discarded ? `, discarding ${ctx.card(e.discarded)}` : ''}`;
    case 'flipped': return `${who}'s ${ctx.card(e.card)} turned face down`;
    case 'povertyGained': return `${who} took ${e.total} poverty (${e.stacks} stacks, ${e.loans} loans, `
      + `${e.hand} cards in hand): ${e.poverty} in all`;
    default: {
      const rest = Object.entries(e).filter(([k]) => !['type', 'version', 'audience'].includes(k));
      return `${e.type}${rest.length ? ` ${rest.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')}` : ''}`;
    }
  }
}

/** What the current step asks of the seat to act (its own step and staged choice). ctx: the namer. */
export function prompt(you, ctx) {
  if (!you || !you.step) return '';
  const p = you.pending || {};
  switch (you.step) {
    case 'start': return 'Start of your turn: repay loans if you like, then draw a card.';
    case 'action': return 'Choose your action: develop, buy land, run your city or draw three cards.';
    case 'draw': return 'Draw a card from the deck or the development board.';
    case 'develop': return 'Play a card from your hand, or stop developing.';
    case 'discardFor': return `To play ${ctx.card(p.card)}, discard a card of the same colour.`;
    case 'place': return `Where does ${ctx.card(p.card)} go: a new stack or on top of one?`;
    case 'pay': return `Pay £${p.amount}${p.card ? ` for ${ctx.card(p.card)}` : p.borough ? ` for ${ctx.borough(p.borough)}` : ''}`
      + ' (or take a loan, or cancel).';
    case 'run': return 'Run your city: activate face-up cards, then finish.';
    case 'activationDiscard': return `Activating ${ctx.card(p.card)} costs a card: discard one.`;
    case 'flip': return `${ctx.card(p.card)} flips: choose the card that turns face down.`;
    case 'handLimit': return 'Too many cards in hand: discard down to the limit.';
    default: return '';
  }
}

export const STEPS = { start: 'Start of turn', action: 'Choosing an action', draw: 'Drawing', develop: 'Developing',
  run: 'Running the city', handLimit: 'Hand limit', over: 'Game over' };

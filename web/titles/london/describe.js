// London's words the page writes itself: card and borough effects from the catalogue and the prompt for the step
// the seat is at. What an action or an event means comes from the service as its label (issue 50).

const PER = { riverBorough: 'river borough', borough: 'borough', blue: 'blue card' };
const ONGOING = {
  flipInstead: () => 'may flip instead of the activated card',
  beggarsAnyColour: () => 'beggars count as any colour',
  cardDiscount: (n) => `cards cost £${n} less`,
  landDiscount: (n) => `boroughs cost £${n} less`,
  handLimit: (n) => `hand limit +${n}`,
};

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
  if (g.povertyDown) parts.push(`-${g.povertyDown} poverty`);
  if (g.povertyUp) parts.push(`+${g.povertyUp} poverty`);
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

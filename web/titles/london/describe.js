// London's words the page writes itself: card and borough effects from the catalogue and the prompt for the step
// the seat is at; the names of cards and boroughs as the title's catalogue writes them (the service's labels name
// them so). What an action or an event means comes from the service as its label (issue 50).

import { noun, t, tn } from '../../i18n.js';

/** Money as the rulebook writes it ("£3"). */
export function money(n) {
  return t('£{n}', { n });
}

const PER = { riverBorough: t('per river borough'), borough: t('per borough'), blue: t('per blue card') };
const ONGOING = {
  flipInstead: () => t('may flip instead of the activated card'),
  beggarsAnyColour: () => t('beggars count as any colour'),
  cardDiscount: (n) => t('cards cost {money} less', { money: money(n) }),
  landDiscount: (n) => t('boroughs cost {money} less', { money: money(n) }),
  handLimit: (n) => t('hand limit +{n}', { n }),
};

/** The names of the catalogue: card(id) and borough(id) give a name (the id when unknown). */
export function namer(board) {
  const cards = (board && board.cards) || {};
  const boroughs = (board && board.boroughs) || {};
  const card = (id) => (cards[id] ? noun('city card', cards[id].name) : String(id));
  const borough = (id) => (boroughs[id] ? noun('borough', boroughs[id].name) : String(id));
  return {
    cards,
    boroughs,
    card,
    borough,
    source: (id) => (cards[id] ? card(id) : boroughs[id] ? borough(id) : String(id)),
  };
}

/** A gain in words: "+£3, +1 prestige per blue card, -2 poverty, draw 1". */
export function gainText(g) {
  if (!g) return '';
  const parts = [];
  if (g.money) parts.push(`+${money(g.money)}`);
  if (g.prestige) parts.push(t('+{n} prestige', { n: g.prestige }));
  if (g.povertyDown) parts.push(t('-{n} poverty', { n: g.povertyDown }));
  if (g.povertyUp) parts.push(t('+{n} poverty', { n: g.povertyUp }));
  if (g.draw) parts.push(tn('draw {n} card', 'draw {n} cards', g.draw));
  const text = parts.join(', ');
  return g.per && text ? `${text} ${PER[g.per] || g.per}` : text;
}

function ongoingText(o) {
  return o ? t('Ongoing: {effect}', { effect: (ONGOING[o.kind] || ((n) => `${o.kind} ${n}`))(o.amount) }) : '';
}

/** A card's effect in a short line, from the catalogue entry. */
export function cardEffect(c) {
  if (!c) return '';
  const parts = [];
  if (c.kind === 'beggar') parts.push(t('Beggar'));
  if (c.action) parts.push(t('Action: {gain}', { gain: gainText(c.action) }));
  if (c.activation) {
    const a = c.activation;
    const gain = gainText(a.gain) || t('nothing');
    let run;
    if (a.money && a.card) run = t('Pay {money} and a card: {gain}', { money: money(a.money), gain });
    else if (a.money) run = t('Pay {money}: {gain}', { money: money(a.money), gain });
    else if (a.card) run = t('Pay a card: {gain}', { gain });
    else run = t('Run: {gain}', { gain });
    parts.push(`${run} ${a.flip ? t('(flips)') : t('(stays up)')}`);
  }
  if (c.ongoing) parts.push(ongoingText(c.ongoing));
  return parts.length ? parts.join('. ') : t('No effect');
}

/** A borough's effect in a short line: what buying it gives, its run effect, its ongoing effect. */
export function boroughEffect(b) {
  if (!b) return '';
  return [t('Buy: {gain}', { gain: gainText(b.immediate) || t('nothing') }),
    b.run && gainText(b.run) ? t('Run: {gain}', { gain: gainText(b.run) }) : null,
    b.ongoing ? ongoingText(b.ongoing) : null].filter(Boolean).join('. ');
}

/** What the current step asks of the seat to act (its own step and staged choice). ctx: the namer. */
export function prompt(you, ctx) {
  if (!you || !you.step) return '';
  const p = you.pending || {};
  switch (you.step) {
    case 'start': return t('Start of your turn: repay loans if you like, then draw a card.');
    case 'action': return t('Choose your action: develop, buy land, run your city or draw three cards.');
    case 'draw': return t('Draw a card from the deck or the development board.');
    case 'develop': return t('Play a card from your hand, or stop developing.');
    case 'discardFor': return t('To play {card}, discard a card of the same colour.', { card: ctx.card(p.card) });
    case 'place': return t('Where does {card} go: a new stack or on top of one?', { card: ctx.card(p.card) });
    case 'pay': {
      const amount = money(p.amount);
      if (p.card) return t('Pay {money} for {what} (or take a loan, or cancel).', { money: amount, what: ctx.card(p.card) });
      if (p.borough) {
        return t('Pay {money} for {what} (or take a loan, or cancel).', { money: amount, what: ctx.borough(p.borough) });
      }
      return t('Pay {money} (or take a loan, or cancel).', { money: amount });
    }
    case 'run': return t('Run your city: activate face-up cards, then finish.');
    case 'activationDiscard': return t('Activating {card} costs a card: discard one.', { card: ctx.card(p.card) });
    case 'flip': return t('{card} flips: choose the card that turns face down.', { card: ctx.card(p.card) });
    case 'handLimit': return t('Too many cards in hand: discard down to the limit.');
    default: return '';
  }
}

export const STEPS = { start: t('Start of turn'), action: t('Choosing an action'), draw: t('Drawing'),
  develop: t('Developing'), run: t('Running the city'), handLimit: t('Hand limit'), over: t('Game over') };

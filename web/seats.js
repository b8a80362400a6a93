// Seat controls shared by the lobby and a waiting match: who sits where, join, add a bot.

import { ADD_BOT, JOIN, gql } from './api.js';
import { h } from './dom.js';
import { t, theirs } from './i18n.js';
import * as session from './session.js';
import * as store from './store.js';
import { seatName } from './words.js';

/** A compact list of a match's seats (a person's name marked translate="no": a name, not words of the page). */
export function seatList(match) {
  const mine = store.get(match.id);
  return h('ul', { class: 'seats', 'data-testid': 'seats' }, match.seats.map((seat) => h('li', {
    class: seat.taken ? `seat taken ${seat.kind}` : 'seat open', 'data-seat': seat.seat,
  }, seat.taken
    ? [seat.kind === 'bot' ? seatName(seat) : h('span', { translate: 'no' }, seatName(seat)),
      `${seat.kind === 'bot' && !String(seat.name).includes(seat.level)
        ? ` ${t('({level} bot)', { level: theirs(seat.level) })}` : ''}${
        mine && mine.seat === seat.seat ? ` \u2014 ${t('you')}` : ''}`]
    : t('seat {n}: open', { n: seat.seat + 1 }))));
}

/** What joining says: the seat taken (and whether that started the match). */
function sat(r) {
  return r.started ? t('You sit in seat {n}: the match has started.', { n: r.seat + 1 })
    : t('You sit in seat {n}.', { n: r.seat + 1 });
}

/**
 * Join / add-bot buttons for a waiting match. getName() and getLevel() read the page's inputs;
 * onDone(message) is called after each attempt.
 */
export function seatButtons(match, { getName, getLevel, onDone }) {
  const mine = store.get(match.id) || {};
  const open = match.seats.some((seat) => !seat.taken);
  if (match.status !== 'WAITING' || !open) return null;
  const controls = [];
  const busy = (button, run) => async () => {
    button.disabled = true;
    try {
      onDone(await run());
    } catch (error) {
      onDone(t('Error: {reason}', { reason: error.message }));
    } finally {
      button.disabled = false;
    }
  };
  const player = session.player();
  const seated = mine.seat !== undefined || (player && match.seats.some((seat) => seat.player === player.id));
  if (!seated) {
    const join = h('button', { type: 'button', class: 'primary', 'data-testid': 'join' }, t('Join'));
    join.addEventListener('click', busy(join, async () => {
      if (session.player()) { // signed in: the seat is bound to the player, whose credential acts for it
        const r = (await session.call(JOIN, { input: { matchId: match.id } })).joinMatch;
        if (r.__typename !== 'SeatJoined') return t('Could not join: {reason}', { reason: r.message });
        store.remember(match.id, { seat: r.seat, player: true });
        return sat(r);
      }
      const name = getName().trim() || t('Player');
      const r = (await gql(JOIN, { input: { matchId: match.id, name } })).joinMatch;
      if (r.__typename !== 'SeatJoined') return t('Could not join: {reason}', { reason: r.message });
      store.remember(match.id, { seat: r.seat, token: r.token, name });
      return sat(r);
    }));
    controls.push(join);
  }
  const auth = mine.hostToken || mine.token;
  const asPlayer = !auth && player && (mine.player || mine.created);
  if (auth || asPlayer) {
    const bot = h('button', { type: 'button', 'data-testid': 'add-bot' }, t('Add bot'));
    bot.addEventListener('click', busy(bot, async () => {
      const level = getLevel();
      const variables = { input: { matchId: match.id, level } };
      const r = (asPlayer ? await session.call(ADD_BOT, variables) : await gql(ADD_BOT, variables, auth)).addBot;
      if (r.__typename !== 'BotAdded') return t('Could not add a bot: {reason}', { reason: r.message });
      const said = { level: theirs(r.level), n: r.seat + 1 };
      return r.started ? t('A {level} bot sits in seat {n}: the match has started.', said)
        : t('A {level} bot sits in seat {n}.', said);
    }));
    controls.push(bot);
  }
  return h('span', { class: 'seat-buttons' }, controls);
}

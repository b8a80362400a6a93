// Seat controls shared by the lobby and a waiting match: who sits where, join, add a bot.

import { ADD_BOT, JOIN, gql } from './api.js';
import { h } from './dom.js';
import * as session from './session.js';
import * as store from './store.js';

/** A compact list of a match's seats. */
export function seatList(match) {
  const mine = store.get(match.id);
  return h('ul', { class: 'seats', 'data-testid': 'seats' }, match.seats.map((seat) => h('li', {
    class: seat.taken ? `seat taken ${seat.kind}` : 'seat open', 'data-seat': seat.seat,
  }, seat.taken
    ? `${seat.name}${seat.kind === 'bot' && !String(seat.name).includes(seat.level) ? ` (${seat.level} bot)` : ''}${
      mine && mine.seat === seat.seat ? ' \u2014 you' : ''}`
    : `seat ${seat.seat + 1}: open`)));
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
      onDone(`Error: ${error.message}`);
    } finally {
      button.disabled = false;
    }
  };
  const player = session.player();
  const seated = mine.seat !== undefined || (player && match.seats.some((seat) => seat.player === player.id));
  if (!seated) {
    const join = h('button', { type: 'button', class: 'primary', 'data-testid': 'join' }, 'Join');
    join.addEventListener('click', busy(join, async () => {
      if (session.player()) { // signed in: the seat is bound to the player, whose credential acts for it
        const r = (await session.call(JOIN, { input: { matchId: match.id } })).joinMatch;
        if (r.__typename !== 'SeatJoined') return `Could not join: ${r.message}`;
        store.remember(match.id, { seat: r.seat, player: true });
        return `You sit in seat ${r.seat + 1}${r.started ? ': the match has started' : ''}.`;
      }
      const name = getName().trim() || 'Player';
      const r = (await gql(JOIN, { input: { matchId: match.id, name } })).joinMatch;
      if (r.__typename !== 'SeatJoined') return `Could not join: ${r.message}`;
      store.remember(match.id, { seat: r.seat, token: r.token, name });
      return `You sit in seat ${r.seat + 1}${r.started ? ': the match has started' : ''}.`;
    }));
    controls.push(join);
  }
  const auth = mine.hostToken || mine.token;
  const asPlayer = !auth && player && (mine.player || mine.created);
  if (auth || asPlayer) {
    const bot = h('button', { type: 'button', 'data-testid': 'add-bot' }, 'Add bot');
    bot.addEventListener('click', busy(bot, async () => {
      const level = getLevel();
      const variables = { input: { matchId: match.id, level } };
      const r = (asPlayer ? await session.call(ADD_BOT, variables) : await gql(ADD_BOT, variables, auth)).addBot;
      if (r.__typename !== 'BotAdded') return `Could not add a bot: ${r.message}`;
      return `A ${r.level} bot sits in seat ${r.seat + 1}${r.started ? ': the match has started' : ''}.`;
    }));
    controls.push(bot);
  }
  return h('span', { class: 'seat-buttons' }, controls);
}

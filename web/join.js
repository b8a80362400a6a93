// The invite link's page (#/join/<code>): a private match's invite code, as FIREBREAK_INVITE_URL hands it out by
// default. Signed in, the seat is bound to the player; otherwise the visitor names themself and keeps the seat's
// token in this browser. Once seated, the page goes to the match.

import { JOIN, gql } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import * as session from './session.js';
import * as store from './store.js';

/** Draw the join page for an invite code into root; returns the unmount function. */
export function mountJoin(root, code) {
  const say = h('p', { class: 'notice', 'data-testid': 'join-notice' });
  const nameInput = h('input', { type: 'text', maxlength: 40, placeholder: t('Your name'), 'data-testid': 'join-name',
    value: store.playerName() });
  const join = h('button', { type: 'button', class: 'primary', 'data-testid': 'join-invited' }, t('Join the match'));
  join.addEventListener('click', async () => {
    join.disabled = true;
    try {
      const player = session.player();
      const name = nameInput.value.trim() || t('Player');
      const r = player ? (await session.call(JOIN, { input: { code } })).joinMatch
        : (await gql(JOIN, { input: { code, name } })).joinMatch;
      if (r.__typename !== 'SeatJoined') {
        say.textContent = t('Could not join: {reason}', { reason: r.message });
        return;
      }
      store.remember(r.matchId, player ? { seat: r.seat, player: true } : { seat: r.seat, token: r.token, name });
      location.hash = `#/match/${encodeURIComponent(r.matchId)}`;
    } catch (error) {
      say.textContent = t('Could not reach the service: {reason}', { reason: error.message });
    } finally {
      join.disabled = false;
    }
  });
  root.replaceChildren(h('section', { class: 'panel', 'data-testid': 'join-page' },
    h('h2', {}, t('You are invited to a private match')),
    session.player() ? h('p', {}, t('Join as {name}.', { name: session.player().name }))
      : h('label', {}, t('Play as'), ' ', nameInput),
    ' ', join, say,
    h('p', {}, h('a', { href: '#/' }, t('Back to the lobby')))));
  return () => {};
}

// The header's account corner: "Sign in as guest" (a display name) when nobody is signed in; the player's name,
// a link to their matches and "Sign out" when someone is.

import { h } from './dom.js';
import * as session from './session.js';
import * as store from './store.js';

/** Fill el with the account corner; it redraws itself when a player signs in or out. */
export function mountAccount(el) {
  const draw = () => {
    const player = session.player();
    if (player) {
      const out = h('button', { type: 'button', class: 'small', 'data-testid': 'sign-out' }, 'Sign out');
      out.addEventListener('click', async () => {
        out.disabled = true;
        await session.signOut();
      });
      el.replaceChildren(h('a', { href: '#/me', class: 'mine-link', 'data-testid': 'my-matches-link' }, 'My matches'),
        h('span', { class: 'who-am-i', 'data-testid': 'signed-in-as', 'data-player': player.id }, player.name),
        out);
      return;
    }
    const name = h('input', { type: 'text', maxlength: 40, required: true, placeholder: 'Your name',
      'data-testid': 'guest-name', value: store.playerName() });
    const submit = h('button', { type: 'submit', class: 'small', 'data-testid': 'sign-in' }, 'Sign in as guest');
    const error = h('span', { class: 'account-error', 'data-testid': 'sign-in-error', role: 'status' });
    const form = h('form', { class: 'sign-in', 'data-testid': 'sign-in-form' }, name, submit, error);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (!name.value.trim()) return;
      submit.disabled = true;
      try {
        store.setPlayerName(name.value.trim());
        await session.signIn(name.value);
      } catch (failure) {
        error.textContent = `Could not sign in: ${failure.message}`;
        submit.disabled = false;
      }
    });
    el.replaceChildren(form);
  };
  session.onChange(draw);
  draw();
}

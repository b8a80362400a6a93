// The header's account corner: "Sign in as guest" (a display name) when nobody is signed in; the player's name
// and handle (which "Edit" changes, with the name, and where "Download my data" and "Delete my account" are),
// links to their matches and their friends (friends.js), and "Sign out" when someone is.

import { h } from './dom.js';
import { t } from './i18n.js';
import * as session from './session.js';
import * as store from './store.js';
import { notifySwitch } from './notify.js';

/** The form that changes the player's handle and name; done() closes it. */
function profileForm(player, done) {
  const handle = h('input', { type: 'text', maxlength: 40, required: true, value: player.handle || '',
    'aria-label': t('Handle'), 'data-testid': 'profile-handle' });
  const name = h('input', { type: 'text', maxlength: 40, required: true, value: player.name,
    'aria-label': t('Display name'), 'data-testid': 'profile-name' });
  const save = h('button', { type: 'submit', class: 'small', 'data-testid': 'save-profile' }, t('Save'));
  const cancel = h('button', { type: 'button', class: 'small', 'data-testid': 'cancel-profile' }, t('Cancel'));
  const error = h('span', { class: 'account-error', 'data-testid': 'profile-error', role: 'status' });
  const download = h('button', { type: 'button', class: 'small', 'data-testid': 'download-data' },
    t('Download my data'));
  const remove = h('button', { type: 'button', class: 'small danger', 'data-testid': 'delete-account' },
    t('Delete my account'));
  const form = h('form', { class: 'sign-in', 'data-testid': 'profile-form' }, handle, name, save, cancel, download,
    remove, error);
  cancel.addEventListener('click', done);
  remove.addEventListener('click', () => form.replaceWith(deletionForm(player, done)));
  download.addEventListener('click', async () => {
    download.disabled = true;
    try {
      window.location.assign(await session.exportUrl()); // an attachment: the page stays, the file downloads
    } catch (failure) {
      error.textContent = t('No download: {reason}', { reason: failure.message });
    }
    download.disabled = false;
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    save.disabled = true;
    try {
      await session.updateProfile(handle.value.trim() === player.handle ? null : handle.value,
        name.value.trim() === player.name ? null : name.value);
      done();
    } catch (failure) {
      error.textContent = failure.code === 'RATE_LIMITED' ? t('Handle changed too often today: try again later.')
        : t('Not saved: {reason}', { reason: failure.message });
      save.disabled = false;
    }
  });
  return form;
}

/** The confirmation of an account's deletion: the player types their handle, then it is deleted for good. */
function deletionForm(player, done) {
  const typed = h('input', { type: 'text', maxlength: 40, required: true, autocomplete: 'off',
    'aria-label': t('Type {handle} to confirm', { handle: player.handle }), placeholder: player.handle, 'data-testid': 'confirm-handle' });
  const confirm = h('button', { type: 'submit', class: 'small danger', 'data-testid': 'confirm-delete',
    disabled: true }, t('Delete for good'));
  const cancel = h('button', { type: 'button', class: 'small', 'data-testid': 'cancel-delete' }, t('Keep it'));
  const error = h('span', { class: 'account-error', 'data-testid': 'delete-error', role: 'status' });
  const form = h('form', { class: 'sign-in', 'data-testid': 'delete-form' },
    h('span', {}, t('Your matches stay in other players\u2019 histories as \u201cDeleted player\u201d; the rest goes. Type your handle:')),
    typed, confirm, cancel, error);
  typed.addEventListener('input', () => { confirm.disabled = typed.value.trim() !== player.handle; });
  cancel.addEventListener('click', done);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (typed.value.trim() !== player.handle) return;
    confirm.disabled = true;
    try {
      await session.deleteAccount();
      done(); // signed out: the corner redraws as the sign-in form
    } catch (failure) {
      error.textContent = t('Not deleted: {reason}', { reason: failure.message });
      confirm.disabled = false;
    }
  });
  return form;
}

/** Fill el with the account corner; it redraws itself when a player signs in or out. */
export function mountAccount(el) {
  let editing = false;
  const draw = () => {
    const player = session.player();
    if (player) {
      if (!player.handle) session.reloadPlayer().catch(() => {}); // a session kept from before handles
      const out = h('button', { type: 'button', class: 'small', 'data-testid': 'sign-out' }, t('Sign out'));
      out.addEventListener('click', async () => {
        out.disabled = true;
        await session.signOut();
      });
      const edit = h('button', { type: 'button', class: 'small', 'data-testid': 'edit-profile' }, t('Edit'));
      edit.addEventListener('click', () => { editing = true; draw(); });
      const who = editing ? profileForm(player, () => { editing = false; draw(); })
        : h('span', {}, h('span', { class: 'who-am-i', 'data-testid': 'signed-in-as', 'data-player': player.id },
          player.name), ' ', h('span', { class: 'my-handle', 'data-testid': 'my-handle' },
          player.handle ? `@${player.handle}` : ''), ' ', edit);
      el.replaceChildren(h('a', { href: '#/me', class: 'mine-link', 'data-testid': 'my-matches-link' }, t('My matches')),
        h('a', { href: '#/friends', class: 'friends-link', 'data-testid': 'friends-link' }, t('Friends')),
        who, notifySwitch(), out);
      return;
    }
    editing = false;
    const name = h('input', { type: 'text', maxlength: 40, required: true, placeholder: t('Your name'),
      'data-testid': 'guest-name', value: store.playerName() });
    const submit = h('button', { type: 'submit', class: 'small', 'data-testid': 'sign-in' }, t('Sign in as guest'));
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
        error.textContent = t('Could not sign in: {reason}', { reason: failure.message });
        submit.disabled = false;
      }
    });
    el.replaceChildren(form);
  };
  session.onChange(draw);
  draw();
}

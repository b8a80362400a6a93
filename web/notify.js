// "Notify me": a switch in the account corner that registers this browser for pushes (a service worker and a
// PushSubscription handed to the service) where the browser allows it, and removes the registration when turned
// off (docs/guides/push.md).

import { h } from './dom.js';
import { t } from './i18n.js';
import * as session from './session.js';

const REGISTER = `mutation($input: RegisterPushSubscriptionInput!) { registerPushSubscription(input: $input) {
  __typename ... on PushSubscriptionRegistered { subscription { id } } ... on Problem { code message } } }`;
const REMOVE = `mutation($id: ID!) { removePushSubscription(input: {id: $id}) { __typename } }`;
const KEY = 'query { pushPublicKey }';
const WORKER = '/static/sw.js';

/** Whether this browser can take pushes at all. */
export function supported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function bytes(base64url) {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** Resolves once the registration has an active worker (PushManager.subscribe needs one). */
function activated(registration) {
  const worker = registration.installing || registration.waiting;
  if (registration.active || !worker) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => { if (worker.state === 'activated') resolve(); };
    worker.addEventListener('statechange', check);
    check();
  });
}

async function subscription() {
  const registration = await navigator.serviceWorker.getRegistration(WORKER);
  return registration ? registration.pushManager.getSubscription() : null;
}

/** Register the browser: permission, service worker, PushSubscription, then the service's registration. */
export async function enable() {
  if ((await Notification.requestPermission()) !== 'granted') throw new Error(t('notifications are blocked'));
  const registration = await navigator.serviceWorker.register(WORKER);
  await activated(registration); // its scope (/static/) is not the page's: serviceWorker.ready would never come
  const key = (await session.call(KEY)).pushPublicKey;
  const sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) });
  const json = sub.toJSON();
  const answer = (await session.call(REGISTER, { input: { endpoint: json.endpoint, keys: json.keys } }))
    .registerPushSubscription;
  if (answer.__typename !== 'PushSubscriptionRegistered') throw new Error(answer.message || answer.__typename);
  return answer.subscription.id;
}

/** Unregister the browser: the service's registration, then the PushSubscription. */
export async function disable(id) {
  if (id) await session.call(REMOVE, { id });
  const sub = await subscription();
  if (sub) await sub.unsubscribe();
}

/** The switch, or nothing where the browser cannot take pushes. */
export function notifySwitch() {
  if (!supported()) return '';
  const box = h('input', { type: 'checkbox', 'data-testid': 'notify-me' });
  const status = h('span', { class: 'account-error', 'data-testid': 'notify-status', role: 'status' });
  let id = localStorage.getItem('firebreak.push.id');
  box.checked = Boolean(id) && Notification.permission === 'granted';
  box.addEventListener('change', async () => {
    box.disabled = true;
    try {
      if (box.checked) {
        id = await enable();
        localStorage.setItem('firebreak.push.id', id);
        status.textContent = t('Notifications on');
      } else {
        await disable(id);
        localStorage.removeItem('firebreak.push.id');
        id = null;
        status.textContent = t('Notifications off');
      }
    } catch (failure) {
      box.checked = false;
      status.textContent = t('No notifications: {reason}', { reason: failure.message });
    }
    box.disabled = false;
  });
  return h('label', { class: 'notify-me' }, box, ` ${t('Notify me')}`, status);
}

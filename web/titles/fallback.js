// The generic client, for any title without a module of its own (and for any title with ?client=fallback):
// the view as a collapsible tree, the legal actions as buttons (the frame lists them, labelled here from the
// action itself), events in words derived from their fields, and the frame's typed result. A new title is
// playable in the browser from its first commit.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { words as typeWords } from '../words.js';

const HIDDEN_FIELDS = new Set(['type', 'version', 'audience', 'label']); // (label: the service's words)

function valueText(value) {
  if (value === null || value === undefined) return t('none');
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (typeof value === 'object') return Object.entries(value).map(([k, v]) => `${k} ${valueText(v)}`).join(', ');
  return String(value);
}

function fieldsText(item) {
  return Object.entries(item).filter(([key]) => !HIDDEN_FIELDS.has(key))
    .map(([key, value]) => `${typeWords(key).toLowerCase()} ${valueText(value)}`).join(', ');
}

/** A label for any action: its type in words, then its other fields ("Move band: from x, to y"). */
export function actionText(action) {
  const rest = fieldsText(action);
  return `${typeWords(action.type || 'action')}${rest ? `: ${rest}` : ''}`;
}

/** A line for any event: who (its seat, if any), its type in words, then its other fields. */
export function eventText(event, name) {
  const { seat, ...others } = event;
  const rest = fieldsText(others);
  const who = seat === null || seat === undefined ? '' : `${name(seat)}: `;
  return `${who}${typeWords(event.type || 'event')}${rest ? ` (${rest})` : ''}`;
}

/** A JSON value as nested <details>: objects and lists fold, plain values show as "key: value". */
function tree(key, value, path, open) {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    const details = h('details', { 'data-path': path, open: open.has(path) },
      h('summary', {}, h('span', { class: 'tree-key' }, key),
        h('span', { class: 'muted' }, Array.isArray(value) ? ` [${entries.length}]` : ` {${entries.length}}`)),
      h('ul', { class: 'tree' }, entries.map(([k, v]) => h('li', {}, tree(k, v, `${path}/${k}`, open)))));
    details.addEventListener('toggle', () => (details.open ? open.add(path) : open.delete(path)));
    return details;
  }
  return h('span', { class: 'tree-leaf', 'data-path': path }, h('span', { class: 'tree-key' }, key), ': ',
    h('span', { class: 'tree-value' }, JSON.stringify(value)));
}

class GenericClient {
  constructor(slots, ctx) {
    Object.assign(this, { slots, ctx });
    this.open = new Set(['view']); // the folds the player opened, kept across redraws
    this.offersActions = false;
    this.autoSend = [];
  }

  render(state) {
    this.slots.main.replaceChildren(h('div', { class: 'panel generic-view', 'data-testid': 'view-tree' },
      h('h2', {}, t('What you see')),
      h('p', { class: 'muted' }, t('This title is shown by the generic client: your legal actions are the buttons under \u201cYour move\u201d.')),
      tree('view', state.view, 'view', this.open)));
  }

  describeEvent(event) {
    return eventText(event, this.ctx.name);
  }

  describeAction(action) {
    return actionText(action);
  }
}

/** Mount the generic client in the frame's slots (see clients.js for the interface). */
export function mount(slots, ctx) {
  return new GenericClient(slots, ctx);
}

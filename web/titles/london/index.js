// London's client module (the interface is described in web/clients.js): the seat's hand as cards, every city's
// stacks and boroughs, the development board, the boroughs on offer, and every legal action as a labelled button.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { STEPS, namer, prompt } from './describe.js';
import { actionsPanel, boardPanel, boroughsPanel, citiesPanel, factsPanel, handPanel, playerColumns } from './panels.js';

/** Add this module's stylesheet to the page once; resolves when it is loaded (or failed: the page still works). */
function addStyle() {
  const href = new URL('./style.css', import.meta.url).href;
  if ([...document.querySelectorAll('link[rel=stylesheet]')].some((l) => l.href === href)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = h('link', { rel: 'stylesheet', href });
    link.addEventListener('load', resolve);
    link.addEventListener('error', resolve);
    document.head.append(link);
  });
}

class LondonClient {
  constructor(slots, ctx) {
    Object.assign(this, { slots, ctx });
    this.offersActions = true;
    this.autoSend = ['skipDraw']; // L4: nothing left to draw; alone, it asks nothing
    this.state = null;
    this.words = { ...namer(ctx.title.board), name: (seat) => ctx.name(seat) };
    this.boardBox = h('div', { class: 'london' });
    slots.main.replaceChildren(this.boardBox);
  }

  render(state) {
    this.state = state;
    const v = state.view;
    this.boardBox.replaceChildren(
      v.you ? handPanel(this, state) : null, boroughsPanel(this, state), boardPanel(this, state),
      citiesPanel(this, state));
    this.slots.actions.replaceChildren(...actionsPanel(this, state));
    this.slots.side.replaceChildren(factsPanel(state));
    this.slots.below.replaceChildren();
  }

  turn(state) {
    const v = state.view;
    // a resignation leaves any step
    if (state.match.status === 'OVER') return { facts: t('Step: {step}', { step: STEPS.over }) };
    const facts = [t('Step: {step}', { step: STEPS[v.phase] || v.phase })];
    if (v.turn !== null && v.turn !== undefined) facts.push(t('turn of {name}', { name: this.ctx.name(v.turn) }));
    facts.push(t('deck {n}', { n: v.deck.count }));
    return { prompt: prompt(v.you, this.words), facts: facts.join(' \u00b7 ') };
  }

  playerColumns(state) {
    return playerColumns(state.view);
  }

  describeEvent(event) {
    return event.label; // the service's words, in the reader's language (issue 50)
  }

  describeAction(action) {
    return action.label;
  }
}

/** Mount the London client in the frame's slots (see web/clients.js). */
export async function mount(slots, ctx) {
  await addStyle();
  return new LondonClient(slots, ctx);
}

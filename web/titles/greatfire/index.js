// The Great Fire's client module (the interface is described in web/clients.js): the map of London, clickable
// districts, the hand of fire cards, objectives, the score track and the rulebook's words for events.

import { h } from '../../dom.js';
import { noun, t, tn } from '../../i18n.js';
import { drawBoard, fitLabels, layout, legend, linksInDirection } from './board.js';
import { PHASES, cardLabel, prompt } from './describe.js';
import { actionsPanel, factsPanel, playerColumns, scoreTrack, youPanel } from './panels.js';

// R18b pauses: every player is asked, whatever they hold; with nothing else to choose, the page answers by itself.
const PAUSE_TYPES = ['endFire', 'endActions'];

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

/** The districts an action is aimed at (moveBand is picked by its band first: see districtOptions). */
export function targetOf(action) {
  if (action.type === 'movePawn') return action.to;
  if (action.type === 'moveBand') return null;
  return typeof action.district === 'string' ? action.district : null;
}

class GreatFireClient {
  constructor(slots, ctx) {
    Object.assign(this, { slots, ctx });
    this.board = ctx.title.board;
    this.geometry = layout(this.board);
    this.names = new Map(this.board.districts.map((d) => [d.id, d.name]));
    this.offersActions = true;
    this.autoSend = PAUSE_TYPES;
    this.bandFrom = null; // a district whose band the player is moving
    this.chooser = null; // a district clicked that offers several actions
    this.listOpen = null; // the player opened (true) or folded (false) the districts by name; null: by its length
    this.version = null;
    this.state = null;
    this.svgHolder = h('div', { class: 'svg-holder' });
    this.scoreBox = h('div', { class: 'panel score' });
    // On a phone the fitted map's names are a few pixels high: the zoom (shown on narrow screens only, style.css)
    // draws it three times as wide in a frame that pans.
    this.zoom = h('button', { type: 'button', class: 'map-zoom', 'data-testid': 'map-zoom', 'aria-pressed': 'false' },
      t('Zoom the map'));
    this.zoom.addEventListener('click', () => this.toggleZoom());
    slots.main.replaceChildren(this.zoom, this.svgHolder, legend());
    slots.below.replaceChildren(this.scoreBox);
    // The rulebook's names: the non-player for a seatless event, district names for ids.
    this.words = {
      name: (seat) => (seat === null || seat === undefined ? t('The non-player') : ctx.name(seat)),
      district: (id) => noun('district', this.names.get(id) || id),
    };
  }

  /** Zoom the map in (panned to its middle) or fit it to the page again. */
  toggleZoom() {
    const zoomed = this.svgHolder.classList.toggle('zoomed');
    this.zoom.textContent = zoomed ? t('Fit the map') : t('Zoom the map');
    this.zoom.setAttribute('aria-pressed', String(zoomed));
    const holder = this.svgHolder;
    if (zoomed) {
      holder.scrollTo((holder.scrollWidth - holder.clientWidth) / 2, (holder.scrollHeight - holder.clientHeight) / 2);
    }
  }

  /** Forget a half-made choice (a band picked up, a chooser open). */
  clearChoice() {
    this.bandFrom = null;
    this.chooser = null;
  }

  render(state) {
    if (state.match.version !== this.version || state.busy) this.clearChoice();
    this.version = state.match.version;
    this.state = state;
    this.renderBoard(state);
    this.scoreBox.replaceChildren(...scoreTrack(state.view));
    this.slots.actions.replaceChildren(...actionsPanel(this, state));
    this.slots.side.replaceChildren(...[state.view.you ? youPanel(this, state) : null, factsPanel(this, state)]
      .filter(Boolean));
  }

  renderBoard(state) {
    const v = state.view;
    const st = v.stage || {};
    let arrows = [];
    if (v.phase === 'fire' && st.card && st.source) {
      const spread = state.legalActions.filter((a) => a.type === 'spreadFire').map((a) => [st.source, a.district]);
      arrows = spread.length ? spread : linksInDirection(this.board, st.source, st.card);
    }
    const selected = this.bandFrom || this.chooser || (v.phase === 'fire' ? st.source : null);
    const svg = drawBoard(this.board, this.geometry, v, {
      targets: this.targets(state), selected, arrows,
      objectives: new Set(v.you ? v.you.objectives.map((o) => o.district) : []),
      onDistrict: (id) => this.onDistrict(id),
    });
    this.svgHolder.replaceChildren(svg);
    fitLabels(svg);
  }

  /** What clicking a district offers: [{action}] or [{select: district}] (to move a band from there). */
  districtOptions(id, acts = this.state.legalActions) {
    if (this.bandFrom) {
      return acts.filter((a) => a.type === 'moveBand' && a.from === this.bandFrom && a.to === id)
        .map((action) => ({ action }));
    }
    const options = acts.filter((a) => targetOf(a) === id).map((action) => ({ action }));
    if (acts.some((a) => a.type === 'moveBand' && a.from === id)) options.push({ select: id });
    return options;
  }

  targets(state) {
    const ids = new Set();
    if (!state.yourTurn || state.busy) return ids;
    for (const d of this.board.districts) if (this.districtOptions(d.id, state.legalActions).length) ids.add(d.id);
    if (this.bandFrom) ids.add(this.bandFrom);
    return ids;
  }

  onDistrict(id) {
    if (!this.state || this.state.busy) return;
    if (this.bandFrom && id === this.bandFrom) {
      this.bandFrom = null;
      this.ctx.redraw();
      return;
    }
    const options = this.districtOptions(id);
    if (options.length === 1) {
      if (options[0].action) {
        this.ctx.act(options[0].action);
      } else {
        this.bandFrom = options[0].select;
        this.chooser = null;
        this.ctx.redraw();
      }
    } else if (options.length > 1) {
      this.chooser = id;
      this.ctx.redraw();
    }
  }

  turn(state) {
    const v = state.view;
    const st = v.stage || {};
    // a resignation leaves any phase
    if (state.match.status === 'OVER') return { facts: t('Phase: {phase}', { phase: PHASES.over }) };
    const facts = [t('Phase: {phase}', { phase: PHASES[v.phase] || v.phase })];
    if (v.turn !== null && v.turn !== undefined) facts.push(t('turn of {name}', { name: this.words.name(v.turn) }));
    if (v.phase === 'fire' && st.card) {
      const card = cardLabel(st.card);
      facts.push(st.source ? t('card {card} from {district}', { card, district: this.words.district(st.source) })
        : t('card {card}', { card }));
      facts.push(tn('{n} move left', '{n} moves left', st.movesLeft));
    }
    if (v.phase === 'actions') facts.push(tn('{n} action point left', '{n} action points left', st.actionPoints));
    if (v.phase === 'placeCones') facts.push(tn('{n} fire cone to place', '{n} fire cones to place', st.conesToPlace));
    const npc = state.match.serviceToAct && v.phase === 'nonPlayer';
    return { headline: npc ? t('The non-player turn is being played\u2026') : null, prompt: prompt(v),
      facts: facts.join(' \u00b7 ') };
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

/** Mount the Great Fire client in the frame's slots (see web/clients.js). */
export async function mount(slots, ctx) {
  await addStyle();
  return new GreatFireClient(slots, ctx);
}

// A match page: the board, the side panel (turn, actions, your hand, players, score track) and the event log.
// It re-reads match(id) after every pushed step, so what it shows is always one consistent version.

import { ACT, MATCH, MATCH_EVENTS, Subscription, gql, loadBoard } from './api.js';
import { COLOUR_HEX, drawBoard, fitLabels, layout, legend, linksInDirection } from './board.js';
import { PHASES, TOKEN_NAMES, cardLabel, describeAction, describeEvent, prompt } from './describe.js';
import { h, randomKey } from './dom.js';
import { seatButtons, seatList } from './seats.js';
import * as store from './store.js';

const LOG_STEPS = 150; // steps of history shown in the log
const WAIT_POLL_MS = 1500; // how often a waiting match is re-read (seat changes are not pushed)
const QUIET_MS = 15000; // re-read an active match after this long without a pushed step
const BUTTON_TYPES = new Set(['keepHand', 'redeal', 'playDoubleMove', 'endFire', 'endActions']);
const CARD_TYPES = new Set(['playCard', 'discard']);
// R18b pauses: every player is asked, whatever they hold; with nothing else to choose, the page answers by itself.
const PAUSE_TYPES = new Set(['endFire', 'endActions']);

export function mountMatch(root, matchId, { spectate }) {
  const page = new MatchPage(root, matchId, spectate);
  page.start();
  return () => page.stop();
}

/** The districts an action is aimed at (moveBand is picked by its band first: see districtOptions). */
function targetOf(action) {
  if (action.type === 'movePawn') return action.to;
  if (action.type === 'moveBand') return null;
  return typeof action.district === 'string' ? action.district : null;
}

function swatch(colour, title = colour) {
  return h('span', { class: 'swatch', style: `background:${COLOUR_HEX[colour] || '#888'}`, title, 'data-colour': colour });
}

class MatchPage {
  constructor(root, matchId, spectate) {
    Object.assign(this, { root, id: matchId, spectate });
    this.token = spectate ? null : (store.get(matchId) || {}).token || null;
    this.data = null;
    this.board = null;
    this.geometry = null;
    this.steps = new Map(); // version -> events, as pushed (redacted for this viewer)
    this.lastSeen = 0;
    this.busy = false;
    this.bandFrom = null; // a district whose band the player is moving
    this.chooser = null; // a district clicked that offers several actions
    this.notice = '';
    this.onlyChoiceSent = -1; // the version whose only choice the page sent by itself
    this.stopped = false;
    this.refreshing = false;
    this.again = false;
    this.timers = new Set();
    this.el = h('section', { class: 'match', 'data-testid': 'match', 'data-busy': 'true', 'data-version': '-1' });
    this.head = h('div', { class: 'match-head' });
    this.noticeEl = h('p', { class: 'notice', 'data-testid': 'notice', role: 'status' });
    this.boardWrap = h('div', { class: 'board-wrap' });
    this.side = h('aside', { class: 'side' });
    this.logList = h('ol', { class: 'log', 'data-testid': 'log', reversed: true });
    // Under the board, built once so that the log keeps its scroll position: the score track and the events.
    this.svgHolder = h('div', { class: 'svg-holder' });
    this.scoreBox = h('div', { class: 'panel score' });
    this.below = h('div', { class: 'below' }, this.scoreBox,
      h('div', { class: 'panel events' }, h('h2', {}, 'Events (newest first)'), this.logList));
    this.boardBuilt = false;
    this.el.append(this.head, this.noticeEl, h('div', { class: 'match-body' }, this.boardWrap, this.side));
    root.replaceChildren(this.el);
    this.boardWrap.append(h('p', { class: 'muted' }, 'Loading the match\u2026'));
  }

  later(fn, ms) {
    const t = setTimeout(() => { this.timers.delete(t); if (!this.stopped) fn(); }, ms);
    this.timers.add(t);
  }

  stop() {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    if (this.sub) this.sub.close();
  }

  async start() {
    try {
      const d = (await gql(MATCH, { id: this.id }, this.token)).match;
      if (this.stopped) return;
      if (!d) {
        this.boardWrap.replaceChildren(h('p', { 'data-testid': 'not-found' }, 'No such match (it may have expired). ',
          h('a', { href: '#/' }, 'Back to the lobby')));
        return;
      }
      if (this.token && d.mySeat === null) {
        this.token = null;
        this.notice = 'The seat token kept by this browser is not valid here: this is the spectator view.';
      }
      const title = await loadBoard(d.title);
      this.board = title.board;
      this.botLevels = title.botLevels;
      this.geometry = layout(this.board);
      this.data = d;
      this.lastSeen = Math.max(0, d.version - LOG_STEPS);
      this.render();
      this.heard = Date.now();
      this.subscribe();
      this.watchdog();
      if (d.status === 'WAITING') this.later(() => this.pollWaiting(), WAIT_POLL_MS);
    } catch (error) {
      this.boardWrap.replaceChildren(h('p', {}, `Cannot load the match: ${error.message}. Retrying\u2026`));
      this.later(() => this.start(), 2000);
    }
  }

  subscribe() {
    if (this.sub) this.sub.close();
    this.sub = new Subscription({
      query: MATCH_EVENTS,
      token: this.token,
      variables: () => ({ id: this.id, after: this.lastSeen }),
      onNext: (data) => {
        const step = data.matchEvents;
        this.heard = Date.now();
        this.steps.set(step.version, step.events);
        this.lastSeen = Math.max(this.lastSeen, step.version);
        this.trimSteps();
        if (!this.data || step.version > this.data.version) this.refresh();
        else this.renderLogSoon();
      },
      onError: (errors) => {
        // The stream is resumed from the last version seen, so nothing is lost; say so only in the console.
        console.warn('match events:', errors); // eslint-disable-line no-console
      },
      onComplete: () => this.refresh(),
      resume: () => !this.stopped && !(this.data && this.data.status === 'OVER'),
    });
    this.sub.start();
  }

  trimSteps() {
    if (this.steps.size <= LOG_STEPS * 2) return;
    const keep = [...this.steps.keys()].sort((a, b) => b - a).slice(0, LOG_STEPS);
    const kept = new Set(keep);
    for (const v of [...this.steps.keys()]) if (!kept.has(v)) this.steps.delete(v);
  }

  /** A safety net under the subscription: re-read an active match that has been quiet for a while. */
  watchdog() {
    this.later(() => {
      if (this.data && this.data.status === 'ACTIVE' && Date.now() - this.heard > QUIET_MS) this.refresh();
      if (!this.data || this.data.status !== 'OVER') this.watchdog();
    }, QUIET_MS);
  }

  async pollWaiting() {
    await this.refresh();
    if (this.data && this.data.status === 'WAITING') this.later(() => this.pollWaiting(), WAIT_POLL_MS);
  }

  /** Re-read the match (coalesced: one read in flight, one more queued at most). */
  async refresh() {
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = true;
    try {
      do {
        this.again = false;
        const d = (await gql(MATCH, { id: this.id }, this.token)).match;
        if (this.stopped) return;
        this.heard = Date.now();
        if (d && this.accept(d)) this.render();
      } while (this.again);
    } catch (error) {
      this.notice = `Cannot refresh: ${error.message}`;
      this.renderHead();
      this.later(() => this.refresh(), 2000);
    } finally {
      this.refreshing = false;
    }
  }

  /** Take a newer read of the match; true when something changed. */
  accept(d) {
    const old = this.data;
    if (old && d.version < old.version) return false;
    const seatsChanged = !old || JSON.stringify(old.seats) !== JSON.stringify(d.seats);
    if (old && d.version === old.version && d.status === old.status && !seatsChanged) return false;
    if (!old || d.version !== old.version) {
      this.bandFrom = null;
      this.chooser = null;
    }
    this.data = d;
    return true;
  }

  async act(action) {
    if (this.busy || !this.data) return;
    this.busy = true;
    this.bandFrom = null;
    this.chooser = null;
    this.notice = '';
    this.render();
    const input = { matchId: this.id, action, expectedVersion: this.data.version, idempotencyKey: randomKey() };
    let result = null;
    let failure = null;
    for (let attempt = 0; attempt < 2 && !result; attempt++) {
      try {
        result = (await gql(ACT, { input }, this.token)).act; // a retry reuses the key: it never applies twice
      } catch (error) {
        failure = error;
      }
    }
    if (this.stopped) return;
    this.busy = false;
    if (result && result.__typename === 'ActionAccepted') {
      this.steps.set(result.version, result.events);
      if (result.match) this.accept(result.match);
      this.render();
      if (!result.match) this.refresh();
      return;
    }
    if (!result) this.notice = `Could not send the action: ${failure && failure.message}`;
    else if (result.__typename === 'StaleVersion') this.notice = 'The match had moved on: this is where it stands now.';
    else this.notice = `${result.message} (${result.code})`;
    this.render();
    this.refresh();
  }

  // ----- what the caller may do -----------------------------------------------------------------------

  yourTurn() {
    const d = this.data;
    return Boolean(d && d.status === 'ACTIVE' && d.mySeat !== null && d.toAct.includes(d.mySeat));
  }

  actions() {
    return this.yourTurn() ? this.data.legalActions : [];
  }

  /** What clicking a district offers: [{action}] or [{select: district}] (to move a band from there). */
  districtOptions(id) {
    const acts = this.actions();
    if (this.bandFrom) {
      return acts.filter((a) => a.type === 'moveBand' && a.from === this.bandFrom && a.to === id)
        .map((action) => ({ action }));
    }
    const options = acts.filter((a) => targetOf(a) === id).map((action) => ({ action }));
    if (acts.some((a) => a.type === 'moveBand' && a.from === id)) options.push({ select: id });
    return options;
  }

  targets() {
    const ids = new Set();
    if (!this.yourTurn() || this.busy) return ids;
    for (const d of this.board.districts) if (this.districtOptions(d.id).length) ids.add(d.id);
    if (this.bandFrom) ids.add(this.bandFrom);
    return ids;
  }

  onDistrict(id) {
    if (this.busy) return;
    if (this.bandFrom && id === this.bandFrom) {
      this.bandFrom = null;
      this.render();
      return;
    }
    const options = this.districtOptions(id);
    if (options.length === 1) {
      if (options[0].action) {
        this.act(options[0].action);
      } else {
        this.bandFrom = options[0].select;
        this.chooser = null;
        this.render();
      }
    } else if (options.length > 1) {
      this.chooser = id;
      this.render();
    }
  }

  // ----- names ----------------------------------------------------------------------------------------

  ctx() {
    const d = this.data;
    const byId = new Map(this.board ? this.board.districts.map((x) => [x.id, x.name]) : []);
    return {
      name: (seat) => {
        if (seat === null || seat === undefined) return 'The non-player';
        const info = d.seats[seat];
        let name = info && info.name ? info.name : `Seat ${seat + 1}`;
        if (d.seats.some((other) => other.seat !== seat && other.name === name)) name = `${name} ${seat + 1}`;
        return seat === d.mySeat ? `${name} (you)` : name;
      },
      district: (id) => byId.get(id) || id,
    };
  }

  // ----- rendering ------------------------------------------------------------------------------------

  render() {
    if (!this.data || this.stopped) return;
    const d = this.data;
    Object.assign(this.el.dataset, {
      version: String(d.version), status: d.status, busy: String(this.busy), yourTurn: String(this.yourTurn()),
      viewer: d.mySeat === null ? 'spectator' : `seat-${d.mySeat}`,
    });
    this.renderHead();
    if (d.status === 'WAITING') {
      this.renderWaiting();
      return;
    }
    this.renderBoard();
    this.renderSide();
    this.renderLog();
    this.sendOnlyChoice();
  }

  /** A pause whose only legal choice ends it (R18b: no double-move token, or no points and no charge) is not a
   * question: send that choice at once. Every seat was asked alike, so this changes nothing others see. */
  sendOnlyChoice() {
    const d = this.data;
    if (!this.yourTurn() || this.busy || d.legalActions.length !== 1) return;
    const [only] = d.legalActions;
    if (!PAUSE_TYPES.has(only.type) || this.onlyChoiceSent === d.version) return;
    this.onlyChoiceSent = d.version;
    this.act(only);
  }

  renderHead() {
    const d = this.data;
    this.noticeEl.textContent = this.notice;
    if (!d) return;
    const ctx = this.ctx();
    const watch = `#/watch/${encodeURIComponent(this.id)}`;
    const link = h('a', { href: watch, 'data-testid': 'spectator-link', class: 'button' }, 'Spectator link');
    const copy = h('button', { type: 'button', class: 'small', title: 'Copy the spectator link' }, 'Copy');
    copy.addEventListener('click', async () => {
      const url = new URL(watch, location.href).href;
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = 'Copied';
      } catch {
        window.prompt('Spectator link (no token in it):', url);
      }
    });
    this.head.replaceChildren(
      h('a', { href: '#/', class: 'button' }, '\u2190 Lobby'),
      h('h1', {}, d.title === 'greatfire' ? 'The Great Fire: London 1666' : d.title),
      h('span', { class: `status ${d.status.toLowerCase()}`, 'data-testid': 'status' }, d.status.toLowerCase()),
      h('span', { class: 'muted', 'data-testid': 'version' }, `version ${d.version}`),
      h('span', { class: 'viewer', 'data-testid': 'viewer' },
        d.mySeat === null ? 'Spectating' : `You are ${ctx.name(d.mySeat).replace(' (you)', '')}, seat ${d.mySeat + 1}`),
      h('span', { class: 'spacer' }),
      link, copy);
  }

  renderWaiting() {
    const d = this.data;
    const name = h('input', { type: 'text', maxlength: 40, placeholder: 'Your name', value: store.playerName(),
      'data-testid': 'player-name' });
    name.addEventListener('input', () => store.setPlayerName(name.value));
    const level = h('select', { 'data-testid': 'bot-level' },
      this.botLevels.map((l) => h('option', { value: l }, l)));
    const done = (message) => {
      this.notice = message;
      const token = (store.get(this.id) || {}).token || null;
      if (!this.spectate && token && token !== this.token) {
        this.token = token;
        this.steps.clear();
        this.data = null;
        this.stop();
        this.stopped = false;
        this.timers = new Set();
        this.start();
        return;
      }
      this.refresh();
    };
    this.boardBuilt = false;
    this.boardWrap.replaceChildren(h('div', { class: 'panel waiting', 'data-testid': 'waiting' },
      h('h2', {}, 'Waiting for players'),
      h('p', {}, `The match starts by itself when all ${d.seatCount} seats are taken.`),
      seatList(d),
      h('p', {}, h('label', {}, 'Play as ', name), ' ', h('label', {}, 'Bot level ', level), ' ',
        this.spectate ? null : seatButtons(d, { getName: () => name.value, getLevel: () => level.value, onDone: done }))));
    this.side.replaceChildren();
  }

  renderBoard() {
    const d = this.data;
    const v = d.view;
    const st = v.stage || {};
    let arrows = [];
    if (v.phase === 'fire' && st.card && st.source) {
      const spread = this.actions().filter((a) => a.type === 'spreadFire').map((a) => [st.source, a.district]);
      arrows = spread.length ? spread : linksInDirection(this.board, st.source, st.card);
    }
    const selected = this.bandFrom || this.chooser || (v.phase === 'fire' ? st.source : null);
    const svg = drawBoard(this.board, this.geometry, v, {
      targets: this.targets(), selected, arrows,
      objectives: new Set(v.you ? v.you.objectives.map((o) => o.district) : []),
      onDistrict: (id) => this.onDistrict(id),
    });
    if (!this.boardBuilt) {
      this.boardWrap.replaceChildren(this.svgHolder, legend(), this.below);
      this.boardBuilt = true;
    }
    this.svgHolder.replaceChildren(svg);
    fitLabels(svg);
    this.scoreBox.replaceChildren(...this.scoreTrack());
  }

  renderSide() {
    const d = this.data;
    const v = d.view;
    const ctx = this.ctx();
    const parts = [this.turnPanel(ctx)];
    if (this.yourTurn()) parts.push(this.actionsPanel(ctx));
    if (d.status === 'OVER' && d.result) parts.push(this.resultPanel(ctx));
    if (v.you) parts.push(this.youPanel(ctx));
    parts.push(this.playersPanel(ctx), this.factsPanel(ctx));
    const scroll = this.side.scrollTop;
    this.side.replaceChildren(...parts);
    this.side.scrollTop = scroll;
  }

  turnPanel(ctx) {
    const d = this.data;
    const v = d.view;
    const st = v.stage || {};
    let headline;
    if (d.status === 'OVER') headline = 'The game is over';
    else if (this.yourTurn()) headline = 'Your turn';
    else if (d.serviceToAct) headline = v.phase === 'nonPlayer' ? 'The non-player turn is being played\u2026' : `${ctx.name(v.turn)} (bot) is playing\u2026`;
    else if (d.toAct.length) headline = `Waiting for ${d.toAct.map(ctx.name).join(', ')}`;
    else headline = 'Waiting\u2026';
    const facts = [`Phase: ${PHASES[v.phase] || v.phase}`];
    if (v.turn !== null && v.turn !== undefined) facts.push(`turn of ${ctx.name(v.turn)}`);
    if (v.phase === 'fire' && st.card) {
      facts.push(`card ${cardLabel(st.card)}${st.source ? ` from ${ctx.district(st.source)}` : ''}, ${st.movesLeft} move(s) left`);
    }
    if (v.phase === 'actions') facts.push(`${st.actionPoints} action point(s) left`);
    if (v.phase === 'placeCones') facts.push(`${st.conesToPlace} cone(s) to place`);
    return h('div', { class: `panel turn${this.yourTurn() ? ' yours' : ''}`, 'data-testid': 'turn' },
      h('h2', {}, headline),
      this.yourTurn() ? h('p', { class: 'prompt', 'data-testid': 'prompt' }, prompt(v)) : null,
      h('p', { class: 'muted', 'data-testid': 'stage' }, facts.join(' \u00b7 ')));
  }

  actionsPanel(ctx) {
    const acts = this.actions();
    const disabled = this.busy ? true : null;
    const button = (action, testid, cls = '') => {
      const b = h('button', { type: 'button', class: cls, 'data-testid': testid, 'data-type': action.type, disabled },
        describeAction(action, ctx));
      b.addEventListener('click', () => this.act(action));
      return b;
    };
    const rows = [];
    if (this.chooser) {
      const options = this.districtOptions(this.chooser);
      rows.push(h('div', { class: 'chooser', 'data-testid': 'chooser' },
        h('p', {}, `At ${ctx.district(this.chooser)}:`),
        options.map((o) => {
          if (o.action) return button(o.action, 'choice', 'primary');
          const b = h('button', { type: 'button', class: 'primary', 'data-testid': 'choice', 'data-type': 'selectBand',
            disabled }, 'Move a trained band from here\u2026');
          b.addEventListener('click', () => { this.bandFrom = o.select; this.chooser = null; this.render(); });
          return b;
        }),
        this.cancelButton()));
    }
    if (this.bandFrom) {
      rows.push(h('div', { class: 'chooser', 'data-testid': 'band-selected' },
        h('p', {}, `Moving a band from ${ctx.district(this.bandFrom)}: click a highlighted district.`),
        this.cancelButton()));
    }
    const plain = acts.filter((a) => BUTTON_TYPES.has(a.type)
      || (!CARD_TYPES.has(a.type) && targetOf(a) === null && a.type !== 'moveBand'));
    if (plain.length) rows.push(h('div', { class: 'buttons' }, plain.map((a) => button(a, 'action', 'primary'))));
    if (!this.chooser && !this.bandFrom) {
      const onCards = acts.some((a) => CARD_TYPES.has(a.type));
      const onMap = acts.some((a) => targetOf(a) !== null || a.type === 'moveBand');
      const hints = [onCards ? 'a highlighted card in your hand' : null, onMap ? 'a highlighted district' : null];
      const hint = hints.filter(Boolean).join(' or ');
      if (hint) {
        rows.push(h('p', { class: 'hint' }, `Click ${hint}${acts.some((a) => a.type === 'moveBand')
          ? ' (to move a trained band, click its district, then where it goes)' : ''}.`));
      }
    }
    const all = h('details', { class: 'all-actions' }, h('summary', {}, `All legal actions (${acts.length})`),
      h('div', { class: 'buttons' }, acts.map((a) => button(a, 'action-list-item', 'small'))));
    rows.push(all);
    return h('div', { class: 'panel actions', 'data-testid': 'actions' }, h('h2', {}, 'Your move'), rows);
  }

  cancelButton() {
    const b = h('button', { type: 'button', class: 'small', 'data-testid': 'cancel' }, 'Cancel');
    b.addEventListener('click', () => { this.bandFrom = null; this.chooser = null; this.render(); });
    return b;
  }

  youPanel(ctx) {
    const you = this.data.view.you;
    const acts = this.actions();
    const cards = you.hand.map((card, i) => {
      const action = acts.find((a) => CARD_TYPES.has(a.type) && a.card === card);
      const b = h('button', {
        type: 'button', class: `card${action ? ' playable' : ''}`, 'data-testid': 'hand-card', 'data-card': card,
        'data-index': i, 'data-type': action ? action.type : null, disabled: !action || this.busy ? true : null,
        title: action ? describeAction(action, ctx) : `Fire card ${card}`,
      }, h('span', { class: 'arrow' }, cardLabel(card).split(' ')[1] || ''), h('span', { class: 'letter' }, card));
      if (action) b.addEventListener('click', () => this.act(action));
      return b;
    });
    const view = this.data.view;
    const objectives = you.objectives.map((o) => {
      const dv = view.districts[o.district];
      const standing = dv && Object.values(dv.houses).some((n) => n > 0) && !dv.burning;
      return h('li', { 'data-district': o.district },
        `${ctx.district(o.district)}: ${o.vp} VP (deck ${o.deck}) \u2014 `,
        h('span', { class: standing ? 'ok' : 'lost' }, standing ? 'standing' : dv && dv.burning ? 'burning' : 'lost'));
    });
    return h('div', { class: 'panel you', 'data-testid': 'you' },
      h('h2', {}, 'Your hand'),
      h('div', { class: 'hand', 'data-testid': 'hand' }, cards.length ? cards : h('span', { class: 'muted' }, 'empty')),
      h('h2', {}, 'Your objectives'),
      h('ul', { class: 'objectives', 'data-testid': 'objectives' }, objectives),
      h('h2', {}, 'Your tokens'),
      h('p', { 'data-testid': 'my-tokens' }, you.tokens.length
        ? you.tokens.map((t) => TOKEN_NAMES[t] || t).join(', ') : h('span', { class: 'muted' }, 'none')),
      h('p', {}, 'Your colours: ', you.colours.map((c) => [swatch(c), ` ${c} `])));
  }

  factsPanel(ctx) {
    const v = this.data.view;
    const rows = [
      ['Supply', `${v.supply} fire cones`],
      ['Fire deck', `${v.deckSize} cards, ${v.stacksLeft} stack card(s) left${v.untilIntensify !== null
        ? ` (next intensify in ${v.untilIntensify})` : ''}`],
      ['Discard pile', `${v.discardPile}${v.discardCards ? ` (${Object.entries(v.discardCards)
        .map(([card, n]) => `${n}\u00d7${cardLabel(card)}`).join(', ')})` : ''}`],
      ['Hero of London', v.hero === null ? 'nobody yet' : ctx.name(v.hero)],
    ];
    if (v.turnsLeft !== null && v.turnsLeft !== undefined) rows.push(['Turns left', `${v.turnsLeft}`]);
    const np = v.nonPlayer;
    if (np) {
      rows.push(['Non-player', [np.fireCard ? `fire ${cardLabel(np.fireCard)}` : null,
        np.priorityCard ? `priority ${np.priorityCard.join(' > ')}` : null,
        np.movementCard ? `movement ${ctx.district(np.movementCard)}` : null].filter(Boolean).join(' \u00b7 ') || '\u2014']);
    }
    return h('div', { class: 'panel facts', 'data-testid': 'facts' }, h('h2', {}, 'The city'),
      h('dl', {}, rows.map(([k, val]) => [h('dt', {}, k), h('dd', {}, val)])));
  }

  playersPanel(ctx) {
    const d = this.data;
    const v = d.view;
    const scores = d.result ? new Map(d.result.scores.map((r) => [r.seat, r])) : new Map();
    const rows = v.players.map((p) => {
      const seat = d.seats[p.seat] || {};
      const acting = d.toAct.includes(p.seat) || (d.serviceToAct && v.turn === p.seat);
      return h('tr', { class: `${acting ? 'acting' : ''}${p.seat === d.mySeat ? ' me' : ''}`, 'data-seat': p.seat,
        'data-testid': 'player' },
      h('td', {}, acting ? '\u25b6 ' : '', ctx.name(p.seat), seat.kind === 'bot' ? h('span', { class: 'muted' }, ` bot/${seat.level}`) : ''),
      h('td', {}, p.colours ? p.colours.map((c) => swatch(c)) : h('span', { class: 'muted' }, 'hidden')),
      h('td', {}, p.pawnColours.map((c) => swatch(c, `pawn: ${c}`))),
      h('td', { class: 'num' }, p.handSize),
      h('td', { class: 'num' }, p.putOut),
      h('td', { class: 'num' }, Array.isArray(p.tokens) ? p.tokens.length : p.tokens),
      h('td', { class: 'num' }, p.housesLost === null ? '?' : p.housesLost),
      h('td', {}, p.hero ? '\u2605' : ''),
      d.result ? h('td', { class: 'num' }, scores.get(p.seat) ? scores.get(p.seat).total : '') : null);
    });
    return h('div', { class: 'panel' }, h('h2', {}, 'Players'),
      h('table', { class: 'players', 'data-testid': 'players' },
        h('thead', {}, h('tr', {}, ['Player', 'Colours', 'Pawns', 'Hand', 'Put out', 'Tokens', 'Houses lost', 'Hero',
          d.result ? 'VP' : null].filter(Boolean).map((x) => h('th', {}, x)))),
        h('tbody', {}, rows)));
  }

  scoreTrack() {
    const track = this.data.view.scoreTrack || {};
    const max = 20;
    return [h('h2', {}, 'Score track: houses lost'),
      h('div', { class: 'score-track', 'data-testid': 'score-track' }, Object.entries(track).map(([colour, lost]) =>
        h('div', { class: 'track-row', 'data-colour': colour },
          h('span', { class: 'track-name' }, swatch(colour), ` ${colour}`),
          h('span', { class: 'track-bar' }, h('span', { class: 'track-fill',
            style: `width:${Math.min(100, (100 * lost) / max)}%;background:${COLOUR_HEX[colour] || '#888'}` })),
          h('span', { class: 'num' }, `${lost}/${max}`))))];
  }

  resultPanel(ctx) {
    const r = this.data.result;
    const winners = r.winners.map(ctx.name).join(' and ');
    return h('div', { class: 'panel result', 'data-testid': 'result' },
      h('h2', {}, `${r.winners.length > 1 ? 'Winners' : 'Winner'}: ${winners}`),
      h('table', { class: 'players' },
        h('thead', {}, h('tr', {}, ['Player', 'Total', 'Houses', 'Put out', 'Objectives', 'Tokens', 'Hero']
          .map((x) => h('th', {}, x)))),
        h('tbody', {}, r.scores.map((row) => h('tr', { class: r.winners.includes(row.seat) ? 'winner' : '' },
          h('td', {}, ctx.name(row.seat)),
          ...['total', 'houses', 'putOut', 'objectives', 'tokens', 'hero'].map((k) => h('td', { class: 'num' }, row[k])))))));
  }

  renderLogSoon() {
    if (this.logTimer) return;
    this.logTimer = setTimeout(() => { this.logTimer = null; if (!this.stopped && this.data) this.renderLog(); }, 50);
  }

  renderLog() {
    const ctx = this.ctx();
    const versions = [...this.steps.keys()].sort((a, b) => b - a).slice(0, LOG_STEPS);
    const items = [];
    for (const version of versions) {
      const events = this.steps.get(version) || [];
      if (!events.length) continue;
      items.push(h('li', { 'data-version': version, class: 'step' },
        h('span', { class: 'ver' }, version),
        h('ul', {}, [...events].reverse().map((e) => h('li', {
          class: `ev ev-${e.type}${e.audience ? ' private' : ''}`, 'data-type': e.type, 'data-seat': e.seat,
          title: e.audience ? 'Only you see this' : null,
        }, describeEvent(e, ctx))))));
    }
    this.logList.replaceChildren(...(items.length ? items : [h('li', { class: 'muted' }, 'No events yet.')]));
  }
}

// A match page: reads match(id), follows its pushed steps, sends actions; the frame (frame.js) and the title's
// client module (clients.js) draw it. It re-reads match(id) after every pushed step, so what it shows is
// always one consistent version.

import {
  ACCEPT_REMATCH, ACT, DECLINE_REMATCH, MATCH, MATCH_EVENTS, RECLAIM, REMATCH, RESIGN, Subscription, loadTitle,
} from './api.js';
import { callerFor, gqlAs, tokenOf } from './caller.js';
import { ChatPanel } from './chat.js';
import { loadClient } from './clients.js';
import { h, place, randomKey } from './dom.js';
import * as frame from './frame.js';
import { t } from './i18n.js';
import * as session from './session.js';
import * as store from './store.js';
import { seatName } from './words.js';

const LOG_STEPS = 150; // steps of history shown in the log
const WAIT_POLL_MS = 1500; // how often a waiting match is re-read (seat changes are not pushed)
const OFFER_POLL_MS = 3000; // how often an over match with a standing rematch offer is re-read (answers are not pushed)
const QUIET_MS = 15000; // re-read an active match after this long without a pushed step
const CLOCK_TICK_MS = 1000;

/** Show match matchId in root (as a spectator when spectate); return a function that closes the page. */
export function mountMatch(root, matchId, { spectate }) {
  const page = new MatchPage(root, matchId, spectate);
  page.start();
  return () => page.close();
}

class MatchPage {
  constructor(root, matchId, spectate) {
    Object.assign(this, { root, id: matchId, spectate });
    this.caller = spectate ? null : callerFor(matchId); // a seat token, the signed-in player, or nobody
    this.confirming = false; // the resign button asked "really?"
    this.drawn = new Map(); // parts of the page kept from one redraw to the next while they draw the same (frame.js)
    this.data = null;
    this.readAt = 0; // when this.data was read (the clock counts down from there)
    this.title = null;
    this.client = null;
    this.clientName = null;
    this.steps = new Map(); // version -> events, as pushed (redacted for this viewer)
    this.lastSeen = 0;
    this.busy = false;
    this.notice = '';
    this.onlyChoiceSent = -1; // the version whose only choice the page sent by itself
    this.stopped = false;
    this.refreshing = false;
    this.again = false;
    this.timers = new Set();
    this.slots = { main: h('div', { class: 'slot-main' }), actions: h('div', { class: 'slot-actions' }),
      side: h('div', { class: 'slot-side' }), below: h('div', { class: 'slot-below' }) };
    this.el = h('section', { class: 'match', 'data-testid': 'match', 'data-busy': 'true', 'data-version': '-1' });
    this.head = h('div', { class: 'match-head' });
    this.noticeEl = h('p', { class: 'notice', 'data-testid': 'notice', role: 'status' });
    this.body = h('div', { class: 'match-frame' }, h('p', { class: 'muted' }, t('Loading the match\u2026')));
    this.side = h('aside', { class: 'side' });
    this.logList = h('ol', { class: 'log', 'data-testid': 'log', reversed: true });
    this.frameBuilt = false;
    this.el.append(this.head, this.noticeEl, this.body);
    root.replaceChildren(this.el);
  }

  later(fn, ms) {
    const t = setTimeout(() => { this.timers.delete(t); if (!this.stopped) fn(); }, ms);
    this.timers.add(t);
  }

  stop() {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    if (this.sub) this.sub.close();
    if (this.chat) this.chat.close();
    this.chat = null;
  }

  close() {
    this.stop();
    if (this.client && this.client.unmount) this.client.unmount();
  }

  async start() {
    try {
      const d = (await gqlAs(this.caller, MATCH, { id: this.id })).match;
      if (this.stopped) return;
      if (!d) {
        this.body.replaceChildren(h('p', { 'data-testid': 'not-found' }, t('No such match (it may have expired).'), ' ',
          h('a', { href: '#/' }, t('Back to the lobby'))));
        return;
      }
      if (this.caller && this.caller.kind === 'seat' && d.mySeat === null) {
        this.caller = null;
        this.notice = t('The seat token kept by this browser is not valid here: this is the spectator view.');
      }
      if (!this.client) await this.mountClient(d.title);
      if (this.stopped) return;
      this.data = d;
      this.readAt = Date.now();
      this.lastSeen = Math.max(0, d.version - LOG_STEPS);
      this.openChat();
      this.render();
      this.heard = Date.now();
      this.subscribe();
      this.watchdog();
      this.tickClock();
      if (d.status === 'WAITING') this.later(() => this.pollWaiting(), WAIT_POLL_MS);
    } catch (error) {
      this.body.replaceChildren(h('p', {}, t('Cannot load the match: {reason}. Retrying\u2026', { reason: error.message })));
      this.frameBuilt = false;
      this.later(() => this.start(), 2000);
    }
  }

  /** The chat beside the board: the seats' channel for the caller's seat (with the spectators' one to read), else
   * the spectators' channel as the signed-in player (or read-only, signed out). */
  openChat() {
    if (this.chat) this.chat.close();
    const seat = this.data.mySeat;
    const caller = seat !== null ? this.caller : (session.signedIn() ? { kind: 'player' } : null);
    this.chat = new ChatPanel(this.id, seat, caller);
  }

  /** Load the title's data and its client module, and mount the module in the slots. */
  async mountClient(titleId) {
    this.title = await loadTitle(titleId);
    const loaded = await loadClient(titleId);
    const ctx = {
      title: this.title,
      act: (action) => this.act(action),
      redraw: () => this.render(),
      name: (seat) => this.name(seat),
    };
    try {
      this.client = await loaded.module.mount(this.slots, ctx);
      this.clientName = loaded.name;
    } catch (error) {
      if (loaded.name === 'fallback') throw error;
      console.warn(`the ${loaded.name} client failed to start, using the generic one:`, error); // eslint-disable-line no-console
      for (const slot of Object.values(this.slots)) slot.replaceChildren();
      this.client = (await loadClient(titleId, 'fallback')).module.mount(this.slots, ctx);
      this.clientName = 'fallback';
    }
  }

  subscribe() {
    if (this.sub) this.sub.close();
    this.sub = new Subscription({
      query: MATCH_EVENTS,
      token: (refused) => tokenOf(this.caller, refused),
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

  /** Count a running turn clock down on the page between reads. */
  tickClock() {
    this.later(() => {
      if (this.data && this.data.clock && this.data.status === 'ACTIVE') frame.updateClocks(this);
      if (!this.data || this.data.status !== 'OVER') this.tickClock();
    }, CLOCK_TICK_MS);
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
        const d = (await gqlAs(this.caller, MATCH, { id: this.id })).match;
        if (this.stopped) return;
        this.heard = Date.now();
        if (d && this.accept(d)) this.render();
      } while (this.again);
      this.watchOffer();
    } catch (error) {
      this.notice = t('Cannot refresh: {reason}', { reason: error.message });
      frame.renderHead(this);
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
    const clockChanged = !old || JSON.stringify(old.clock) !== JSON.stringify(d.clock);
    const rematchChanged = !old || JSON.stringify([old.rematch, old.rematchOffer])
      !== JSON.stringify([d.rematch, d.rematchOffer]);
    if (old && d.version === old.version && d.status === old.status && !seatsChanged && !clockChanged
      && !rematchChanged) return false;
    this.data = d;
    this.readAt = Date.now();
    return true;
  }

  async act(action) {
    if (this.busy || !this.data) return;
    this.busy = true;
    this.notice = '';
    this.render();
    const input = { matchId: this.id, action, expectedVersion: this.data.version, idempotencyKey: randomKey() };
    let result = null;
    let failure = null;
    for (let attempt = 0; attempt < 2 && !result; attempt++) {
      try {
        result = (await gqlAs(this.caller, ACT, { input })).act; // a retry reuses the key: it never applies twice
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
    if (!result) this.notice = t('Could not send the action: {reason}', { reason: failure && failure.message });
    else if (result.__typename === 'StaleVersion') this.notice = t('The match had moved on: this is where it stands now.');
    else this.notice = `${result.message} (${result.code})`;
    this.render();
    this.refresh();
  }

  /** True when the caller's seat owes a decision now. */
  yourTurn() {
    const d = this.data;
    return Boolean(d && d.status === 'ACTIVE' && d.mySeat !== null && d.toAct.includes(d.mySeat));
  }

  /** What the title's client draws from. */
  state() {
    const d = this.data;
    const yourTurn = this.yourTurn();
    return { match: d, view: d.view, legalActions: yourTurn ? d.legalActions : [], yourTurn, busy: this.busy };
  }

  /** A seat's display name: its player's name (numbered when two share it), "(you)" for the caller's seat
   * unless marked is false. */
  name(seat, marked = true) {
    const d = this.data;
    if (seat === null || seat === undefined || !d) return t('The service');
    const info = d.seats[seat];
    const raw = info && info.name ? info.name : null;
    let name = raw ? seatName(info) : t('Seat {n}', { n: seat + 1 });
    if (raw && d.seats.some((other) => other.seat !== seat && other.name === raw)) name = `${name} ${seat + 1}`;
    return seat === d.mySeat && marked ? t('{name} (you)', { name }) : name;
  }

  /** The waiting page's join / add-bot callback: reload as the new seat when this browser just joined. */
  seated(message) {
    this.notice = message;
    const caller = this.spectate ? null : callerFor(this.id);
    const unseatedPlayer = caller && caller.kind === 'player' && this.data && this.data.mySeat === null;
    if (caller && (JSON.stringify(caller) !== JSON.stringify(this.caller) || unseatedPlayer)) {
      this.caller = caller;
      this.restart();
      return;
    }
    this.refresh();
  }

  /** Read the match again from scratch (as a new caller, or as the caller newly seated). */
  restart() {
    this.steps.clear();
    this.data = null;
    this.stop();
    this.stopped = false;
    this.timers = new Set();
    this.offerWatch = false; // its pending re-read was cleared with the timers
    this.start();
  }

  /** The caller's seat record as read, or null (a spectator). */
  mySeatInfo() {
    const d = this.data;
    return d && d.mySeat !== null ? d.seats[d.mySeat] || null : null;
  }

  /** Resign the caller's seat (after the page asked "really?"). */
  async resign() {
    await this.seatAct(RESIGN, 'resign', (r) => (r.__typename === 'Resignation' ? t('You resigned.') : null));
  }

  /** Take the caller's seat back from the service's bot. */
  async reclaim() {
    await this.seatAct(RECLAIM, 'reclaimSeat', (r) => (r.__typename === 'SeatReclaimed' ? t('Your seat is yours again.')
      : null));
  }

  /** Offer a rematch (or accept the standing offer, or find the rematch made) and go to it once it exists. */
  async rematch() {
    await this.seatAct(REMATCH, 'offerRematch', (r) => this.rematched(r));
  }

  /** Accept the standing rematch offer. */
  async acceptRematch() {
    await this.seatAct(ACCEPT_REMATCH, 'acceptRematch', (r) => this.rematched(r));
  }

  /** Decline the standing rematch offer (it ends for everyone). */
  async declineRematch() {
    await this.seatAct(DECLINE_REMATCH, 'declineRematch', (r) => (r.__typename === 'Rematched'
      ? t('You declined the rematch.') : null));
  }

  /** Word an offer's answer; go to the rematch once every person accepted and it exists. */
  rematched(r) {
    if (r.__typename !== 'Rematched') return null;
    // The rematch keeps each person's credential: the same seat token, or the same player.
    const rec = store.get(this.id) || {};
    store.remember(r.matchId, this.caller && this.caller.kind === 'seat'
      ? { seat: r.seat, token: rec.token, name: rec.name } : { seat: r.seat, player: true });
    if (!r.match) return t('Rematch offered: it starts once everyone accepts.');
    location.hash = `#/match/${encodeURIComponent(r.matchId)}`;
    return t('Rematch\u2026');
  }

  /** While the caller's seat of this over match may get or answer a rematch offer (none made yet), re-read it now
   * and then: offers and their answers are no match steps, so nothing is pushed. Called on every draw, so it runs
   * however the page learnt the match is over; the flag keeps one re-read pending at most. */
  watchOffer() {
    const d = this.data;
    if (this.offerWatch || !d || d.status !== 'OVER' || d.mySeat === null || d.rematch) return;
    this.offerWatch = true;
    this.later(() => { this.offerWatch = false; this.refresh(); }, OFFER_POLL_MS);
  }

  /** Send a seat mutation (resign, reclaim, rematch); done(result) words success (null: a refusal). */
  async seatAct(mutation, field, done) {
    if (this.busy || !this.data) return;
    this.busy = true;
    this.confirming = false;
    this.render();
    let message;
    try {
      const r = (await gqlAs(this.caller, mutation, { input: { matchId: this.id } }))[field];
      message = done(r) || `${r.message} (${r.code})`;
    } catch (error) {
      message = t('Could not reach the service: {reason}', { reason: error.message });
    }
    if (this.stopped) return;
    this.busy = false;
    this.notice = message;
    this.render();
    this.refresh();
  }

  render() {
    if (!this.data || this.stopped) return;
    const d = this.data;
    Object.assign(this.el.dataset, {
      version: String(d.version), status: d.status, busy: String(this.busy), yourTurn: String(this.yourTurn()),
      viewer: d.mySeat === null ? 'spectator' : `seat-${d.mySeat}`, client: this.clientName,
    });
    frame.renderHead(this);
    if (d.status === 'WAITING') {
      this.frameBuilt = false;
      place(this.body, [frame.waitingPanel(this), this.chat ? this.chat.el : null]);
      return;
    }
    if (!this.frameBuilt) {
      const layout = frame.layout(this);
      if (this.chat) {
        layout.classList.add('with-chat');
        layout.append(this.chat.el);
      }
      this.body.replaceChildren(layout);
      this.frameBuilt = true;
    }
    const state = this.state();
    this.client.render(state);
    frame.renderSide(this, state);
    this.renderLog();
    this.sendOnlyChoice();
    this.watchOffer(); // however the page learnt the match is over (its own move, a push, a first read)
  }

  /** A lone legal action of a type the title declares no question (client.autoSend) is sent at once, once per
   * version: every seat was asked alike, so this changes nothing others see. */
  sendOnlyChoice() {
    const d = this.data;
    const types = this.client.autoSend || [];
    if (!this.yourTurn() || this.busy || d.legalActions.length !== 1) return;
    const [only] = d.legalActions;
    if (!types.includes(only.type) || this.onlyChoiceSent === d.version) return;
    this.onlyChoiceSent = d.version;
    this.act(only);
  }

  renderLogSoon() {
    if (this.logTimer) return;
    this.logTimer = setTimeout(() => { this.logTimer = null; if (!this.stopped && this.data) this.renderLog(); }, 50);
  }

  renderLog() {
    const versions = [...this.steps.keys()].sort((a, b) => b - a).slice(0, LOG_STEPS);
    frame.renderLog(this, versions.map((v) => [v, this.steps.get(v) || []]));
  }
}

// Chat beside the board (docs/guides/chat.md). A seated person (a seat token or the player bound to a seat) reads
// and writes the seats' channel and reads the spectators' channel in a second tab; a signed-in spectator reads and
// writes the spectators' channel; a signed-out one reads it. Each channel is followed with the `chat` subscription
// over graphql-transport-ws (api.js's Subscription, the connection code of match events), which sends the kept
// backlog first and resumes after the last seq seen. Presets are a tap; a text box takes up to 500 characters.
// Refusals are worded (BAD_MESSAGE's reason, MUTED's end, RATE_LIMITED). Every text goes in as a text node (dom.js):
// a message that looks like HTML shows as the characters it is.

import { Subscription, gql } from './api.js';
import { gqlAs, tokenOf } from './caller.js';
import { h } from './dom.js';
import { dateTime, t, theirs, time } from './i18n.js';
import { reportForm } from './report.js';
import * as session from './session.js';

const MESSAGE_FIELDS = 'seq channel at seat player handle name text preset removed';
const FOLLOW = `subscription($id: ID!, $channel: ChatChannel!, $after: Int!) {
  chat(matchId: $id, channel: $channel, after: $after) { ${MESSAGE_FIELDS} } }`;
const SEND = `mutation($input: SendChatMessageInput!) { sendChatMessage(input: $input) { __typename
  ... on ChatMessageSent { chatMessage { ${MESSAGE_FIELDS} } } ... on BadMessage { code message reason }
  ... on Muted { code message until } ... on Problem { code message } } }`;
const PRESETS = 'query { chatPresets { id text } }';

const TEXT_MAX = 500;
const SHOWN_MAX = 300; // messages kept on the page per channel
const BAD = {
  empty: t('Nothing to send: write a message first.'),
  too_long: t('Not sent: a message is at most {n} characters.', { n: TEXT_MAX }),
  control: t('Not sent: control characters are not allowed.'),
  bidi: t('Not sent: characters that change the direction of the text are not allowed.'),
};

let presets = null; // the service's presets, read once per page load

function loadPresets() {
  if (!presets) {
    presets = gql(PRESETS).then((data) => data.chatPresets).catch((error) => {
      presets = null;
      throw error;
    });
  }
  return presets;
}

/** What the person sees about a refused message, from the mutation's answer. */
export function refusalText(r) {
  if (r.__typename === 'BadMessage') return BAD[r.reason] || t('Not sent: {reason}', { reason: r.message });
  if (r.__typename === 'Muted') {
    return t('You are muted until {when}: no chat until then.', { when: dateTime(r.until) });
  }
  if (r.__typename === 'ChatNotAllowed') return t('You cannot write in this channel: {reason}', { reason: r.message });
  if (r.__typename === 'Unauthenticated') return t('Sign in again to chat.');
  return t('Not sent: {reason}', { reason: r.message });
}

/** The chat panel of a match for a viewer: seat (the caller's seat, null for a spectator) and caller (caller.js:
 * the seat token or the signed-in player; null for a spectator signed out). */
export class ChatPanel {
  constructor(matchId, seat, caller) {
    Object.assign(this, { matchId, seat, caller });
    const seated = seat !== null && seat !== undefined;
    this.channels = seated
      ? [{ id: 'SEATS', label: t('Players'), write: true }, { id: 'SPECTATORS', label: t('Spectators'), write: false }]
      : [{ id: 'SPECTATORS', label: t('Spectators'), write: Boolean(caller) }];
    this.active = this.channels[0].id;
    this.closed = false;
    for (const channel of this.channels) {
      Object.assign(channel, { messages: new Map(), last: 0, unread: 0, sub: null,
        log: h('ol', { class: 'chat-log', 'data-testid': 'chat-log', 'data-channel': channel.id,
          'aria-live': 'polite' }, h('li', { class: 'muted chat-empty' }, t('No messages yet.'))) });
    }
    this.tabs = h('div', { class: 'chat-tabs', role: 'tablist' });
    this.presetRow = h('div', { class: 'chat-presets', 'data-testid': 'chat-presets' });
    this.text = h('input', { type: 'text', maxlength: TEXT_MAX, placeholder: t('Say something\u2026'),
      'aria-label': t('Message'), 'data-testid': 'chat-input', autocomplete: 'off' });
    this.sendButton = h('button', { type: 'submit', 'data-testid': 'chat-send' }, t('Send'));
    this.form = h('form', { class: 'chat-send' }, this.text, this.sendButton);
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.send({ text: this.text.value });
    });
    this.said = h('p', { class: 'chat-said', role: 'status', 'data-testid': 'chat-said' });
    this.readOnly = h('p', { class: 'muted chat-read-only', 'data-testid': 'chat-read-only' });
    this.el = h('section', { class: 'panel chat', 'data-testid': 'chat', 'data-channel': this.active },
      h('h2', {}, t('Chat')), this.channels.length > 1 ? this.tabs : null,
      this.channels.map((c) => c.log), this.presetRow, this.form, this.readOnly, this.said);
    this.draw();
    this.showPresets();
    for (const channel of this.channels) this.follow(channel);
  }

  channel(id) {
    return this.channels.find((c) => c.id === id);
  }

  /** Tabs, the visible log, and whether the send box shows. */
  draw() {
    const active = this.channel(this.active);
    this.el.dataset.channel = active.id;
    this.tabs.replaceChildren(...this.channels.map((c) => {
      const tab = h('button', { type: 'button', class: `small chat-tab${c.id === active.id ? ' active' : ''}`,
        role: 'tab', 'aria-selected': String(c.id === active.id), 'data-testid': 'chat-tab', 'data-channel': c.id },
      c.label, c.unread && c.id !== active.id ? ` ${t('({n} new)', { n: c.unread })}` : '');
      tab.addEventListener('click', () => { this.active = c.id; c.unread = 0; this.draw(); this.scrollDown(c, true); });
      return tab;
    }));
    for (const c of this.channels) c.log.hidden = c.id !== active.id;
    this.form.hidden = !active.write;
    this.presetRow.hidden = !active.write;
    this.readOnly.hidden = active.write;
    this.readOnly.textContent = this.seat !== null && this.seat !== undefined
      ? t('What the spectators say: seats read it and write in the players\u2019 channel.')
      : t('Sign in to write here.');
  }

  async showPresets() {
    try {
      const list = await loadPresets();
      if (this.closed) return;
      this.presetRow.replaceChildren(...list.map((p) => h('button', { type: 'button', class: 'small chat-preset',
        'data-testid': 'chat-preset', 'data-preset': p.id, onclick: () => this.send({ preset: p.id }) }, theirs(p.text))));
    } catch (error) {
      console.warn('chat presets:', error.message); // eslint-disable-line no-console
    }
  }

  /** Follow a channel: the backlog after the last seq seen, then each new message. */
  follow(channel) {
    channel.sub = new Subscription({
      query: FOLLOW,
      token: (refused) => tokenOf(this.caller, refused),
      variables: () => ({ id: this.matchId, channel: channel.id, after: channel.last }),
      onNext: (data) => this.add(data.chat),
      onError: (errors, failures) => {
        console.warn('chat:', errors); // eslint-disable-line no-console
        const why = (errors[0] || {}).message || t('error');
        if (failures >= 3) this.say(t('The chat cannot be followed now ({reason}); retrying.', { reason: why }));
      },
      resume: () => !this.closed,
    });
    channel.sub.start();
  }

  say(text, code = '') {
    this.said.textContent = text;
    this.said.dataset.code = code;
  }

  /** Put a message in its channel's log, in seq order (a message both sent back and pushed shows once). */
  add(msg) {
    const channel = this.channel(msg.channel);
    if (!channel || this.closed) return;
    channel.last = Math.max(channel.last, msg.seq);
    if (channel.messages.has(msg.seq)) return;
    const near = channel.log.scrollHeight - channel.log.scrollTop - channel.log.clientHeight < 40;
    const item = this.item(msg);
    channel.messages.set(msg.seq, item);
    const empty = channel.log.querySelector('.chat-empty');
    if (empty) empty.remove();
    const after = [...channel.log.children].find((li) => Number(li.dataset.seq) > msg.seq);
    channel.log.insertBefore(item, after || null);
    while (channel.messages.size > SHOWN_MAX) {
      const oldest = Math.min(...channel.messages.keys());
      channel.messages.get(oldest).remove();
      channel.messages.delete(oldest);
    }
    if (channel.id !== this.active) {
      channel.unread += 1;
      this.draw();
    } else {
      this.scrollDown(channel, near);
    }
  }

  scrollDown(channel, wanted) {
    if (wanted) channel.log.scrollTop = channel.log.scrollHeight;
  }

  /** One message: the sender's name and @handle (a link to their profile), the seat, the text (or "message
   * removed"), and Report on another player's message. */
  item(msg) {
    const me = session.player();
    const mine = (me && msg.player === me.id)
      || (msg.channel === 'SEATS' && msg.seat === this.seat && this.caller && this.caller.kind === 'seat');
    const when = new Date(msg.at * 1000);
    const from = [h('span', { class: 'chat-name', 'data-testid': 'chat-name' }, msg.name)];
    if (msg.handle) {
      from.push(' ', h('a', { class: 'chat-handle', href: `#/players/${encodeURIComponent(msg.handle)}`,
        'data-testid': 'chat-handle', title: t('Profile (report the player there)') }, `@${msg.handle}`));
    }
    if (msg.seat !== null && msg.seat !== undefined) {
      from.push(' ', h('span', { class: 'muted' }, t('seat {n}', { n: msg.seat + 1 })));
    }
    const text = msg.removed
      ? h('span', { class: 'chat-text removed', 'data-testid': 'chat-text' }, t('message removed'))
      : h('span', { class: 'chat-text', 'data-testid': 'chat-text' }, msg.preset ? theirs(msg.text) : msg.text);
    const li = h('li', { class: `chat-message${mine ? ' mine' : ''}`, 'data-testid': 'chat-message',
      'data-seq': msg.seq, 'data-channel': msg.channel, 'data-seat': msg.seat, 'data-player': msg.player,
      'data-preset': msg.preset, 'data-removed': msg.removed ? 'true' : null },
    h('div', { class: 'chat-from' }, from, ' ',
      h('time', { class: 'muted', datetime: when.toISOString() }, time(msg.at))),
    text);
    if (!mine && !msg.removed && msg.player && session.signedIn()) {
      const report = h('button', { type: 'button', class: 'small chat-report', 'data-testid': 'chat-report' },
        t('Report'));
      report.addEventListener('click', () => {
        report.hidden = true;
        const who = msg.handle ? `@${msg.handle}` : msg.name;
        const targets = [[t('This message'), { matchId: this.matchId, channel: msg.channel, seq: msg.seq }],
          [t('The player {who}', { who }), { playerId: msg.player }]];
        const form = reportForm(targets, () => {
          form.remove();
          report.hidden = false;
        });
        li.append(form);
      });
      li.append(' ', report);
    }
    return li;
  }

  /** Send a text or a preset to the active channel; say why not when the service refuses. */
  async send(what) {
    const channel = this.channel(this.active);
    if (!channel.write || this.sendButton.disabled) return;
    if (what.text !== undefined && !what.text.trim()) {
      this.say(BAD.empty, 'BAD_MESSAGE');
      return;
    }
    this.sendButton.disabled = true;
    this.say('');
    try {
      const r = (await gqlAs(this.caller, SEND, { input: { matchId: this.matchId, channel: channel.id, ...what } }))
        .sendChatMessage;
      if (this.closed) return;
      if (r.__typename === 'ChatMessageSent') {
        if (what.text !== undefined) this.text.value = '';
        this.add(r.chatMessage);
        this.scrollDown(channel, true);
      } else {
        this.say(refusalText(r), r.code || '');
      }
    } catch (error) {
      if (error.code === 'RATE_LIMITED') this.say(t('Too many messages: wait a moment before sending more.'), error.code);
      else this.say(t('Not sent: {reason}', { reason: error.message }), error.code || '');
    } finally {
      this.sendButton.disabled = false;
    }
  }

  close() {
    this.closed = true;
    for (const channel of this.channels) if (channel.sub) channel.sub.close();
  }
}

// The lobby: titles, create a match, your matches, open matches and matches being played.

import { CREATE, LISTING, SUMMARY, TITLES, gql } from './api.js';
import { callerFor, gqlAs } from './caller.js';
import { h } from './dom.js';
import { t, theirs, tn } from './i18n.js';
import { optionInputs } from './options.js';
import { seatButtons, seatList } from './seats.js';
import * as session from './session.js';
import * as store from './store.js';
import { statusText } from './words.js';

const POLL_MS = 2500;

/** Show the lobby in root; return a function that stops its polling. */
export function mountLobby(root) {
  let stopped = false;
  let timer = null;
  let titles = [];
  let seq = 0; // only the latest refresh may write the lists
  const nameInput = h('input', { type: 'text', maxlength: 40, placeholder: t('Your name'), 'data-testid': 'player-name',
    value: store.playerName() });
  nameInput.addEventListener('input', () => store.setPlayerName(nameInput.value));
  const levelSelect = h('select', { 'data-testid': 'bot-level' });
  const message = h('p', { class: 'message', 'data-testid': 'lobby-message', role: 'status' });
  const titleList = h('div', { class: 'titles', 'data-testid': 'titles' }, t('Loading titles\u2026'));
  const createForm = h('form', { class: 'create', 'data-testid': 'create-form' });
  const mine = h('div', { 'data-testid': 'my-matches' });
  const open = h('div', { 'data-testid': 'open-matches' });
  const active = h('div', { 'data-testid': 'active-matches' });

  root.replaceChildren(h('section', { class: 'lobby', 'data-testid': 'lobby' },
    h('h1', {}, t('Lobby')),
    titleList,
    h('div', { class: 'panel' }, h('h2', {}, t('New match')), createForm),
    h('div', { class: 'panel who' },
      session.player() ? h('span', { 'data-testid': 'playing-as' }, t('Playing as {name}', { name: session.player().name }))
        : h('label', {}, t('Play as'), ' ', nameInput),
      h('label', {}, t('Bots play at level'), ' ', levelSelect)),
    message,
    h('div', { class: 'panel' }, h('h2', {}, t('Your matches')), mine),
    h('div', { class: 'panel' }, h('h2', {}, t('Open matches')), open),
    h('div', { class: 'panel' }, h('h2', {}, t('Being played')), active)));

  const say = (text) => { message.textContent = text; refresh(); };

  // The chosen bot level if the match's title has it, else that title's first level.
  function levelFor(title) {
    const names = title ? title.botLevels.map((l) => l.name) : [];
    return !names.length || names.includes(levelSelect.value) ? levelSelect.value : names[0];
  }

  function row(match, { showSeats = true } = {}) {
    const rec = store.get(match.id) || {};
    const seated = rec.seat !== undefined && match.mySeat !== null;
    const title = titles.find((t) => t.id === match.title);
    const link = seated || rec.hostToken
      ? h('a', { href: `#/match/${encodeURIComponent(match.id)}`, class: 'button primary', 'data-testid': 'play-link' },
        match.status === 'WAITING' || !seated ? t('Open') : t('Play'))
      : h('a', { href: `#/watch/${encodeURIComponent(match.id)}`, class: 'button', 'data-testid': 'watch-link' }, t('Watch'));
    return h('div', { class: 'match-row', 'data-testid': 'match-row', 'data-match': match.id, 'data-status': match.status },
      h('div', { class: 'row-head' },
        h('strong', {}, title ? theirs(title.name) : match.title),
        h('span', { class: `status ${match.status.toLowerCase()}` }, statusText(match.status)),
        h('span', { class: 'muted' }, tn('{n} seat \u00b7 match {id}', '{n} seats \u00b7 match {id}', match.seatCount,
          { id: match.id.slice(0, 8) })),
        h('span', { class: 'spacer' }),
        seatButtons(match, { getName: () => nameInput.value, getLevel: () => levelFor(title), onDone: say }),
        link),
      showSeats ? seatList(match) : null);
  }

  function fillCreateForm() {
    const titleSelect = h('select', { name: 'title', 'data-testid': 'create-title' },
      titles.map((x) => h('option', { value: x.id }, theirs(x.name))));
    const seats = h('input', { type: 'number', name: 'seats', 'data-testid': 'create-seats', required: true });
    const options = h('div', { class: 'options-holder' });
    const seed = h('input', { type: 'number', name: 'seed', placeholder: t('random'), 'data-testid': 'create-seed' });
    let inputs = optionInputs([]);
    const setSeats = () => inputs.setSeats(Number(seats.value));
    const setTitle = () => {
      const chosen = titles.find((x) => x.id === titleSelect.value) || titles[0];
      Object.assign(seats, { min: chosen.minSeats, max: chosen.maxSeats });
      seats.value = Math.min(Math.max(3, chosen.minSeats), chosen.maxSeats);
      levelSelect.replaceChildren(...chosen.botLevels.map((l) => h('option', { value: l.name,
        title: theirs(l.description) }, theirs(l.name))));
      inputs = optionInputs(chosen.options);
      options.replaceChildren(inputs.element);
      setSeats();
    };
    seats.addEventListener('input', setSeats);
    titleSelect.addEventListener('change', setTitle);
    setTitle();
    const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'create-match' }, t('Create match'));
    createForm.replaceChildren(h('div', { class: 'create-main' }, h('label', {}, t('Title'), ' ', titleSelect),
      h('label', {}, t('Seats'), ' ', seats), h('label', {}, t('Seed'), ' ', seed), submit), options);
    createForm.onsubmit = async (event) => {
      event.preventDefault();
      const opts = inputs.values();
      const variables = { input: { title: titleSelect.value, seats: Number(seats.value), options: opts } };
      if (seed.value !== '') variables.input.seed = Number(seed.value);
      submit.disabled = true;
      try {
        // Signed in, the player creates it: the player may then add bots and cancel it from any device.
        const r = (session.signedIn() ? await session.call(CREATE, variables) : await gql(CREATE, variables))
          .createMatch;
        if (r.__typename !== 'MatchCreated') {
          say(t('Could not create the match: {reason}', { reason: r.message }));
        } else {
          store.remember(r.matchId, { hostToken: r.hostToken, created: true });
          say(t('Match created: join it and fill the other seats with bots or friends.'));
        }
      } catch (error) {
        say(t('Error: {reason}', { reason: error.message }));
      } finally {
        submit.disabled = false;
      }
    };
  }

  async function refresh() {
    if (stopped) return;
    clearTimeout(timer);
    const ticket = ++seq;
    try {
      const ids = store.ids().slice(0, 10);
      const [waiting, playing, ...mineRows] = await Promise.all([
        gql(LISTING, { status: 'WAITING' }), gql(LISTING, { status: 'ACTIVE' }),
        ...ids.map((id) => gqlAs(callerFor(id), SUMMARY, { id }).then((d) => d.match, () => undefined)),
      ]);
      if (stopped || ticket !== seq) return;
      const known = [];
      ids.forEach((id, i) => {
        if (mineRows[i] === null) store.forget(id); // expired or unknown: nothing to keep
        else if (mineRows[i]) known.push(mineRows[i]);
      });
      const mineIds = new Set(known.map((m) => m.id));
      mine.replaceChildren(...(known.length ? known.map((m) => row(m)) : [h('p', { class: 'muted' },
        t('None yet: create a match, or join an open one.'))]));
      const others = (list) => list.matches.items.filter((m) => !mineIds.has(m.id));
      const openRows = others(waiting);
      open.replaceChildren(...(openRows.length ? openRows.map((m) => row({ ...m, mySeat: null }))
        : [h('p', { class: 'muted' }, t('No open matches.'))]));
      const activeRows = others(playing);
      active.replaceChildren(...(activeRows.length ? activeRows.map((m) => row({ ...m, mySeat: null }))
        : [h('p', { class: 'muted' }, t('No matches being played.'))]));
    } catch (error) {
      message.textContent = t('Cannot reach the service: {reason}', { reason: error.message });
    }
    if (!stopped && ticket === seq) timer = setTimeout(refresh, POLL_MS);
  }

  (async () => {
    try {
      titles = (await gql(TITLES)).titles;
      titleList.replaceChildren(...titles.map((x) => h('div', { class: 'title-card', 'data-testid': 'title',
        'data-title': x.id }, h('strong', {}, theirs(x.name)), ' ', h('span', { class: 'muted' },
        tn('{min}\u2013{n} player \u00b7 bots: {levels}', '{min}\u2013{n} players \u00b7 bots: {levels}', x.maxSeats,
          { min: x.minSeats, levels: x.botLevels.map((l) => theirs(l.name)).join(', ') })))));
      fillCreateForm();
    } catch (error) {
      titleList.textContent = t('Cannot load the titles: {reason}', { reason: error.message });
    }
    refresh();
  })();

  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

// The lobby: titles, create a match, your matches, open matches and matches being played.

import { CREATE, LISTING, SUMMARY, TITLES, gql } from './api.js';
import { callerFor, gqlAs } from './caller.js';
import { h } from './dom.js';
import { optionInputs } from './options.js';
import { seatButtons, seatList } from './seats.js';
import * as session from './session.js';
import * as store from './store.js';

const POLL_MS = 2500;

/** Show the lobby in root; return a function that stops its polling. */
export function mountLobby(root) {
  let stopped = false;
  let timer = null;
  let titles = [];
  let seq = 0; // only the latest refresh may write the lists
  const nameInput = h('input', { type: 'text', maxlength: 40, placeholder: 'Your name', 'data-testid': 'player-name',
    value: store.playerName() });
  nameInput.addEventListener('input', () => store.setPlayerName(nameInput.value));
  const levelSelect = h('select', { 'data-testid': 'bot-level' });
  const message = h('p', { class: 'message', 'data-testid': 'lobby-message', role: 'status' });
  const titleList = h('div', { class: 'titles', 'data-testid': 'titles' }, 'Loading titles\u2026');
  const createForm = h('form', { class: 'create', 'data-testid': 'create-form' });
  const mine = h('div', { 'data-testid': 'my-matches' });
  const open = h('div', { 'data-testid': 'open-matches' });
  const active = h('div', { 'data-testid': 'active-matches' });

  root.replaceChildren(h('section', { class: 'lobby', 'data-testid': 'lobby' },
    h('h1', {}, 'Lobby'),
    titleList,
    h('div', { class: 'panel' }, h('h2', {}, 'New match'), createForm),
    h('div', { class: 'panel who' },
      session.player() ? h('span', { 'data-testid': 'playing-as' }, `Playing as ${session.player().name}`)
        : h('label', {}, 'Play as ', nameInput),
      h('label', {}, 'Bots play at level ', levelSelect)),
    message,
    h('div', { class: 'panel' }, h('h2', {}, 'Your matches'), mine),
    h('div', { class: 'panel' }, h('h2', {}, 'Open matches'), open),
    h('div', { class: 'panel' }, h('h2', {}, 'Being played'), active)));

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
        match.status === 'WAITING' || !seated ? 'Open' : 'Play')
      : h('a', { href: `#/watch/${encodeURIComponent(match.id)}`, class: 'button', 'data-testid': 'watch-link' }, 'Watch');
    return h('div', { class: 'match-row', 'data-testid': 'match-row', 'data-match': match.id, 'data-status': match.status },
      h('div', { class: 'row-head' },
        h('strong', {}, title ? title.name : match.title),
        h('span', { class: `status ${match.status.toLowerCase()}` }, match.status.toLowerCase()),
        h('span', { class: 'muted' }, `${match.seatCount} seats \u00b7 match ${match.id.slice(0, 8)}`),
        h('span', { class: 'spacer' }),
        seatButtons(match, { getName: () => nameInput.value, getLevel: () => levelFor(title), onDone: say }),
        link),
      showSeats ? seatList(match) : null);
  }

  function fillCreateForm() {
    const titleSelect = h('select', { name: 'title', 'data-testid': 'create-title' },
      titles.map((t) => h('option', { value: t.id }, t.name)));
    const seats = h('input', { type: 'number', name: 'seats', 'data-testid': 'create-seats', required: true });
    const options = h('div', { class: 'options-holder' });
    const seed = h('input', { type: 'number', name: 'seed', placeholder: 'random', 'data-testid': 'create-seed' });
    let inputs = optionInputs([]);
    const setSeats = () => inputs.setSeats(Number(seats.value));
    const setTitle = () => {
      const t = titles.find((x) => x.id === titleSelect.value) || titles[0];
      Object.assign(seats, { min: t.minSeats, max: t.maxSeats });
      seats.value = Math.min(Math.max(3, t.minSeats), t.maxSeats);
      levelSelect.replaceChildren(...t.botLevels.map((l) => h('option', { value: l.name, title: l.description },
        l.name)));
      inputs = optionInputs(t.options);
      options.replaceChildren(inputs.element);
      setSeats();
    };
    seats.addEventListener('input', setSeats);
    titleSelect.addEventListener('change', setTitle);
    setTitle();
    const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'create-match' }, 'Create match');
    createForm.replaceChildren(h('div', { class: 'create-main' }, h('label', {}, 'Title ', titleSelect),
      h('label', {}, 'Seats ', seats), h('label', {}, 'Seed ', seed), submit), options);
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
          say(`Could not create the match: ${r.message}`);
        } else {
          store.remember(r.matchId, { hostToken: r.hostToken, created: true });
          say('Match created: join it and fill the other seats with bots or friends.');
        }
      } catch (error) {
        say(`Error: ${error.message}`);
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
        'None yet: create a match, or join an open one.')]));
      const others = (list) => list.matches.items.filter((m) => !mineIds.has(m.id));
      const openRows = others(waiting);
      open.replaceChildren(...(openRows.length ? openRows.map((m) => row({ ...m, mySeat: null }))
        : [h('p', { class: 'muted' }, 'No open matches.')]));
      const activeRows = others(playing);
      active.replaceChildren(...(activeRows.length ? activeRows.map((m) => row({ ...m, mySeat: null }))
        : [h('p', { class: 'muted' }, 'No matches being played.')]));
    } catch (error) {
      message.textContent = `Cannot reach the service: ${error.message}`;
    }
    if (!stopped && ticket === seq) timer = setTimeout(refresh, POLL_MS);
  }

  (async () => {
    try {
      titles = (await gql(TITLES)).titles;
      titleList.replaceChildren(...titles.map((t) => h('div', { class: 'title-card', 'data-testid': 'title',
        'data-title': t.id }, h('strong', {}, t.name), h('span', { class: 'muted' },
        ` ${t.minSeats}\u2013${t.maxSeats} players \u00b7 bots: ${t.botLevels.map((l) => l.name).join(', ')}`))));
      fillCreateForm();
    } catch (error) {
      titleList.textContent = `Cannot load the titles: ${error.message}`;
    }
    refresh();
  })();

  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

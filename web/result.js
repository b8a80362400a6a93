// The result panel, built from the typed MatchResult: a table of every seat's total and its parts (one column
// per score column of the title), the winners highlighted, and why the match ended; an abandoned match plainly.

import { h } from './dom.js';
import { list, t, theirs, tn } from './i18n.js';

/** The result panel for a MatchResult; name(seat) gives a seat's display name. */
export function resultPanel(result, name) {
  if (result.endReason === 'ABANDONED') {
    return h('div', { class: 'panel result abandoned', 'data-testid': 'result', 'data-end': result.endReason },
      h('h2', {}, t('The match was abandoned')),
      h('p', { 'data-testid': 'result-reason' }, theirs(result.reason)));
  }
  const winners = new Set(result.winners);
  const names = list(result.winners.map(name));
  const headline = result.winners.length ? tn('Winner: {names}', 'Winners: {names}', result.winners.length, { names })
    : t('No winner');
  const ranked = [...result.scores].sort((a, b) => b.total - a.total || a.seat - b.seat);
  return h('div', { class: 'panel result', 'data-testid': 'result', 'data-end': result.endReason },
    h('h2', {}, headline),
    h('table', { class: 'players', 'data-testid': 'result-table' },
      h('thead', {}, h('tr', {}, h('th', {}, t('Player')), h('th', { class: 'num' }, t('Total')),
        result.columns.map((c) => h('th', { class: 'num', title: theirs(c.description) || null, 'data-key': c.key },
          theirs(c.label))))),
      h('tbody', {}, ranked.map((score) => {
        const parts = new Map(score.parts.map((p) => [p.key, p.value]));
        return h('tr', { class: winners.has(score.seat) ? 'winner' : null, 'data-testid': 'result-row',
          'data-seat': score.seat, 'data-winner': winners.has(score.seat) ? 'true' : 'false' },
        h('td', {}, winners.has(score.seat) ? '\u2605 ' : '', name(score.seat)),
        h('td', { class: 'num', 'data-key': 'total', 'data-label': t('Total') }, score.total),
        result.columns.map((c) => h('td', { class: 'num', 'data-key': c.key, 'data-label': theirs(c.label) },
          parts.has(c.key) ? parts.get(c.key) : '')));
      }))),
    h('p', { class: 'muted', 'data-testid': 'result-reason' }, theirs(result.reason)));
}

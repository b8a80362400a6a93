// The result panel, built from the typed MatchResult: a table of every seat's total and its parts (one column
// per score column of the title), the winners highlighted, and why the match ended; an abandoned match plainly.

import { h } from './dom.js';

/** The result panel for a MatchResult; name(seat) gives a seat's display name. */
export function resultPanel(result, name) {
  if (result.endReason === 'ABANDONED') {
    return h('div', { class: 'panel result abandoned', 'data-testid': 'result', 'data-end': result.endReason },
      h('h2', {}, 'The match was abandoned'),
      h('p', { 'data-testid': 'result-reason' }, result.reason));
  }
  const winners = new Set(result.winners);
  const names = result.winners.map(name).join(' and ');
  const headline = result.winners.length ? `${result.winners.length > 1 ? 'Winners' : 'Winner'}: ${names}` : 'No winner';
  const ranked = [...result.scores].sort((a, b) => b.total - a.total || a.seat - b.seat);
  return h('div', { class: 'panel result', 'data-testid': 'result', 'data-end': result.endReason },
    h('h2', {}, headline),
    h('table', { class: 'players', 'data-testid': 'result-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Player'), h('th', { class: 'num' }, 'Total'),
        result.columns.map((c) => h('th', { class: 'num', title: c.description || null, 'data-key': c.key }, c.label)))),
      h('tbody', {}, ranked.map((score) => {
        const parts = new Map(score.parts.map((p) => [p.key, p.value]));
        return h('tr', { class: winners.has(score.seat) ? 'winner' : null, 'data-testid': 'result-row',
          'data-seat': score.seat, 'data-winner': winners.has(score.seat) ? 'true' : 'false' },
        h('td', {}, winners.has(score.seat) ? '\u2605 ' : '', name(score.seat)),
        h('td', { class: 'num', 'data-key': 'total', 'data-label': 'Total' }, score.total),
        result.columns.map((c) => h('td', { class: 'num', 'data-key': c.key, 'data-label': c.label },
          parts.has(c.key) ? parts.get(c.key) : '')));
      }))),
    h('p', { class: 'muted', 'data-testid': 'result-reason' }, result.reason));
}

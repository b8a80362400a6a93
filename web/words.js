// Names in words, for labels derived from data ("hiddenColours" -> "Hidden colours"), and the match statuses.

import { t, theirs } from './i18n.js';

/** A camelCase or snake_case name as a capitalised phrase: "moveBand" -> "Move band". */
export function words(name) {
  const spaced = String(name).replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A match's status (WAITING, ACTIVE, OVER, CANCELLED) as the page shows it. */
export function statusText(status) {
  const said = { WAITING: t('waiting'), ACTIVE: t('active'), OVER: t('over'), CANCELLED: t('cancelled') }[status];
  return said || String(status).toLowerCase();
}

/** A seat's name as shown: a bot the service named after its level ("random bot") in the reader's words. */
export function seatName(seat) {
  if (!seat) return '';
  if (seat.kind === 'bot' && seat.level && seat.name === `${seat.level} bot`) {
    return t('{level} bot', { level: theirs(seat.level) });
  }
  return seat.name;
}

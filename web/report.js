// "Report": a small form under a chat message or a player's profile that files the `report` mutation (a reason
// from the service's fixed list and an optional note) with the signed-in player's credential. The reported player
// is told nothing; the form says whether the report was kept.

import { h } from './dom.js';
import { t } from './i18n.js';
import * as session from './session.js';

const REPORT = `mutation($input: ReportInput!) { report(input: $input) { __typename
  ... on ReportFiled { id at } ... on Problem { code message } } }`;

const REASONS = [['ABUSE', t('Insults, harassment, hate')], ['SPAM', t('Spam')], ['CHEATING', t('Cheating')],
  ['NAME', t('An offensive name')], ['OTHER', t('Something else')]];
const NOTE_MAX = 1000;

/** The report form of target ({playerId} or {matchId, channel, seq}), or of one of several [label, target] pairs
 * (a chat message or its sender) the person picks; done() closes it unsent (once sent, it stays as the service's
 * answer). */
export function reportForm(target, done) {
  const targets = Array.isArray(target) ? target : [['', target]];
  const what = targets.length > 1 ? h('select', { 'data-testid': 'report-what', 'aria-label': t('What to report') },
    targets.map(([text], i) => h('option', { value: i }, text))) : null;
  const reason = h('select', { 'data-testid': 'report-reason', 'aria-label': t('Reason') },
    REASONS.map(([value, text]) => h('option', { value }, text)));
  const note = h('input', { type: 'text', maxlength: NOTE_MAX, placeholder: t('Note (optional)'),
    'aria-label': t('Note'), 'data-testid': 'report-note' });
  const send = h('button', { type: 'submit', class: 'small', 'data-testid': 'report-send' }, t('Send report'));
  const cancel = h('button', { type: 'button', class: 'small', 'data-testid': 'report-cancel' }, t('Cancel'));
  const said = h('span', { class: 'report-said', role: 'status', 'data-testid': 'report-said' });
  const form = h('form', { class: 'report-form', 'data-testid': 'report-form' }, what, reason, note, send, cancel, said);
  cancel.addEventListener('click', () => done());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    send.disabled = true;
    const input = { ...targets[what ? Number(what.value) : 0][1], reason: reason.value };
    if (note.value.trim()) input.note = note.value.trim();
    try {
      const r = (await session.call(REPORT, { input })).report;
      if (r.__typename === 'ReportFiled') {
        form.dataset.filed = r.id;
        form.replaceChildren(h('span', { class: 'report-said', 'data-testid': 'report-filed' },
          t('Reported. Thank you: the operator reads every report.')));
        return;
      }
      said.textContent = r.message;
    } catch (error) {
      said.textContent = error.code === 'RATE_LIMITED' ? t('Too many reports for now: try again later.')
        : t('Not sent: {reason}', { reason: error.message });
    }
    send.disabled = false;
  });
  return form;
}

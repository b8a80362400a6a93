// The create form's option inputs, built from a title's typed option specs (Title.options): a checkbox for
// BOOL, a number input for INT (with its bounds), a select for CHOICE; a "default" choice stands for null when
// the spec is nullable (its description says what null means). Only the options for the chosen seat count show.

import { h } from './dom.js';
import { t, theirs } from './i18n.js';
import { words } from './words.js';


function control(spec) {
  const unset = t('default');
  const attrs = { 'data-option': spec.name, 'data-kind': spec.kind };
  if (spec.kind === 'BOOL' && !spec.nullable) {
    return h('input', { ...attrs, type: 'checkbox', checked: spec.default === true });
  }
  if (spec.kind === 'BOOL' || spec.kind === 'CHOICE') {
    const values = spec.kind === 'BOOL' ? ['true', 'false'] : spec.choices;
    const current = spec.default === null || spec.default === undefined ? '' : String(spec.default);
    return h('select', attrs,
      spec.nullable ? h('option', { value: '', selected: current === '' }, unset) : null,
      values.map((v) => h('option', { value: v, selected: v === current },
        spec.kind === 'BOOL' ? { true: t('Yes'), false: t('No') }[v] : theirs(v))));
  }
  return h('input', { ...attrs, type: 'number', step: 1, class: 'short', min: spec.minimum,
    max: spec.maximum, value: spec.default === null || spec.default === undefined ? null : spec.default,
    placeholder: spec.nullable ? unset : null, required: !spec.nullable });
}

function read(spec, input) {
  if (input.type === 'checkbox') return input.checked;
  if (input.value === '') return null;
  if (spec.kind === 'BOOL') return input.value === 'true';
  if (spec.kind === 'INT') return Number(input.value);
  return input.value;
}

/**
 * The inputs for a title's option specs: {element, setSeats(n), values()}. setSeats shows the options that apply
 * to n seats (an INT without a maximum is a seat number: below n); values() reads the shown ones.
 */
export function optionInputs(specs) {
  const rows = specs.map((spec) => {
    const input = control(spec);
    const row = h('label', { class: 'option', 'data-testid': 'option', 'data-name': spec.name },
      h('span', { class: 'option-control' }, input, ` ${theirs(words(spec.name))}`),
      spec.description ? h('small', { class: 'help' }, theirs(spec.description)) : null);
    return { spec, input, row };
  });
  const element = h('div', { class: 'options', 'data-testid': 'create-options' }, rows.map((r) => r.row));
  return {
    element,
    setSeats(seats) {
      for (const { spec, input, row } of rows) {
        row.hidden = spec.seats.length > 0 && !spec.seats.includes(seats);
        if (spec.kind === 'INT' && (spec.maximum === null || spec.maximum === undefined)) input.max = seats - 1;
      }
    },
    values() {
      const out = {};
      for (const { spec, input, row } of rows) {
        if (row.hidden) continue;
        const value = read(spec, input);
        if (value !== null || spec.nullable) out[spec.name] = value;
      }
      return out;
    },
  };
}

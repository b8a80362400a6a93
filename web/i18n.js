// The web client's own words in the reader's language (issue 50): the `web` gettext catalogue
// (web/locale/<lang>/LC_MESSAGES/web.po, message ids the English text), served as JSON by the service at
// /static/locale.json, is read once before anything is drawn: this module waits for it at its top level, so every
// module that imports it may word things as soon as it runs. The picker's choice (language.js) is sent as ?lang=;
// without one the service answers in the language the browser's Accept-Language asks for, as its labels do.
//
//   t('Playing as {name}', { name })               a phrase ({name} placeholders)
//   tn('{n} seat', '{n} seats', count, { ... })    a phrase whose form follows a number ({n} is the number)
//   noun('district', 'Aldgate')                     a name from a title's data, as the title's catalogue writes it
//   theirs(text)                                    a text the service sends in English (a title's name, a bot
//                                                   level, an option's name), as the web catalogue writes it
//   number(n), date(epoch), time(epoch)             numbers and dates with Intl in the reader's language
//
// scripts/catalogues.py extracts t() and tn() with Babel's JavaScript extractor; `python -m scripts.catalogues
// --check` fails on a phrase without a translation.

import { language } from './language.js';

const EMPTY = { lang: 'en', plural: { one: 0, other: 1 }, messages: {}, nouns: {} };

async function read() {
  const chosen = language();
  try {
    const response = await fetch(`/static/locale.json${chosen ? `?lang=${encodeURIComponent(chosen)}` : ''}`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return { ...EMPTY, ...(await response.json()) };
  } catch (error) {
    console.warn('the web catalogue could not be read, the page speaks English:', error); // eslint-disable-line no-console
    return EMPTY;
  }
}

const catalogue = await read();
/** The language the page is written in (what the catalogue is: 'en' when it could not be read). */
export const lang = catalogue.lang;
const rules = new Intl.PluralRules(lang);
document.documentElement.lang = lang;

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => {
    if (!(key in params)) return whole;
    const value = params[key];
    return typeof value === 'number' ? number(value) : String(value);
  });
}

/** A phrase in the reader's language, its {placeholders} filled from params. */
export function t(msgid, params = {}) {
  const found = catalogue.messages[msgid];
  return fill(typeof found === 'string' && found ? found : msgid, params);
}

/** A phrase whose form depends on count: the catalogue's plural form for the CLDR category Intl gives the number
 * (the service computed which form each category is from the catalogue's plural expression). {n} is the count. */
export function tn(singular, plural, count, params = {}) {
  const forms = catalogue.messages[singular];
  const all = { n: count, ...params };
  if (Array.isArray(forms) && forms.every(Boolean)) {
    const index = catalogue.plural[rules.select(count)];
    return fill(forms[index === undefined ? forms.length - 1 : index], all);
  }
  return fill(count === 1 ? singular : plural, all);
}

/** A name from a title's data (context: 'district', 'city card', 'borough', 'colour', 'token', ...). */
export function noun(context, name) {
  const names = catalogue.nouns[context];
  return (names && names[name]) || String(name);
}

/** A text the service sends in English (titles' names, bot levels, options' names and choices, chat presets); a
 * text the service wrote in the reader's language already comes back as it is. */
export function theirs(text) {
  if (text === null || text === undefined) return '';
  const found = catalogue.messages[text];
  return typeof found === 'string' && found ? found : String(text);
}

/** A number as the reader writes it. */
export function number(n, options = {}) {
  return new Intl.NumberFormat(lang, options).format(n);
}

/** A day (epoch seconds), e.g. "6 December 2026". */
export function date(epoch) {
  return new Date(epoch * 1000).toLocaleDateString(lang, { year: 'numeric', month: 'long', day: 'numeric' });
}

/** A moment (epoch seconds) with its day. */
export function dateTime(epoch) {
  return new Date(epoch * 1000).toLocaleString(lang);
}

/** A time of day (epoch seconds), hours and minutes. */
export function time(epoch) {
  return new Date(epoch * 1000).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' });
}

/** Items joined as the language lists them ("a, b and c"). */
export function list(items) {
  return new Intl.ListFormat(lang, { style: 'long', type: 'conjunction' }).format(items.map(String));
}

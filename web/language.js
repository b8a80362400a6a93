// The reader's language: the service writes every legal action's and event's label in it (issue 50). The picker's
// choice is kept in this browser; without one the browser's own Accept-Language speaks. GraphQL requests send it
// as Accept-Language; a WebSocket cannot set headers, so a subscription's URL carries it as ?lang=.

const KEY = 'firebreak.language';
// each language's name in itself; '' is the browser's own, worded by the picker (i18n.js imports this module)
export const LANGUAGES = [['', null], ['en', 'English'], ['de', 'Deutsch'], ['uk', 'Українська']];

/** The chosen language ('' for the browser's own). */
export function language() {
  try {
    return localStorage.getItem(KEY) || '';
  } catch {
    return '';
  }
}

/** Headers a request sends for the chosen language. */
export function languageHeaders() {
  const lang = language();
  return lang ? { 'accept-language': lang } : {};
}

/** The query a WebSocket URL ends with for the chosen language ('' for none). */
export function languageQuery() {
  const lang = language();
  return lang ? `?lang=${encodeURIComponent(lang)}` : '';
}

/** The picker: a select that keeps the choice and reads the page again in it; browser and label: its words, in the
 * page's language (i18n.js cannot be imported here: it imports this module). */
export function mountLanguagePicker(root, { browser = 'Browser language', label = 'Language' } = {}) {
  const select = document.createElement('select');
  select.dataset.testid = 'language';
  select.setAttribute('aria-label', label);
  for (const [value, name] of LANGUAGES) {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = name || browser;
    select.append(option);
  }
  select.value = language();
  select.addEventListener('change', () => {
    try {
      if (select.value) localStorage.setItem(KEY, select.value);
      else localStorage.removeItem(KEY);
    } catch {
      // storage refused: the choice lasts this page only
    }
    location.reload();
  });
  root.replaceChildren(select);
}

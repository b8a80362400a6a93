// Loading a title's client module. The shell (lobby, seats, the match page frame) never names a title: what a
// title draws and how it words things lives in web/titles/<titleId>/index.js, loaded by dynamic import();
// a title without one is played through web/titles/fallback.js (legal actions as buttons, the view as a tree).
//
// The interface a title's client module exports:
//
//   mount(slots, ctx) -> client (or a promise of one): called once per match page.
//     slots: elements the module fills and the shell places: {main} (the large area: a board...),
//       {actions} (inside the "Your move" panel, shown on the caller's turn), {side} (under the turn panel),
//       {below} (beside the events log).
//     ctx: {title: {id, name, board, botLevels, scoreColumns}, act(action) (send a legal action),
//       redraw() (render again, after a local choice such as a selection), name(seat) (a seat's display name)}.
//   client.render(state): redraw the slots. state: {match (the Match as read: status, version, seats, toAct,
//     serviceToAct, options, result...), view, legalActions (the caller's, [] when it is not their turn),
//     yourTurn, busy (an action is being sent: offer nothing)}.
//   client.describeEvent(event) -> string: one line of the events log.
//   client.describeAction(action) -> string: a button label for a legal action.
//   Optional:
//   client.turn(state) -> {headline?, prompt?, facts?}: the title's words in the turn panel.
//   client.playerColumns(state) -> [{label, cell(seat) -> node or text}]: columns of the players table.
//   client.offersActions: true when the slots offer the legal actions themselves (boards, hands); the shell then
//     folds its generic list of every legal action away (else it shows them as buttons).
//   client.autoSend: action types that are not a question when alone: a lone legal action of one of these types
//     is sent by the page itself, once per version (e.g. a pause whose only choice is to pass).
//   client.unmount(): the page is closing.

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Which client the page asks for: the URL's ?client= (in the query or after the hash route), else null. */
export function requestedClient() {
  const hashQuery = location.hash.includes('?') ? location.hash.slice(location.hash.indexOf('?') + 1) : '';
  return new URLSearchParams(hashQuery).get('client') || new URLSearchParams(location.search).get('client');
}

/** The client module for a title: {module, name}; the fallback when asked for or when the title has none. */
export async function loadClient(titleId, requested = requestedClient()) {
  if (requested !== 'fallback' && SAFE_ID.test(titleId)) {
    try {
      return { module: await import(`./titles/${titleId}/index.js`), name: titleId };
    } catch (error) {
      console.warn(`no client module for ${titleId}, using the generic one:`, error); // eslint-disable-line no-console
    }
  }
  return { module: await import('./titles/fallback.js'), name: 'fallback' };
}

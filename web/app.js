// Hash routing: #/ the lobby, #/match/<id> a match (as your seat if this browser holds its token),
// #/watch/<id> a match as a spectator (the link to share: it carries no token). A route may end in
// ?client=fallback: play the match through the generic client, whatever the title (see clients.js).

import { mountLobby } from './lobby.js';
import { mountMatch } from './match.js';

let unmount = null;

function route() {
  if (unmount) unmount();
  const root = document.getElementById('app');
  const path = location.hash.replace(/^#/, '').split('?')[0] || '/';
  const match = path.match(/^\/(match|watch)\/([^/?#]+)$/);
  if (match) {
    unmount = mountMatch(root, decodeURIComponent(match[2]), { spectate: match[1] === 'watch' });
    document.body.dataset.page = 'match';
  } else {
    unmount = mountLobby(root);
    document.body.dataset.page = 'lobby';
  }
}

window.addEventListener('hashchange', route);
route();

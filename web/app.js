// Hash routing: #/ the lobby, #/me the signed-in player's matches, #/match/<id> a match (as your seat if this
// browser holds its token or the signed-in player sits in it), #/watch/<id> a match as a spectator (the link to
// share: it carries no token), #/join/<code> a private match's invite link (join.js), #/friends the player's
// friends, requests, blocks and player search, #/players/<handle> a public profile (friends.js). A route may end
// in ?client=fallback: play the match through the generic client, whatever the title (see clients.js). Signing in or
// out draws the page again as the new caller.

import { mountAccount } from './account.js';
import { mountFriends, mountProfile } from './friends.js';
import { t } from './i18n.js';
import { mountLanguagePicker } from './language.js';
import { mountJoin } from './join.js';
import { mountLobby } from './lobby.js';
import { mountMatch } from './match.js';
import { mountMine } from './mine.js';
import * as session from './session.js';

let unmount = null;

function route() {
  if (unmount) unmount();
  const root = document.getElementById('app');
  const path = location.hash.replace(/^#/, '').split('?')[0] || '/';
  const match = path.match(/^\/(match|watch)\/([^/?#]+)$/);
  const invited = path.match(/^\/join\/([^/?#]+)$/);
  const profile = path.match(/^\/players\/([^/?#]+)$/);
  if (invited) {
    unmount = mountJoin(root, decodeURIComponent(invited[1]));
    document.body.dataset.page = 'join';
  } else if (match) {
    unmount = mountMatch(root, decodeURIComponent(match[2]), { spectate: match[1] === 'watch' });
    document.body.dataset.page = 'match';
  } else if (profile) {
    unmount = mountProfile(root, decodeURIComponent(profile[1]));
    document.body.dataset.page = 'profile';
  } else if (path === '/friends') {
    unmount = mountFriends(root);
    document.body.dataset.page = 'friends';
  } else if (path === '/me') {
    unmount = mountMine(root);
    document.body.dataset.page = 'me';
  } else {
    unmount = mountLobby(root);
    document.body.dataset.page = 'lobby';
  }
}

// index.html's own words, in the reader's language (i18n.js has read the catalogue before this module ran)
document.getElementById('tagline').textContent = t('board games as a service');
mountLanguagePicker(document.getElementById('language'),
  { browser: t('Browser language'), label: t('Language') });
mountAccount(document.getElementById('account'));
session.onChange(route);
window.addEventListener('hashchange', route);
route();

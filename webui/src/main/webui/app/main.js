import { authHeaders, onUnauthorized, request } from './api.js';
import { onOverview, publishOverview } from './feed.js';
import { startHistory } from './history.js';
import { openEventStream } from './live.js';
import { clearToken, readToken } from './token.js';
import * as channelDetail from './views/channel-detail.js';
import * as channels from './views/channels.js';
import * as cluster from './views/cluster.js';
import * as connectionDetail from './views/connection-detail.js';
import * as config from './views/config.js';
import * as connections from './views/connections.js';
import * as keyDetail from './views/key-detail.js';
import * as keys from './views/keys.js';
import * as limits from './views/limits.js';
import * as login from './views/login.js';
import * as overview from './views/overview.js';
import * as rateLimits from './views/rate-limits.js';

// #/NAME lists, #/NAME/PARAM shows one item (PARAM percent-encoded).
const ROUTES = {
  overview: { list: overview },
  limits: { list: limits },
  keys: { list: keys, detail: keyDetail },
  connections: { list: connections, detail: connectionDetail },
  channels: { list: channels, detail: channelDetail },
  config: { list: config },
  cluster: { list: cluster },
  'rate-limits': { list: rateLimits },
};
const DEFAULT_ROUTE = 'overview';

const viewRoot = document.getElementById('view');
const liveStatus = document.getElementById('live-status');
const logoutLink = document.getElementById('logout');

let authRequired = false;
let locked = false;
let lockReason = null;
let stream = null;
let mounted = null;

function parseRoute(hash) {
  const path = hash.replace(/^#\/?/, '');
  const slash = path.indexOf('/');
  const name = slash < 0 ? path : path.slice(0, slash);
  const raw = slash < 0 ? '' : path.slice(slash + 1);
  if (!ROUTES[name]) return null;
  let param = null;
  if (raw) {
    try {
      param = decodeURIComponent(raw);
    } catch {
      param = raw;
    }
  }
  return { name, param };
}

function render() {
  mounted?.abort();
  mounted = new AbortController();
  viewRoot.replaceChildren();
  document.body.classList.toggle('locked', locked);
  if (locked) {
    document.title = 'Sluice · sign in';
    login.mount(viewRoot, { signal: mounted.signal, reason: lockReason, onLogin: unlock });
    return;
  }
  const route = parseRoute(location.hash);
  if (!route) {
    history.replaceState(null, '', `#/${DEFAULT_ROUTE}`);
    render();
    return;
  }
  for (const link of document.querySelectorAll('a[data-view]')) {
    if (link.dataset.view === route.name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const { list, detail } = ROUTES[route.name];
  const view = route.param !== null && detail ? detail : list;
  document.title = `Sluice · ${route.name}`;
  window.scrollTo(0, 0);
  view.mount(viewRoot, { param: route.param, signal: mounted.signal });
}

function startStream() {
  stream?.close();
  stream = openEventStream({
    url: '/api/events',
    headers: () => authHeaders(),
    onEvent: (name, data) => {
      if (name !== 'overview') return;
      let parsed;
      try {
        parsed = JSON.parse(data);
      } catch {
        return;
      }
      publishOverview(parsed);
    },
    onStatus: showStreamStatus,
    onUnauthorized: () => lock('The access token was not accepted. Sign in again.'),
  });
}

function showStreamStatus(state, delay) {
  const text = {
    connecting: 'connecting…',
    live: 'live',
    retrying: `offline, retry in ${Math.ceil((delay ?? 0) / 1000)} s`,
    stopped: 'paused',
  }[state] ?? state;
  liveStatus.dataset.state = state;
  liveStatus.textContent = text;
}

function lock(reason = null) {
  if (locked) return;
  authRequired = true;
  locked = true;
  lockReason = reason;
  clearToken();
  stream?.close();
  stream = null;
  logoutLink.hidden = true;
  render();
}

function unlock() {
  locked = false;
  lockReason = null;
  logoutLink.hidden = !authRequired;
  startStream();
  render();
}

async function isAuthRequired() {
  try {
    const answer = await request('GET', '/api/auth', { token: null });
    return answer?.required === true;
  } catch {
    // Unreachable now: carry on; the first refused call will bring up the login anyway.
    return false;
  }
}

async function boot() {
  startHistory();
  // The Cluster view is listed only on a cluster node (#/cluster still says "single node" elsewhere).
  onOverview((overview) => { document.getElementById('nav-cluster').hidden = overview.clustered !== true; });
  onUnauthorized(() => lock('The access token was not accepted. Sign in again.'));
  window.addEventListener('hashchange', () => { if (!locked) render(); });
  logoutLink.addEventListener('click', (event) => {
    event.preventDefault();
    lock();
  });
  authRequired = await isAuthRequired();
  if (authRequired && !readToken()) lock();
  else unlock();
}

boot();

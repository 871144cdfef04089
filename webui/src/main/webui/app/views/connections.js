import { get } from '../api.js';
import { el, viewHeader } from '../dom.js';
import { watchOverview } from '../feed.js';
import { formatAddress, formatAge, formatBytes, formatNumber, formatTime } from '../format.js';
import { createPagedTable } from '../table.js';

const ADDRESS = { title: 'Address', className: 'mono', cell: (item) => formatAddress(item.address, item.port) };
const READ = { title: 'Read', className: 'num', cell: (item) => formatBytes(item.readBytes) };
const WRITTEN = { title: 'Written', className: 'num', cell: (item) => formatBytes(item.writeBytes) };
const REQUESTS = { title: 'Requests', className: 'num', cell: (item) => formatNumber(item.requests) };

export function mount(root, { signal }) {
  const list = createPagedTable({
    name: 'connections',
    signal,
    columns: [
      { title: 'ID', className: 'id mono', cell: (item) => item.id },
      { title: 'Protocol', cell: (item) => el('span', { className: `badge badge-${item.protocol}`, text: item.protocol }) },
      ADDRESS,
      { title: 'User', className: 'mono', cell: (item) => item.user ?? '' },
      { title: 'Connected since', cell: (item) => el('span', { title: formatAge(item.connectedAtMillis), text: formatTime(item.connectedAtMillis) }) },
      READ, WRITTEN, REQUESTS,
    ],
    rowData: (item) => ({ connection: item.id }),
    rowHref: (item) => `#/connections/${encodeURIComponent(item.id)}`,
    emptyText: 'No open connections.',
    fetchPage: ({ offset, limit, signal: pageSignal }) => get('/api/connections', { offset, limit }, pageSignal),
  });

  // UDP has no connections: its recent peers are clients of their own kind, listed apart, one row
  // per source address (a client may use a new source port for every request), newest first.
  const peers = createPagedTable({
    name: 'udp-peers',
    signal,
    columns: [
      { title: 'Source', className: 'id mono', cell: (item) => item.address },
      { title: 'Ports', className: 'num', cell: (item) => formatNumber(item.ports) },
      { title: 'First seen', cell: (item) => formatTime(item.connectedAtMillis) },
      { title: 'Last seen', cell: (item) => el('span', { title: formatAge(item.lastSeenMillis), text: formatTime(item.lastSeenMillis) }) },
      READ, WRITTEN, REQUESTS,
    ],
    rowData: (item) => ({ peer: item.id }),
    emptyText: 'No UDP peer lately.',
    fetchPage: ({ offset, limit, signal: pageSignal }) => get('/api/udp-peers', { offset, limit }, pageSignal),
  });

  // Neither a check nor an Envoy call opens a connection listed above: their callers are listed
  // apart, one row per protocol and remote address (a proxy's, behind one), newest first.
  const callers = createPagedTable({
    name: 'callers',
    signal,
    columns: [
      { title: 'Caller', className: 'id mono', cell: (item) => item.address },
      { title: 'Protocol', cell: (item) => el('span', { className: `badge badge-${item.protocol}`, text: item.protocol }) },
      { title: 'First seen', cell: (item) => formatTime(item.connectedAtMillis) },
      { title: 'Last seen', cell: (item) => el('span', { title: formatAge(item.lastSeenMillis), text: formatTime(item.lastSeenMillis) }) },
      REQUESTS,
      { title: 'Allowed', className: 'num', cell: (item) => formatNumber(item.allowed) },
      { title: 'Denied', className: 'num', cell: (item) => formatNumber(item.denied) },
      READ, WRITTEN,
    ],
    rowData: (item) => ({ caller: item.id }),
    emptyText: 'No HTTP check or gRPC caller lately.',
    fetchPage: ({ offset, limit, signal: pageSignal }) => get('/api/callers', { offset, limit }, pageSignal),
  });

  watchOverview((overview) => overview.connections, list.refresh, signal);
  watchOverview((overview) => overview.udpPeers, peers.refresh, signal);
  // Every check and Envoy call is counted in requests.all: a change may be a new caller or new counts.
  watchOverview((overview) => overview.requests.all, callers.refresh, signal);

  root.append(
    viewHeader('Connections', { subtitle: el('span', { className: 'muted' }, list.total, ' open, oldest first') }),
    el('section', { className: 'card' },
      el('div', { className: 'toolbar' }, el('span', { className: 'toolbar-spacer' }), list.pager),
      el('div', { className: 'table-scroll' }, list.table)),
    el('section', { className: 'card' },
      el('div', { className: 'toolbar' }, el('h2', {}, 'UDP sources '), el('span', { className: 'muted' }, peers.total, ' recent, newest first'),
        el('span', { className: 'toolbar-spacer' }), peers.pager),
      el('div', { className: 'table-scroll' }, peers.table)),
    el('section', { className: 'card' },
      el('div', { className: 'toolbar' }, el('h2', {}, 'HTTP and gRPC callers '), el('span', { className: 'muted' }, callers.total, ' recent, newest first'),
        el('span', { className: 'toolbar-spacer' }), callers.pager),
      el('div', { className: 'table-scroll' }, callers.table)));
  list.refresh();
  peers.refresh();
  callers.refresh();
}

import { get } from '../api.js';
import { el, viewHeader } from '../dom.js';
import { watchOverview } from '../feed.js';
import { formatAddress, formatAge, formatBytes, formatNumber, formatTime } from '../format.js';
import { createPagedTable } from '../table.js';

export function mount(root, { signal }) {
  const list = createPagedTable({
    name: 'connections',
    signal,
    columns: [
      { title: 'ID', className: 'id mono', cell: (item) => item.id },
      { title: 'Protocol', cell: (item) => el('span', { className: `badge badge-${item.protocol}`, text: item.protocol }) },
      { title: 'Address', className: 'mono', cell: (item) => formatAddress(item.address, item.port) },
      { title: 'Connected since', cell: (item) => el('span', { title: formatAge(item.connectedAtMillis), text: formatTime(item.connectedAtMillis) }) },
      { title: 'Read', className: 'num', cell: (item) => formatBytes(item.readBytes) },
      { title: 'Written', className: 'num', cell: (item) => formatBytes(item.writeBytes) },
      { title: 'Requests', className: 'num', cell: (item) => formatNumber(item.requests) },
    ],
    rowData: (item) => ({ connection: item.id }),
    rowHref: (item) => `#/connections/${encodeURIComponent(item.id)}`,
    emptyText: 'No open connections.',
    fetchPage: ({ offset, limit, signal: pageSignal }) => get('/api/connections', { offset, limit }, pageSignal),
  });

  watchOverview((overview) => overview.connections, list.refresh, signal);

  root.append(
    viewHeader('Connections', { subtitle: el('span', { className: 'muted' }, list.total, ' open, oldest first') }),
    el('section', { className: 'card' },
      el('div', { className: 'toolbar' }, el('span', { className: 'toolbar-spacer' }), list.pager),
      el('div', { className: 'table-scroll' }, list.table)));
  list.refresh();
}

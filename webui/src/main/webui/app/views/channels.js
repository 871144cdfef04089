import { get } from '../api.js';
import { createChannelConsole } from '../console.js';
import { el, viewHeader } from '../dom.js';
import { watchOverview } from '../feed.js';
import { formatBytes, formatNumber } from '../format.js';
import { createPagedTable } from '../table.js';

export function mount(root, { signal }) {
  const list = createPagedTable({
    name: 'channels',
    signal,
    columns: [
      { title: 'Channel', className: 'key mono', cell: (item) => item.name },
      { title: 'Subscribers', className: 'num', cell: (item) => formatNumber(item.subscribers) },
      { title: 'Delivered', className: 'num', cell: (item) => formatBytes(item.bytes) },
    ],
    rowData: (item) => ({ channel: item.name }),
    rowHref: (item) => `#/channels/${encodeURIComponent(item.name)}`,
    emptyText: 'No channel has subscribers.',
    fetchPage: ({ offset, limit, signal: pageSignal }) => get('/api/channels', { offset, limit }, pageSignal),
  });

  watchOverview((overview) => `${overview.channels?.channels}/${overview.channels?.subscriptions}`, list.refresh, signal);

  root.append(
    viewHeader('Channels', { subtitle: el('span', { className: 'muted' }, list.total, ' with subscribers') }),
    el('div', { className: 'with-aside wide-aside' },
      el('section', { className: 'card' },
        el('div', { className: 'toolbar' }, el('span', { className: 'toolbar-spacer' }), list.pager),
        el('div', { className: 'table-scroll' }, list.table)),
      createChannelConsole({ signal })));
  list.refresh();
}

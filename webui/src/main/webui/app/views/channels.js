import { get } from '../api.js';
import { createChannelConsole } from '../console.js';
import { el, viewHeader } from '../dom.js';
import { watchOverview } from '../feed.js';
import { formatBytes, formatNumber } from '../format.js';
import { createPagedTable } from '../table.js';

export function mount(root, { signal }) {
  // Each connection's own channel (its 32-hex ID) is left out unless asked for: they bury the rest.
  const showIds = el('input', { id: 'channels-show-ids', type: 'checkbox' });
  const hidden = el('span', { id: 'channels-hidden', className: 'muted' });
  const list = createPagedTable({
    name: 'channels',
    signal,
    columns: [
      { title: 'Channel', className: 'key mono', cell: (item) => item.name },
      { title: 'Subscribers', className: 'num', cell: (item) => formatNumber(item.subscribers) },
      { title: 'Presence', className: 'num', cell: (item) => formatNumber(item.presence ?? 0) },
      { title: 'Delivered', className: 'num', cell: (item) => formatBytes(item.bytes) },
      // Only with --channel-history: the messages the channel's owner holds for recovery.
      { title: 'History', className: 'num', cell: (item) => (item.history === undefined ? '' : formatNumber(item.history)) },
    ],
    rowData: (item) => ({ channel: item.name }),
    rowHref: (item) => `#/channels/${encodeURIComponent(item.name)}`,
    emptyText: 'No channel has subscribers.',
    fetchPage: ({ offset, limit, signal: pageSignal }) =>
      get('/api/channels', { offset, limit, ids: showIds.checked ? 'true' : null }, pageSignal).then((page) => {
        hidden.textContent = page.hiddenIds > 0 ? `${formatNumber(page.hiddenIds)} connection ID channels hidden` : '';
        return page;
      }),
  });
  showIds.addEventListener('change', () => list.reset());

  watchOverview((overview) => `${overview.channels?.channels}/${overview.channels?.subscriptions}`, list.refresh, signal);

  root.append(
    viewHeader('Channels', { subtitle: el('span', { className: 'muted' }, list.total, ' with subscribers') }),
    el('div', { className: 'with-aside wide-aside' },
      el('section', { className: 'card' },
        el('div', { className: 'toolbar' },
          el('label', { className: 'check' }, showIds, 'Show connection ID channels'), hidden,
          el('span', { className: 'toolbar-spacer' }), list.pager),
        el('div', { className: 'table-scroll' }, list.table)),
      createChannelConsole({ signal })));
  list.refresh();
}

import { get, isAbort } from '../api.js';
import { el, viewHeader } from '../dom.js';
import { formatAge, formatBytes, formatTime } from '../format.js';
import { createTable } from '../table.js';

export function mount(root, { param: name, signal }) {
  const subscribers = createTable({
    id: 'channel-subscribers',
    columns: [
      { title: 'Connection', className: 'id mono', cell: (item) => item.connection },
      { title: 'Subscribed since', cell: (item) => el('span', { title: formatAge(item.subscribedAtMillis), text: formatTime(item.subscribedAtMillis) }) },
      { title: 'Delivered', className: 'num', cell: (item) => formatBytes(item.bytes) },
    ],
    rowData: (item) => ({ connection: item.connection }),
    rowHref: (item) => `#/connections/${encodeURIComponent(item.connection)}`,
    emptyText: 'No subscribers.',
  });
  const content = el('div', { id: 'channel-detail', className: 'detail' },
    el('section', { className: 'card panel' }, el('h2', { text: 'Subscribers' }), el('div', { className: 'table-scroll' }, subscribers.element)));
  root.append(
    viewHeader('Channel', {
      back: { href: '#/channels', label: 'Channels' },
      subtitle: el('span', { className: 'mono subject', text: name }),
      actions: [el('button', { type: 'button', className: 'button', text: 'Refresh', onclick: load })],
    }),
    content);

  async function load() {
    try {
      const channel = await get(`/api/channels/${encodeURIComponent(name)}`, null, signal);
      subscribers.setItems(channel.subscribers ?? []);
    } catch (error) {
      if (isAbort(error) || error.status === 401) return;
      if (error.status === 404) subscribers.setMessage('This channel has no subscribers now.');
      else subscribers.setMessage(error.message, 'error');
    }
  }

  load();
}

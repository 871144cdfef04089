import { get, isAbort, remove } from '../api.js';
import { el, notice, viewHeader } from '../dom.js';
import { formatAddress, formatAge, formatBytes, formatNumber, formatTime } from '../format.js';
import { createConfirmButton, createResultLine } from '../form.js';
import { createFieldList, createTable } from '../table.js';

export function mount(root, { param: id, signal }) {
  const content = el('div', { id: 'connection-detail', className: 'detail' });
  const result = createResultLine('connection-close-result');
  root.append(
    viewHeader('Connection', {
      back: { href: '#/connections', label: 'Connections' },
      subtitle: el('span', { className: 'mono subject', text: id }),
      actions: [el('button', { type: 'button', className: 'button', text: 'Refresh', onclick: load })],
    }),
    content);

  async function load() {
    try {
      show(await get(`/api/connections/${encodeURIComponent(id)}`, null, signal));
    } catch (error) {
      if (isAbort(error) || error.status === 401) return;
      content.replaceChildren(notice(error.status === 404 ? 'This connection is closed.' : error.message,
        error.status === 404 ? 'info' : 'error'));
    }
  }

  function show(connection) {
    const commands = createTable({
      id: 'connection-commands',
      compact: true,
      columns: [
        { title: 'Command', className: 'mono', cell: (row) => row.command },
        { title: 'Requests', className: 'num', cell: (row) => formatNumber(row.count) },
      ],
      rowClass: (row) => (row.count === 0 ? 'idle' : null),
    });
    commands.setItems(Object.entries(connection.requestsByCommand ?? {}).map(([command, count]) => ({ command, count })));
    content.replaceChildren(
      el('div', { className: 'split' },
        el('section', { className: 'card' }, createFieldList([
          ['ID', el('span', { className: 'mono', text: connection.id })],
          ['Protocol', el('span', { className: `badge badge-${connection.protocol}`, text: connection.protocol })],
          ['Address', el('span', { className: 'mono', text: formatAddress(connection.address, connection.port) })],
          ['User', el('span', { id: 'connection-user', className: 'mono', text: connection.user ?? 'none (no user token)' })],
          ['Subscriptions', el('span', { id: 'connection-subscriptions', className: 'mono',
            text: (connection.subscriptions ?? []).join(', ') || 'none' })],
          ['Connected since', `${formatTime(connection.connectedAtMillis)} (${formatAge(connection.connectedAtMillis)})`],
          ['Requests', formatNumber(connection.requests)],
          ['Read', formatBytes(connection.readBytes)],
          ['Written', formatBytes(connection.writeBytes)],
          ['Published', formatBytes(connection.publishedBytes)],
          ['Received (pushes)', formatBytes(connection.receivedBytes)],
        ])),
        el('section', { className: 'card panel' }, el('h2', { text: 'Requests by command' }), commands.element)),
      connection.protocol === 'udp' ? null : el('section', { className: 'card actions' },
        el('h2', { text: 'Admin' }), el('div', { className: 'form-actions' }, closeButton()), result.element));
  }

  /** DELETE /api/connections/{id}: the server closes it (behind the token when one is set). Two clicks. */
  function closeButton() {
    return createConfirmButton({ id: 'connection-close', text: 'Close connection', confirmText: 'Click again to close',
      action: async () => {
        try {
          await remove(`/api/connections/${encodeURIComponent(id)}`, signal);
          result.show('closing', 'ok');
        } catch (error) {
          if (!isAbort(error)) result.show(error.message, 'error');
        }
      } });
  }

  load();
}

import { get, isAbort } from '../api.js';
import { el, notice, viewHeader } from '../dom.js';
import { createTable } from '../table.js';

/** #/config: the effective configuration, secrets redacted (GET /api/admin/config). */
export function mount(root, { signal }) {
  const options = createTable({
    id: 'config-options',
    columns: [
      { title: 'Option', className: 'mono', cell: (row) => row.option },
      { title: 'YAML key', className: 'mono', cell: (row) => row.yaml ?? '—' },
      { title: 'Value', className: 'mono wrap', cell: (row) => row.value },
      { title: 'From', cell: (row) => row.origin },
    ],
    rowData: (row) => ({ option: row.option }),
    emptyText: 'This server was started without a configuration to show (embedded).',
  });
  const policies = createTable({
    id: 'config-policies',
    columns: [
      { title: 'Policy', className: 'mono', cell: (row) => row.name },
      { title: 'Parameters', className: 'mono wrap', cell: (row) => JSON.stringify(row.parameters) },
      { title: 'Key', className: 'mono', cell: (row) => row.key },
      { title: 'Shadow', cell: (row) => (row.shadow ? 'yes' : 'no') },
    ],
    emptyText: 'No HTTP check policy.',
  });
  const reload = el('p', { id: 'config-last-reload', className: 'muted', text: 'No reload (SIGHUP) since the start.' });
  const status = el('div');
  root.append(viewHeader('Configuration', { subtitle: el('span', { className: 'muted', text: 'in effect, secrets redacted' }) }),
    status,
    el('section', { className: 'card' }, el('div', { className: 'table-scroll' }, options.element)),
    el('section', { className: 'card' }, el('h2', { text: 'Policies' }), el('div', { className: 'table-scroll' }, policies.element)),
    el('section', { className: 'card' }, el('h2', { text: 'Last reload' }), reload));
  get('/api/admin/config', null, signal)
    .then((config) => {
      options.setItems(config.options);
      policies.setItems(config.policies);
      if (config.lastReload) reload.replaceChildren(...describeReload(config.lastReload));
    })
    .catch((error) => {
      if (!isAbort(error) && error.status !== 401) status.replaceChildren(notice(error.message, 'error'));
    });
}

/** When the last reload ran, its outcome, and what each part changed or why it was refused. */
function describeReload(last) {
  return [
    el('span', { text: `${new Date(last.atMillis).toLocaleString()}: ${last.outcome}` }),
    el('ul', {}, last.parts.map((part) => el('li', { className: 'mono wrap', text: `${part.part}: ${part.result} — ${part.detail}` }))),
  ];
}

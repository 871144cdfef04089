import { get, isAbort, post } from '../api.js';
import { debounce, el, viewHeader } from '../dom.js';
import { watchOverview } from '../feed.js';
import { formatBytes, formatDuration } from '../format.js';
import { createResultLine, field, numberOrText } from '../form.js';
import { createPagedTable } from '../table.js';

const TTL_UNITS = ['nanoseconds', 'microseconds', 'milliseconds', 'seconds', 'minutes', 'hours'];
const SEARCH_DELAY_MS = 250;

export function mount(root, { signal }) {
  let query = '';
  const list = createPagedTable({
    name: 'keys',
    signal,
    columns: [
      { title: 'Key', className: 'key mono', cell: (item) => item.key },
      { title: 'Type', cell: (item) => el('span', { className: `badge badge-${item.type}`, text: item.type }) },
      { title: 'TTL unit', cell: (item) => item.ttlUnit },
      { title: 'Expires in', className: 'num', cell: (item) => formatDuration(item.expiresInMillis) },
      { title: 'Bytes', className: 'num', cell: (item) => formatBytes(item.bytes) },
    ],
    rowData: (item) => ({ key: item.key }),
    rowHref: (item) => `#/keys/${encodeURIComponent(item.key)}`,
    emptyText: 'No keys match.',
    fetchPage: ({ cursor, limit, signal: pageSignal }) => get('/api/keys', { q: query, cursor, limit }, pageSignal),
  });

  const search = el('input', {
    id: 'keys-search', type: 'search', className: 'search', placeholder: 'Filter: key contains… (case-sensitive)',
    autocomplete: 'off', spellcheck: 'false', 'aria-label': 'Search keys',
  });
  const runSearch = debounce(() => {
    if (search.value === query) return;
    query = search.value;
    list.reset();
  }, SEARCH_DELAY_MS);
  search.addEventListener('input', runSearch);
  signal.addEventListener('abort', runSearch.cancel);

  watchOverview((overview) => overview.keys?.total, list.refresh, signal);

  root.append(
    viewHeader('Keys', { subtitle: el('span', { className: 'muted' }, list.total, ' keys') }),
    el('div', { className: 'with-aside' },
      el('section', { className: 'card' },
        el('div', { className: 'toolbar' }, search, list.pager),
        el('div', { className: 'table-scroll' }, list.table)),
      createKeyForm(signal, list.refresh)));
  list.refresh();
}

/** POST /api/keys: a counter (INSERT, 409 when it exists) or a buffer (SET, creates or replaces). */
function createKeyForm(signal, onCreated) {
  const result = createResultLine('key-create-result');
  const type = el('select', { name: 'type' },
    el('option', { value: 'counter', text: 'counter' }),
    el('option', { value: 'buffer', text: 'buffer' }));
  const quotaField = field('Quota (counter)', el('input', { name: 'quota', type: 'number', min: 0, step: 1, inputmode: 'numeric', placeholder: 'e.g. 10' }));
  const valueField = field('Value (buffer)', el('input', { name: 'value', type: 'text', placeholder: 'e.g. hello', spellcheck: 'false' }));
  const unit = el('select', { name: 'ttlUnit' }, TTL_UNITS.map((name) => el('option', { value: name, text: name })));
  unit.value = 'seconds';

  // Both stay visible and editable (filling them in any order works); the one the type ignores is dimmed.
  const showTypeFields = () => {
    quotaField.classList.toggle('inactive', type.value !== 'counter');
    valueField.classList.toggle('inactive', type.value !== 'buffer');
  };
  type.addEventListener('change', showTypeFields);
  showTypeFields();

  // No browser validation: the API is the judge, and its error text is what the operator sees.
  const form = el('form', { id: 'key-create', className: 'card form', novalidate: true },
    el('h2', { text: 'Create a key' }),
    field('Key', el('input', { name: 'key', type: 'text', className: 'mono', autocomplete: 'off', spellcheck: 'false', placeholder: 'user:42' })),
    field('Type', type),
    quotaField,
    valueField,
    el('div', { className: 'field-row' },
      field('TTL', el('input', { name: 'ttl', type: 'number', min: 0, step: 1, inputmode: 'numeric', placeholder: 'e.g. 60' })),
      field('Unit', unit)),
    el('div', { className: 'form-actions' }, el('button', { type: 'submit', className: 'button primary', text: 'Create' })),
    result.element);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const body = { key: data.get('key'), type: data.get('type') };
    if (body.type === 'counter') body.quota = numberOrText(data.get('quota'));
    else body.value = data.get('value');
    body.ttl = numberOrText(data.get('ttl'));
    body.ttlUnit = data.get('ttlUnit');

    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    result.clear();
    try {
      await post('/api/keys', body, signal);
      result.show('created', 'ok');
      onCreated();
    } catch (error) {
      if (isAbort(error)) return;
      result.show(error.message, 'error');
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

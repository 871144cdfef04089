import { isAbort } from './api.js';
import { countElement, el, showCount } from './dom.js';
import { formatNumber } from './format.js';

const BUSY_RETRY_MS = 1000;

/**
 * A data table. `columns`: [{title, cell(item) → string | Node, className}]. `rowData(item)` becomes
 * the row's data-* attributes, `rowClass(item)` its class; with `rowHref(item)` the first cell links there and a click anywhere
 * on the row follows it.
 */
export function createTable({ id, columns, rowData = () => ({}), rowHref = null, rowClass = null, compact = false, emptyText = 'Nothing to show.' }) {
  const body = el('tbody');
  const element = el('table', { id, className: ['data', rowHref ? 'clickable' : '', compact ? 'compact' : ''].join(' ').trim() },
    el('thead', {}, el('tr', {}, columns.map((column) =>
      // Headers take the alignment of their column, not its font.
      el('th', { scope: 'col', className: column.className?.includes('num') ? 'num' : null, text: column.title })))),
    body);

  if (rowHref) {
    body.addEventListener('click', (event) => {
      const row = event.target.closest('tr[data-href]');
      // Links navigate by themselves; a drag that selected text is not a click on the row.
      if (!row || event.target.closest('a, button, input') || String(getSelection()).length > 0) return;
      location.hash = row.dataset.href;
    });
  }

  function rowOf(item) {
    const href = rowHref?.(item);
    const row = el('tr', { className: rowClass?.(item), dataset: { ...rowData(item), ...(href ? { href } : {}) } });
    columns.forEach((column, index) => {
      const content = column.cell(item);
      row.append(el('td', { className: column.className }, index === 0 && href ? el('a', { href }, content) : content));
    });
    return row;
  }

  return {
    element,
    setItems(items) {
      body.replaceChildren(...(items.length ? items.map(rowOf) : [messageRow(emptyText)]));
    },
    setMessage(text, kind = 'info') {
      body.replaceChildren(messageRow(text, kind));
    },
  };

  function messageRow(text, kind = 'info') {
    return el('tr', { className: `message-row ${kind}` }, el('td', { colspan: columns.length, text }));
  }
}

/**
 * A table over one of the API's paged lists ({total, offset, limit, items}). Only the current page
 * is ever fetched. A list whose pages carry `next` (the keys) is paged by cursor: Next asks for the
 * page after `next`, Prev for the page it came from; the others by offset. `name` prefixes the
 * stable element ids: NAME-table, NAME-total, NAME-prev, NAME-next.
 * `fetchPage({offset, cursor, limit, signal})` returns the page; the view's `signal` ends everything.
 */
export function createPagedTable({ name, fetchPage, signal, pageSize = 50, ...tableOptions }) {
  const table = createTable({ id: `${name}-table`, ...tableOptions });
  const total = countElement({ id: `${name}-total` }, 0);
  const range = el('span', { className: 'pager-range' });
  const prev = el('button', { id: `${name}-prev`, type: 'button', className: 'button', disabled: true, onclick: () => step(-1) }, '‹ Prev');
  const next = el('button', { id: `${name}-next`, type: 'button', className: 'button', disabled: true, onclick: () => step(1) }, 'Next ›');
  const pager = el('div', { className: 'pager' }, range, prev, next);

  let offset = 0;
  // Cursor paging: the cursor of this page (undefined for the first) and of each page before it.
  let cursor;
  let earlier = [];
  let lastPage = null;
  let inFlight = null;
  let refreshPending = false;
  let loaded = false;

  const byCursor = () => lastPage !== null && 'next' in lastPage;

  /** User intent (a page, a new search) cancels the request in flight; the newest question wins. */
  function step(direction) {
    if (byCursor()) {
      if (direction > 0) {
        earlier.push(cursor);
        cursor = lastPage.next;
      } else {
        cursor = earlier.pop();
      }
    } else {
      offset = Math.max(0, offset + direction * pageSize);
    }
    load(true);
  }

  function toFirstPage() {
    offset = 0;
    cursor = undefined;
    earlier = [];
  }

  /** Live refreshes coalesce: at most one request in flight and one queued behind it. */
  function refresh() {
    if (inFlight) {
      refreshPending = true;
      return;
    }
    load(false);
  }

  function load(replace) {
    if (signal.aborted) return;
    if (replace) inFlight?.abort();
    const attempt = new AbortController();
    inFlight = attempt;
    const busyTimer = setTimeout(() => table.element.classList.add('busy'), 200);
    fetchPage({ offset, cursor, limit: pageSize, signal: AbortSignal.any([signal, attempt.signal]) })
      .then((page) => {
        if (inFlight !== attempt) return;
        if (page.items.length === 0 && page.total > 0 && (offset > 0 || cursor !== undefined)) {
          // The list shrank under us: show its last page (by offset) or its first (by cursor), not an empty one.
          if ('next' in page) toFirstPage();
          else offset = Math.floor((page.total - 1) / pageSize) * pageSize;
          refreshPending = true;
          return;
        }
        loaded = true;
        lastPage = page;
        table.setItems(page.items);
        showPosition(page);
      })
      .catch((error) => {
        if (isAbort(error) || inFlight !== attempt || error.status === 401) return;
        if (!loaded) table.setMessage(error.message, 'error');
        range.textContent = `⚠ ${error.message}`;
        // 503: the server runs as many key scans as it allows; it asks to come back in a second.
        if (error.status === 503) setTimeout(refresh, BUSY_RETRY_MS);
      })
      .finally(() => {
        clearTimeout(busyTimer);
        table.element.classList.remove('busy');
        if (inFlight !== attempt) return;
        inFlight = null;
        if (refreshPending) {
          refreshPending = false;
          load(false);
        }
      });
  }

  function showPosition(page) {
    showCount(total, page.total);
    const first = page.items.length ? page.offset + 1 : 0;
    range.textContent = page.total > 0 ? `${formatNumber(first)}–${formatNumber(page.offset + page.items.length)}` : '';
    prev.disabled = byCursor() ? cursor === undefined : page.offset <= 0;
    next.disabled = byCursor() ? !page.next : page.offset + page.items.length >= page.total;
  }

  return {
    table: table.element,
    total,
    pager,
    refresh,
    /** Back to the first page, e.g. for a new search. */
    reset: () => {
      toFirstPage();
      load(true);
    },
  };
}

/** Label/value pairs of a detail view; a value is a string or a Node. */
export function createFieldList(fields) {
  return el('dl', { className: 'fields' }, fields.flatMap(([label, value]) =>
    [el('dt', { text: label }), el('dd', {}, value)]));
}

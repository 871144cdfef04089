import { ApiError, get, isAbort, patch, remove } from '../api.js';
import { countElement, el, notice, viewHeader } from '../dom.js';
import { createConfirmButton, createResultLine, field } from '../form.js';
import { formatBytes, formatDecimal, formatNumber, formatTime } from '../format.js';
import { createFieldList } from '../table.js';

/**
 * A buffer's value as text when its bytes are text (UTF-8 without control characters), else as hex:
 * binary state such as a udp: key's rate (two doubles) would otherwise show as mojibake.
 */
function valueField(record) {
  const bytes = Uint8Array.from(atob(record.valueBase64 ?? ''), (c) => c.charCodeAt(0));
  let text = null;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = null;
  }
  if (text !== null && !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text)) {
    return ['Value', el('pre', { id: 'key-detail-value', className: 'value', text })];
  }
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return ['Value (hex)', el('pre', { id: 'key-detail-value', className: 'value mono', dataset: { binary: 'true' }, text: hex })];
}

export function mount(root, { param: key, signal }) {
  const path = `/api/keys/${encodeURIComponent(key)}`;
  const content = el('div', { id: 'key-detail', className: 'detail' });
  const result = createResultLine('key-detail-result');
  root.append(
    viewHeader('Key', {
      back: { href: '#/keys', label: 'Keys' },
      subtitle: el('span', { className: 'mono subject', text: key }),
      actions: [el('button', { type: 'button', className: 'button', text: 'Refresh', onclick: load })],
    }),
    content);

  async function load() {
    try {
      show(await get(path, null, signal));
    } catch (error) {
      if (isAbort(error) || error.status === 401) return;
      content.replaceChildren(notice(error.status === 404 ? 'This key does not exist (absent or expired).' : error.message,
        error.status === 404 ? 'info' : 'error'));
    }
  }

  function show(record) {
    const isCounter = record.type === 'counter';
    const stats = record.stats ?? {};
    const main = isCounter
      ? ['Quota', countElement({ id: 'key-detail-quota', className: 'count big' }, record.quota)]
      : valueField(record);
    const fields = [
      ['Key', el('span', { className: 'mono', text: record.key })],
      ['Type', el('span', { className: `badge badge-${record.type}`, text: record.type })],
      main,
      ...(isCounter ? [] : [['Size', formatBytes(record.bytes)], ['Base64', el('span', { className: 'mono wrap', text: record.valueBase64 ?? '' })]]),
      ['TTL', `${formatNumber(record.ttl)} ${record.ttlUnit}`],
      ['Reads', `${formatNumber(stats.readsPerMinute)} last minute · ${formatNumber(stats.totalReads)} total`],
      ['Writes', `${formatNumber(stats.writesPerMinute)} last minute · ${formatNumber(stats.totalWrites)} total`],
    ];
    content.replaceChildren(
      el('section', { className: 'card' }, createFieldList(fields)),
      record.decoded ? decodedState(record.decoded) : null,
      el('section', { className: 'card actions' },
        el('h2', { text: 'Change' }),
        // Throttr refuses a quota on a buffer, so a buffer only offers its TTL.
        isCounter ? changeForm('quota', 'Quota') : null,
        changeForm('ttl', `TTL (${record.ttlUnit})`),
        el('div', { className: 'form-actions' }, deleteButton()),
        result.element));
  }

  /** PATCH {attribute, change, value}: Throttr UPDATE. */
  function changeForm(attribute, label) {
    const change = el('select', { name: 'change', 'aria-label': `${label} change` },
      el('option', { value: 'patch', text: 'set to' }),
      el('option', { value: 'increase', text: 'increase by' }),
      el('option', { value: 'decrease', text: 'decrease by' }));
    const value = el('input', { name: 'value', type: 'number', min: 0, step: 1, inputmode: 'numeric', required: true });
    const form = el('form', { id: `key-update-${attribute}`, className: 'inline-form' },
      field(label, el('div', { className: 'field-row' }, change, value,
        el('button', { type: 'submit', className: 'button', text: 'Apply' }))));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      await act(() => patch(path, { attribute, change: change.value, value: Number(value.value) }, signal), `${attribute} updated`);
      value.value = '';
    });
    return form;
  }

  /** PURGE, after a second click. */
  function deleteButton() {
    return createConfirmButton({ id: 'key-delete', text: 'Delete key', confirmText: 'Click again to delete',
      action: async () => {
        try {
          await remove(path, signal);
          location.hash = '#/keys';
        } catch (error) {
          if (!isAbort(error)) result.show(error.message, 'error');
        }
      } });
  }

  async function act(call, success) {
    try {
      await call();
      await load();
      result.show(success, 'ok');
    } catch (error) {
      if (isAbort(error)) return;
      if (error instanceof ApiError && error.status === 401) return;
      result.show(error.message, 'error');
    }
  }

  load();
}

/**
 * A rate-limit state record, decoded: an rl: key per limit (remaining, used, reset) as its policy's
 * strategy reads it now, a udp: key's decaying rate and when it was last computed.
 */
function decodedState(decoded) {
  const title = el('h2', { text: 'Decoded state' });
  if (decoded.error) {
    return el('section', { id: 'key-decoded', className: 'card' }, title, notice(decoded.error, 'error'));
  }
  if (decoded.kind === 'udp-rate') {
    return el('section', { id: 'key-decoded', className: 'card' }, title, createFieldList([
      ['UDP key', el('span', { className: 'mono', text: decoded.key })],
      ['Rate', el('span', { id: 'key-decoded-rate', text: `${formatDecimal(decoded.rate)} per period` })],
      ['Last seen', el('span', { id: 'key-decoded-last-seen', text: formatTime(decoded.lastSeenMillis) })],
    ]));
  }
  const limits = decoded.limits.map((limit) => el('div', { className: 'decoded-limit', dataset: { limit: limit.name } },
    el('h3', { className: 'mono', text: limit.name }),
    createFieldList([
      ['Remaining', el('span', { className: 'decoded-remaining', text: `${formatNumber(limit.remaining)} of ${formatNumber(limit.limit)}` })],
      ['Used', el('span', { className: 'decoded-used', text: formatNumber(limit.used) })],
      ...(limit.windowSeconds ? [['Window', `${formatNumber(limit.windowSeconds)} s`]] : []),
      ['Reset', el('span', { className: 'decoded-reset', text: `in ${formatNumber(limit.resetInSeconds)} s · ${formatTime(limit.resetAtMillis)}` })],
    ])));
  return el('section', { id: 'key-decoded', className: 'card' }, title,
    createFieldList([
      ['Policy', el('a', { href: '#/limits', className: 'mono', text: decoded.policy })],
      ['Strategy', `${decoded.strategy}${decoded.shadow ? ' (shadow)' : ''}`],
      ['Limited key', el('span', { className: 'mono', text: decoded.key })],
      ['Next request', el('span', { id: 'key-decoded-verdict', text: decoded.allowedNow ? 'would be allowed' : 'would be denied' })],
      ['Stored state', el('span', { className: 'mono wrap', text: decoded.state })],
    ]),
    el('div', { className: 'decoded-limits' }, limits));
}

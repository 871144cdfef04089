import { el } from './dom.js';

export function field(label, control) {
  return el('label', { className: 'field' }, el('span', { className: 'field-label', text: label }), control);
}

/** A number when the input is one; otherwise the raw text, for the API to reject with its own message. */
export function numberOrText(raw) {
  const text = String(raw ?? '').trim();
  if (text === '') return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : text;
}

/** The line under a form that reports its outcome: `show(text, 'ok' | 'error')`, `clear()`. */
export function createResultLine(id) {
  const element = el('p', { id, className: 'form-result', role: 'status' });
  return {
    element,
    show(text, kind) {
      element.className = `form-result ${kind}`;
      element.textContent = text;
    },
    clear() {
      element.className = 'form-result';
      element.textContent = '';
    },
  };
}

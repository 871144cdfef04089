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

const CONFIRM_MS = 4000;

/**
 * A button for an action that cannot be undone: two clicks, no modal dialog. The first arms it for a
 * few seconds (its text asks for the second), the second runs `action`.
 */
export function createConfirmButton({ id, text, confirmText, action }) {
  let armedUntil = 0;
  const button = el('button', { id, type: 'button', className: 'button danger', text });
  button.addEventListener('click', () => {
    if (Date.now() > armedUntil) {
      armedUntil = Date.now() + CONFIRM_MS;
      button.textContent = confirmText;
      setTimeout(() => { if (Date.now() >= armedUntil) button.textContent = text; }, CONFIRM_MS);
      return;
    }
    armedUntil = 0;
    button.textContent = text;
    action();
  });
  return button;
}

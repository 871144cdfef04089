import { el } from '../dom.js';

/** A figure card: its label, its value and lines of detail below. */
export function card(label, value, ...details) {
  return el('article', { className: 'card stat' },
    el('h2', { className: 'stat-label', text: label }),
    el('div', { className: 'stat-value' }, value),
    el('div', { className: 'stat-detail' }, details));
}

/** A titled card around a table or a list. */
export function panel(title, ...content) {
  return el('section', { className: 'card panel' }, el('h2', { text: title }), content);
}

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

/** A labelled figure in a row of them (a policy's or a domain's counts and rates). */
export function figure(label, value) {
  return el('div', { className: 'limit-figure' }, el('span', { className: 'stat-label', text: label }), value);
}

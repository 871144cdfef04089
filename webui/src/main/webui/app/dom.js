import { digitGroups } from './format.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Builds an element. Options: `text`, `className`, `dataset`, `onX` listeners, anything else as an
 * attribute (true → present, false/null → absent). Children are nodes or strings; strings become
 * text nodes, so server data can never turn into markup.
 */
export function el(tag, options = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = value;
    else if (name === 'className') node.className = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  node.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  }
  node.append(...children);
  return node;
}

/**
 * Shows an integer with its thousands set apart by CSS spacing, not by a character: the element's
 * text stays the bare number ("100000"), which scripts and tests can read.
 */
export function showCount(target, value) {
  if (!Number.isFinite(value)) {
    target.textContent = '—';
    return;
  }
  const [first, ...rest] = digitGroups(value);
  target.replaceChildren((value < 0 ? '-' : '') + first,
    ...rest.map((group) => el('span', { className: 'digit-group', text: group })));
}

export function countElement(options = {}, value) {
  const node = el('span', { className: 'count', ...options });
  if (value !== undefined) showCount(node, value);
  return node;
}

/** The heading line of a view: a title, an optional back link and optional actions on the right. */
export function viewHeader(title, { back, subtitle, actions = [] } = {}) {
  return el('header', { className: 'view-header' },
    back ? el('a', { className: 'back', href: back.href, text: `← ${back.label}` }) : null,
    el('div', { className: 'view-title' },
      el('h1', { text: title }),
      subtitle ?? null),
    actions.length ? el('div', { className: 'view-actions' }, actions) : null);
}

/** A one-line message box: kind is "info", "error" or "ok". */
export function notice(text, kind = 'info') {
  return el('p', { className: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status', text });
}

/** Calls `fn` once the input has been quiet for `wait` ms. */
export function debounce(fn, wait) {
  let timer = null;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), wait);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}

import { get, isAbort } from '../api.js';
import { el, notice, viewHeader } from '../dom.js';
import { formatNumber } from '../format.js';
import { createTable } from '../table.js';

const REFRESH_MS = 2000;

// Envoy's rate limit service: each domain's descriptors with their limits and hits (GET /api/rls).
export function mount(root, { signal }) {
  const sources = el('span', { className: 'muted' });
  const domains = el('div', { id: 'rls-domains' });
  root.append(viewHeader('Envoy RLS', { subtitle: sources }), domains);

  async function refresh() {
    try {
      const overview = await get('/api/rls', {}, signal);
      sources.textContent = overview.sources.length ? `from ${overview.sources.join(', ')}` : 'no --rls-config';
      domains.replaceChildren(...(overview.domains.length
        ? overview.domains.map(domainCard)
        : [notice('No rate limit domain is configured or counted.')]));
    } catch (error) {
      if (!isAbort(error)) domains.replaceChildren(notice(error.message, 'error'));
    }
  }

  const timer = setInterval(refresh, REFRESH_MS);
  signal.addEventListener('abort', () => clearInterval(timer));
  refresh();
}

function domainCard(domain) {
  const table = createTable({
    id: `rls-${domain.domain}`,
    compact: true,
    columns: [
      { title: 'Descriptor', className: 'key mono', cell: (d) => d.descriptor },
      { title: 'Limit', cell: (d) => (d.limit ?? '') + (d.shadow_mode ? ' (shadow)' : '') },
      { title: 'Hits', className: 'num', cell: (d) => formatNumber(d.total_hits) },
      { title: 'Within', className: 'num', cell: (d) => formatNumber(d.within_limit) },
      { title: 'Near', className: 'num', cell: (d) => formatNumber(d.near_limit) },
      { title: 'Over', className: 'num', cell: (d) => formatNumber(d.over_limit) },
    ],
    rowData: (d) => ({ descriptor: d.descriptor }),
    emptyText: 'No descriptor with a limit.',
  });
  table.setItems(domain.descriptors);
  return el('section', { className: 'card' },
    el('h2', { text: domain.configured ? domain.domain : `${domain.domain} (no longer configured)` }),
    el('div', { className: 'table-scroll' }, table.element));
}

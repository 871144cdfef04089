import { get, isAbort } from '../api.js';
import { createLineChart } from '../chart.js';
import { el, notice, viewHeader } from '../dom.js';
import { onOverview } from '../feed.js';
import { formatDecimal, formatNumber } from '../format.js';
import { onHistoryLoaded, recentSamples } from '../history.js';
import { createTable } from '../table.js';
import { figure } from './cards.js';

const perSecond = (value) => (Number.isFinite(value) ? `${formatDecimal(value)}/s` : '—');
/** Descriptors listed as the most over their limit, per domain. */
const TOP_DESCRIPTORS = 10;

/**
 * #/rate-limits, Envoy's rate limit service: per domain its hits per second now and over the last
 * hour (within and over the limit), the descriptors most over their limit, and every descriptor
 * with its limit and hits (GET /api/rls), refreshed with every live update.
 */
export function mount(root, { signal }) {
  const sources = el('span', { className: 'muted' });
  const status = el('div');
  const domainsRoot = el('div', { id: 'rls-domains', className: 'limit-list' });
  const panels = new Map();
  signal.addEventListener('abort', () => panels.forEach((panel) => panel.chart.destroy()));
  root.append(viewHeader('Envoy RLS', { subtitle: sources }), status, domainsRoot);

  let inFlight = false;
  async function refresh() {
    if (inFlight || signal.aborted) return;
    inFlight = true;
    try {
      show(await get('/api/rls', {}, signal));
    } catch (error) {
      if (!isAbort(error) && error.status !== 401) status.replaceChildren(notice(error.message, 'error'));
    } finally {
      inFlight = false;
    }
  }

  function show(overview) {
    status.replaceChildren();
    sources.textContent = overview.sources.length ? `from ${overview.sources.join(', ')}` : 'no --rls-config';
    if (overview.domains.length === 0 && panels.size === 0) {
      domainsRoot.replaceChildren(notice('No rate limit domain is configured or counted.'));
    }
    for (const domain of overview.domains) {
      let panel = panels.get(domain.domain);
      if (!panel) {
        panel = domainPanel(domain.domain);
        panels.set(domain.domain, panel);
        if (panels.size === 1) domainsRoot.replaceChildren();
        domainsRoot.append(panel.element);
      }
      panel.update(domain);
    }
    drawCharts();
  }

  function drawCharts() {
    const samples = recentSamples();
    for (const panel of panels.values()) panel.showNow(samples);
  }

  onOverview(() => refresh(), signal);
  onHistoryLoaded(drawCharts, signal);
  refresh();
}

function domainPanel(name) {
  const title = el('h2', { className: 'mono', text: name });
  const hitsNow = el('span', { id: `rls-${name}-hits-now`, text: '—' });
  const overNow = el('span', { id: `rls-${name}-over-now`, className: 'verdict-denied', text: '—' });
  const rates = (s) => s.envoyDomains?.[name];
  const chart = createLineChart({
    id: `chart-rls-${name}`, title: `${name}: hits per second`, format: perSecond,
    series: [
      { label: 'within the limit', tone: 'allowed',
        value: (s) => (rates(s) ? rates(s).hitsPerSecond - rates(s).overLimitPerSecond : null) },
      { label: 'over the limit', tone: 'denied', value: (s) => rates(s)?.overLimitPerSecond ?? null },
    ],
  });
  const top = createTable({
    id: `rls-top-${name}`, compact: true, emptyText: 'Nothing over its limit.',
    columns: [
      { title: 'Most over the limit', className: 'key mono', cell: (d) => d.descriptor },
      { title: 'Over', className: 'num', cell: (d) => formatNumber(d.over_limit) },
      { title: 'Of hits', className: 'num', cell: (d) => formatNumber(d.total_hits) },
    ],
    rowData: (d) => ({ descriptor: d.descriptor }),
  });
  const all = createTable({
    id: `rls-${name}`,
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
  const element = el('section', { id: `rls-domain-${name}`, className: 'card limit', dataset: { domain: name } },
    el('header', { className: 'limit-head' }, title),
    el('div', { className: 'limit-figures' }, figure('Hits now', hitsNow), figure('Over the limit now', overNow)),
    chart.element,
    el('div', { className: 'table-scroll' }, top.element),
    el('div', { className: 'table-scroll' }, all.element));
  return {
    element,
    chart,
    update(domain) {
      title.textContent = domain.configured ? domain.domain : `${domain.domain} (no longer configured)`;
      top.setItems(domain.descriptors.filter((d) => d.over_limit > 0)
        .sort((a, b) => b.over_limit - a.over_limit).slice(0, TOP_DESCRIPTORS));
      all.setItems(domain.descriptors);
    },
    showNow(samples) {
      chart.render(samples);
      const now = rates(samples[samples.length - 1] ?? {});
      hitsNow.textContent = perSecond(now?.hitsPerSecond);
      overNow.textContent = perSecond(now?.overLimitPerSecond);
    },
  };
}

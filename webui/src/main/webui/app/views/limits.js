import { get, isAbort } from '../api.js';
import { createLineChart } from '../chart.js';
import { countElement, el, notice, showCount, viewHeader } from '../dom.js';
import { onOverview } from '../feed.js';
import { formatDecimal, formatNumber, formatTime } from '../format.js';
import { onHistoryLoaded, recentSamples } from '../history.js';
import { createTable } from '../table.js';
import { figure } from './cards.js';

const perSecond = (value) => `${formatDecimal(value)}/s`;

/**
 * #/limits: every check-API policy with its strategy and parameters, what it decides per second now
 * and over the last hour, its most-denied keys and the keys near their limit; the UDP endpoint's
 * over_limit verdicts per second.
 */
export function mount(root, { signal }) {
  const status = el('div');
  const subtitle = el('span', { className: 'muted' });
  const policiesRoot = el('div', { id: 'limits-policies', className: 'limit-list' });
  const udp = udpSection();
  const charts = [udp.chart];
  const panels = new Map();
  signal.addEventListener('abort', () => charts.forEach((chart) => chart.destroy()));

  root.append(viewHeader('HTTP check policies', { subtitle }), status, policiesRoot, udp.element);

  let inFlight = false;
  async function load() {
    if (inFlight || signal.aborted) return;
    inFlight = true;
    try {
      show(await get('/api/limits', null, signal));
    } catch (error) {
      if (!isAbort(error) && error.status !== 401) status.replaceChildren(notice(error.message, 'error'));
    } finally {
      inFlight = false;
    }
  }

  function show(limits) {
    status.replaceChildren();
    subtitle.textContent = `${limits.policies.length} HTTP ${limits.policies.length === 1 ? 'policy' : 'policies'}`
      + ` · near the limit: ${limits.nearLimitPercent} % used or more`;
    if (limits.policies.length === 0 && panels.size === 0) {
      policiesRoot.replaceChildren(notice('No HTTP check policy is configured (a policies: section in the --config file).'));
    }
    for (const policy of limits.policies) {
      let panel = panels.get(policy.name);
      if (!panel) {
        panel = policyPanel(policy);
        panels.set(policy.name, panel);
        charts.push(panel.chart);
        if (panels.size === 1) policiesRoot.replaceChildren();
        policiesRoot.append(panel.element);
      }
      panel.update(policy);
    }
    showCount(udp.over, limits.udp.overLimit);
    showCount(udp.under, limits.udp.underLimit);
    drawCharts();
  }

  function drawCharts() {
    const samples = recentSamples();
    charts.forEach((chart) => chart.render(samples));
    for (const panel of panels.values()) panel.showNow(samples[samples.length - 1]);
  }

  onOverview(() => load(), signal);
  onHistoryLoaded(drawCharts, signal);
  load();
}

function policyPanel(policy) {
  const name = policy.name;
  const allowedNow = el('span', { className: 'limits-allowed-now', text: '—' });
  const deniedNow = el('span', { className: 'limits-denied-now', text: '—' });
  const allowed = countElement({ className: 'count limits-allowed verdict-allowed' });
  const denied = countElement({ className: 'count limits-denied verdict-denied' });
  const near = countElement({ className: 'count limits-near' });
  const chart = createLineChart({
    id: `chart-policy-${name}`, title: `${name}: decisions per second`, format: perSecond,
    series: [
      { label: 'allowed', tone: 'allowed', value: (s) => s.policies?.[name]?.allowedPerSecond ?? null },
      { label: policy.shadow ? 'would deny' : 'denied', tone: 'denied', value: (s) => s.policies?.[name]?.deniedPerSecond ?? null },
    ],
  });
  const mostDenied = createTable({
    id: `limits-denied-${name}`, compact: true, emptyText: 'Nothing denied.',
    columns: [
      { title: 'Most denied keys', className: 'key mono', cell: (row) => keyLink(name, row.key) },
      { title: 'Denied', className: 'num', cell: (row) => formatNumber(row.denied) },
    ],
    rowData: (row) => ({ key: row.key }),
  });
  const nearLimit = createTable({
    id: `limits-near-${name}`, compact: true, emptyText: 'No key near its limit in the last minute.',
    columns: [
      { title: 'Near their limit', className: 'key mono', cell: (row) => keyLink(name, row.key) },
      { title: 'Used', className: 'num', cell: (row) => `${formatNumber(row.used)} of ${formatNumber(row.of)} (${row.percent} %)` },
      { title: 'Seen', cell: (row) => formatTime(row.seenAtMillis) },
    ],
    rowData: (row) => ({ key: row.key }),
  });
  const element = el('section', { id: `limits-policy-${name}`, className: 'card limit', dataset: { policy: name } },
    el('header', { className: 'limit-head' },
      el('h2', { className: 'mono', text: name }),
      el('span', { className: 'badge', text: policy.strategy }),
      policy.shadow ? el('span', { className: 'badge badge-shadow', title: 'counts and reports, but allows every request', text: 'shadow' }) : null),
    el('p', { className: 'limit-parameters', text: describe(policy.parameters) }),
    el('p', { className: 'muted', text: `key: ${policy.key} · state in rl:${name}:<key>` }),
    el('div', { className: 'limit-figures' },
      figure('Allowed now', allowedNow), figure(policy.shadow ? 'Would deny now' : 'Denied now', deniedNow),
      figure('Allowed', allowed), figure(policy.shadow ? 'Would deny' : 'Denied', denied), figure('Near the limit', near)),
    chart.element,
    el('div', { className: 'split' }, el('div', { className: 'table-scroll' }, mostDenied.element),
      el('div', { className: 'table-scroll' }, nearLimit.element)));
  return {
    element,
    chart,
    update(current) {
      showCount(allowed, current.allowed);
      showCount(denied, current.denied);
      showCount(near, current.nearLimit);
      mostDenied.setItems(current.mostDenied);
      nearLimit.setItems(current.nearLimitKeys);
    },
    showNow(sample) {
      const now = sample?.policies?.[name];
      allowedNow.textContent = now?.allowedPerSecond == null ? '—' : perSecond(now.allowedPerSecond);
      deniedNow.textContent = now?.deniedPerSecond == null ? '—' : perSecond(now.deniedPerSecond);
    },
  };
}

function udpSection() {
  const over = countElement({ id: 'limits-udp-over', className: 'count verdict-denied' });
  const under = countElement({ id: 'limits-udp-under', className: 'count verdict-allowed' });
  const chart = createLineChart({
    id: 'chart-udp', title: 'UDP over_limit verdicts per second', format: perSecond,
    series: [
      { label: 'under limit (N)', tone: 'allowed', value: (s) => s.udpUnderLimitPerSecond ?? null },
      { label: 'over limit (Y)', tone: 'denied', value: (s) => s.udpOverLimitPerSecond ?? null },
    ],
  });
  const element = el('section', { id: 'limits-udp', className: 'card limit' },
    el('header', { className: 'limit-head' }, el('h2', { text: 'UDP' }), el('span', { className: 'badge', text: 'over_limit' })),
    el('div', { className: 'limit-figures' }, figure('Under limit (N)', under), figure('Over limit (Y)', over)),
    chart.element);
  return { element, chart, over, under };
}

function keyLink(policy, key) {
  return el('a', { href: `#/keys/${encodeURIComponent(`rl:${policy}:${key}`)}`, text: key });
}

/** The parameters as a sentence: "5 per 10s", "burst 20, rate 5/s", "22 per 20s, strict". */
export function describe(parameters) {
  if (!parameters) return '';
  switch (parameters.strategy) {
    case 'fixed_window':
      return parameters.quotas.map((quota) => `${quota.limit} per ${quota.window}`
        + (quota.name === 'default' ? '' : ` (${quota.name})`)).join(' and ');
    case 'composite':
      return `primary ${describe({ strategy: 'fixed_window', ...parameters.primary })}; `
        + `secondary ${parameters.secondary.strategy} ${describe(parameters.secondary)}`;
    case 'sliding_window':
      return `${parameters.limit} per ${parameters.window}, sliding`;
    case 'decaying_rate':
      return `${parameters.limit} per ${parameters.period}${parameters.strict ? ', strict' : ''}`;
    default:
      return `burst ${parameters.burst}, rate ${parameters.rate}/s`;
  }
}

import { createLineChart } from '../chart.js';
import { el } from '../dom.js';
import { formatDecimal, formatNumber } from '../format.js';
import { card } from './cards.js';

const perSecond = (value) => (Number.isFinite(value) ? `${formatDecimal(value)}/s` : '—');

/**
 * The Overview's rate limiting: the verdicts of the HTTP check API, Envoy's rate limit service and
 * the UDP endpoint per second, allowed against denied, and who is denied most — from the overview's
 * `rateLimiting` totals and the rates the history derives from them.
 */
export function createRateLimiting() {
  const figures = {
    verdicts: el('span', { id: 'overview-verdicts' }),
    verdictsDetail: el('span', { id: 'overview-verdicts-detail' }),
    allowed: el('span', { id: 'overview-allowed', className: 'allowed' }),
    allowedDetail: el('span', { id: 'overview-allowed-detail' }),
    denied: el('span', { id: 'overview-denied', className: 'denied' }),
    deniedDetail: el('span', { id: 'overview-denied-detail' }),
    topPolicy: el('span', { id: 'overview-top-policy', className: 'mono', text: '—' }),
    topPolicyDetail: el('span', { id: 'overview-top-policy-detail' }),
    topKey: el('span', { id: 'overview-top-key' }),
  };
  const chart = createLineChart({
    id: 'chart-verdicts', title: 'Rate limiting verdicts', format: perSecond,
    series: [
      { label: 'allowed', tone: 'allowed', value: (s) => s.allowedPerSecond ?? null },
      { label: 'denied', tone: 'denied', value: (s) => s.deniedPerSecond ?? null },
    ],
  });
  const cards = el('section', { id: 'overview-rate-limiting', className: 'cards' },
    card('Verdicts', figures.verdicts, figures.verdictsDetail),
    card('Allowed', figures.allowed, figures.allowedDetail),
    card('Denied', figures.denied, figures.deniedDetail),
    card('Denied most', figures.topPolicy, figures.topPolicyDetail, figures.topKey));

  /** `limiting`: the overview's rateLimiting; `now`: the latest sample (its rates may be null). */
  function show(limiting, now) {
    const ways = ['checks', 'envoy', 'udp'].map((way) => limiting?.[way] ?? { allowed: 0, denied: 0 });
    const allowed = ways.reduce((sum, way) => sum + way.allowed, 0);
    const denied = ways.reduce((sum, way) => sum + way.denied, 0);
    figures.verdicts.textContent = perSecond(sum(now?.checksPerSecond, now?.envoyCallsPerSecond, now?.udpVerdictsPerSecond));
    figures.verdictsDetail.textContent = `HTTP checks ${perSecond(now?.checksPerSecond)} · Envoy calls `
      + `${perSecond(now?.envoyCallsPerSecond)} · UDP verdicts ${perSecond(now?.udpVerdictsPerSecond)}`;
    figures.allowed.textContent = perSecond(now?.allowedPerSecond);
    figures.allowedDetail.textContent = `${formatNumber(allowed)} since start`;
    figures.denied.textContent = perSecond(now?.deniedPerSecond);
    const share = allowed + denied > 0 ? ` · ${formatDecimal((100 * denied) / (allowed + denied))} % of all` : '';
    figures.deniedDetail.textContent = `${formatNumber(denied)} since start${share}`;
    showTop(limiting?.topDeniedPolicy, limiting?.topDeniedKey);
  }

  function showTop(policy, key) {
    if (!policy) {
      figures.topPolicy.replaceChildren('—');
      figures.topPolicyDetail.textContent = 'nothing denied yet';
    } else {
      const view = policy.kind === 'envoy' ? '#/rate-limits' : '#/limits';
      figures.topPolicy.replaceChildren(el('a', { href: view, text: policy.name }));
      figures.topPolicyDetail.textContent = policy.kind === 'envoy'
        ? `Envoy descriptor · ${formatNumber(policy.denied)} hits over the limit`
        : `HTTP check policy · ${formatNumber(policy.denied)} denied`;
    }
    figures.topKey.replaceChildren(...(key ? ['key ', el('a', {
      className: 'mono', href: `#/keys/${encodeURIComponent(`rl:${key.policy}:${key.key}`)}`, text: key.key,
    }), ` of ${key.policy} · ${formatNumber(key.denied)} denied`] : []));
  }

  return { cards, chart, show };
}

/** The sum, or NaN while any part is unknown. */
function sum(...values) {
  return values.every(Number.isFinite) ? values.reduce((total, value) => total + value, 0) : NaN;
}

import { get } from './api.js';
import { onOverview } from './feed.js';

// The charts show the last hour: the server keeps it at 10 s steps (GET /api/history), so a reload
// starts with the whole hour; the live stream then adds a sample every second.
const WINDOW_MS = 3_600_000;
const samples = [];
let previous = null;
const listeners = new Set();

/** Starts recording; called once at boot so the charts have history when a view opens. */
export function startHistory() {
  onOverview(record);
  get('/api/history', null)
    .then((history) => seed(history?.samples ?? []))
    .catch(() => {}); // the live samples still come; the 401 case shows the login anyway
}

/**
 * Oldest first: {t, connections, keys, requestsPerSecond (every kind), bytesInPerSecond, bytesOutPerSecond,
 * udpOverLimitPerSecond, udpUnderLimitPerSecond, checksPerSecond, envoyCallsPerSecond, udpVerdictsPerSecond,
 * allowedPerSecond, deniedPerSecond (all three ways), policies: {name: {allowedPerSecond, deniedPerSecond}},
 * envoyDomains: {domain: {hitsPerSecond, overLimitPerSecond}}}.
 */
export function recentSamples() {
  return samples;
}

/** Calls `listener` when the server's history has been loaded, until `signal` aborts. */
export function onHistoryLoaded(listener, signal) {
  listeners.add(listener);
  signal?.addEventListener('abort', () => listeners.delete(listener), { once: true });
}

/** The server's samples go before the live ones, up to the first live sample. */
function seed(serverSamples) {
  const firstLive = samples.length ? samples[0].t : Infinity;
  const older = serverSamples.filter((sample) => sample.t < firstLive);
  samples.unshift(...older);
  trim();
  for (const listener of [...listeners]) listener();
}

function record(overview) {
  const t = Date.now();
  const limits = overview.limits ?? {};
  const envoyDomains = overview.rateLimiting?.envoyDomains ?? {};
  const policies = pairRates(limits.policies, previous?.policies, t,
    { allowed: 'allowedPerSecond', denied: 'deniedPerSecond' });
  const verdicts = verdictTotals(overview.rateLimiting);
  const sample = {
    t,
    connections: overview.connections,
    keys: overview.keys?.total,
    heapUsed: overview.memory?.heapUsedBytes,
    requestsPerSecond: rate(overview.requests?.all, previous?.requests, t),
    bytesInPerSecond: rate(overview.bytes?.read, previous?.read, t),
    bytesOutPerSecond: rate(overview.bytes?.written, previous?.written, t),
    udpOverLimitPerSecond: rate(limits.udp?.overLimit, previous?.udp?.overLimit, t),
    udpUnderLimitPerSecond: rate(limits.udp?.underLimit, previous?.udp?.underLimit, t),
    checksPerSecond: rate(verdicts.checks, previous?.verdicts?.checks, t),
    envoyCallsPerSecond: rate(verdicts.envoy, previous?.verdicts?.envoy, t),
    udpVerdictsPerSecond: rate(verdicts.udp, previous?.verdicts?.udp, t),
    allowedPerSecond: rate(verdicts.allowed, previous?.verdicts?.allowed, t),
    deniedPerSecond: rate(verdicts.denied, previous?.verdicts?.denied, t),
    policies,
    envoyDomains: pairRates(envoyDomains, previous?.envoyDomains, t,
      { hits: 'hitsPerSecond', overLimit: 'overLimitPerSecond' }),
  };
  previous = {
    t, requests: overview.requests?.all, read: overview.bytes?.read, written: overview.bytes?.written,
    udp: limits.udp, policies: limits.policies, verdicts, envoyDomains,
  };
  samples.push(sample);
  trim();
}

/** Per name, the rate of each total: `fields` maps a total's name to its rate's ({allowed: 'allowedPerSecond'}). */
function pairRates(totalsByName, beforeByName, t, fields) {
  const rates = {};
  for (const [name, totals] of Object.entries(totalsByName ?? {})) {
    rates[name] = {};
    for (const [total, perSecond] of Object.entries(fields)) {
      rates[name][perSecond] = rate(totals[total], beforeByName?.[name]?.[total], t);
    }
  }
  return rates;
}

/** The overview's rateLimiting as running totals: per way asked, and allowed and denied over all three. */
function verdictTotals(rateLimiting) {
  const ways = ['checks', 'envoy', 'udp'].map((way) => rateLimiting?.[way] ?? {});
  const sum = (values) => values.reduce((total, value) => total + value, 0);
  const [checks, envoy, udp] = ways.map((way) => way.allowed + way.denied);
  return { checks, envoy, udp, allowed: sum(ways.map((way) => way.allowed)), denied: sum(ways.map((way) => way.denied)) };
}

function trim() {
  const oldest = (samples.length ? samples[samples.length - 1].t : Date.now()) - WINDOW_MS;
  const drop = samples.findIndex((sample) => sample.t >= oldest);
  if (drop > 0) samples.splice(0, drop);
}

/** Per second since the previous push; null for the first one and after a restart (totals shrank). */
function rate(total, before, t) {
  if (!previous || !Number.isFinite(total) || !Number.isFinite(before)) return null;
  const seconds = (t - previous.t) / 1000;
  if (seconds <= 0 || total < before) return null;
  return (total - before) / seconds;
}

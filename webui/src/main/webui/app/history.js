import { onOverview } from './feed.js';

// Two minutes at one push per second.
const CAPACITY = 120;
const samples = [];
let previous = null;

/** Starts recording; called once at boot so the charts have history when the overview opens. */
export function startHistory() {
  onOverview(record);
}

/** Oldest first: {t, connections, keys, heapUsed, requestsPerSecond, bytesInPerSecond, bytesOutPerSecond}. */
export function recentSamples() {
  return samples;
}

function record(overview) {
  const t = Date.now();
  const sample = {
    t,
    connections: overview.connections,
    keys: overview.keys?.total,
    heapUsed: overview.memory?.heapUsedBytes,
    requestsPerSecond: rate(overview.requests?.total, previous?.requests, t),
    bytesInPerSecond: rate(overview.bytes?.read, previous?.read, t),
    bytesOutPerSecond: rate(overview.bytes?.written, previous?.written, t),
  };
  previous = { t, requests: overview.requests?.total, read: overview.bytes?.read, written: overview.bytes?.written };
  samples.push(sample);
  if (samples.length > CAPACITY) samples.splice(0, samples.length - CAPACITY);
}

/** Per second since the previous push; null for the first one and after a restart (totals shrank). */
function rate(total, before, t) {
  if (!previous || !Number.isFinite(total) || !Number.isFinite(before)) return null;
  const seconds = (t - previous.t) / 1000;
  if (seconds <= 0 || total < before) return null;
  return (total - before) / seconds;
}

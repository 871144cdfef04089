import { get, isAbort } from '../api.js';
import { createLineChart } from '../chart.js';
import { countElement, el, notice, showCount, viewHeader } from '../dom.js';
import { latestOverview, onOverview } from '../feed.js';
import { formatBytes, formatDecimal, formatDuration, formatNumber, formatTime } from '../format.js';
import { recentSamples } from '../history.js';
import { createTable } from '../table.js';
import { card, panel } from './cards.js';
import { createRateLimiting } from './overview-limiting.js';

/** Above this many shards (a cluster node hosts hundreds of partitions) the table waits behind a toggle. */
const SHARDS_SHOWN_OPEN = 8;

const perSecond = (format) => (value) => (Number.isFinite(value) ? `${format(value)}/s` : '—');

export function mount(root, { signal }) {
  const started = el('span', { className: 'muted' });
  const cards = {
    version: el('span', { id: 'overview-version', className: 'mono' }),
    uptime: el('span', { className: 'muted' }),
    connections: countElement({ id: 'overview-connections' }),
    connectionsDetail: el('span'),
    keys: countElement({ id: 'overview-keys' }),
    keysDetail: el('span'),
    channels: countElement({ id: 'overview-channels' }),
    channelsDetail: el('span'),
    requests: el('span', { id: 'overview-requests' }),
    requestsDetail: el('span', { id: 'overview-requests-detail' }),
    bytesIn: el('span', { id: 'overview-bytes-in' }),
    bytesInDetail: el('span'),
    bytesOut: el('span', { id: 'overview-bytes-out' }),
    bytesOutDetail: el('span'),
    heap: el('span', { id: 'overview-heap' }),
    heapDetail: el('span'),
    heapBar: el('span', { className: 'meter-fill' }),
    bound: el('span', { id: 'overview-bound' }),
    boundDetail: el('span', { id: 'overview-bound-detail' }),
    boundEvictions: el('span', { id: 'overview-bound-evictions' }),
    boundBar: el('span', { className: 'meter-fill' }),
    persistence: el('span', { id: 'overview-persistence' }),
    persistenceDetail: el('span', { id: 'overview-persistence-detail' }),
  };

  const limiting = createRateLimiting();
  const charts = [
    limiting.chart,
    createLineChart({ id: 'chart-requests', title: 'Requests', format: perSecond(formatDecimal),
      series: [{ label: 'requests', value: (s) => s.requestsPerSecond }] }),
    createLineChart({ id: 'chart-connections', title: 'Connections', integer: true, format: formatNumber,
      series: [{ label: 'open', value: (s) => s.connections }] }),
    createLineChart({ id: 'chart-keys', title: 'Keys', integer: true, format: formatNumber,
      series: [{ label: 'live', value: (s) => s.keys }] }),
    createLineChart({ id: 'chart-bytes', title: 'Traffic', format: perSecond(formatBytes), unitBase: 1024,
      series: [{ label: 'in', value: (s) => s.bytesInPerSecond }, { label: 'out', value: (s) => s.bytesOutPerSecond }] }),
  ];
  signal.addEventListener('abort', () => charts.forEach((chart) => chart.destroy()));

  let busiestCommand = 1;
  const commands = createTable({
    id: 'overview-commands',
    compact: true,
    columns: [
      { title: 'Command', className: 'mono', cell: (row) => row.command },
      { title: 'Share', className: 'share', cell: (row) => shareBar(row.total / busiestCommand) },
      { title: 'Total', className: 'num', cell: (row) => formatNumber(row.total) },
      { title: 'Last minute', className: 'num', cell: (row) => formatNumber(row.perMinute) },
    ],
    rowClass: (row) => (row.total === 0 ? 'idle' : null),
  });
  const shards = createTable({
    id: 'overview-shards',
    compact: true,
    columns: [
      { title: 'Shard', className: 'num', cell: (row) => String(row.shard) },
      { title: 'Keys', className: 'num', cell: (row) => formatNumber(row.keys) },
      { title: 'Memory', className: 'num', cell: (row) => formatBytes(row.memoryBytes) },
    ],
  });
  const shardSummary = el('summary', { id: 'overview-shards-summary' });
  const shardDetails = el('details', { className: 'shard-details' }, shardSummary, shards.element);
  const status = el('div');

  root.append(
    viewHeader('Overview', { subtitle: started }),
    status,
    limiting.cards,
    el('section', { className: 'cards' },
      card('Version', cards.version, cards.uptime),
      card('Connections', cards.connections, cards.connectionsDetail),
      card('Keys', cards.keys, cards.keysDetail),
      card('Requests', cards.requests, cards.requestsDetail),
      // What the connections carried: Throttr frames and WebSocket messages, not HTTP nor UDP.
      card('Bytes in', cards.bytesIn, cards.bytesInDetail, el('span', { className: 'muted', text: 'from TCP and WebSocket clients' })),
      card('Bytes out', cards.bytesOut, cards.bytesOutDetail, el('span', { className: 'muted', text: 'to TCP and WebSocket clients' })),
      card('Heap', cards.heap, cards.heapDetail, el('span', { className: 'meter' }, cards.heapBar)),
      card('Record memory', cards.bound, cards.boundDetail, el('span', { className: 'meter' }, cards.boundBar),
        cards.boundEvictions),
      card('Channels', cards.channels, cards.channelsDetail),
      card('Persistence', cards.persistence, cards.persistenceDetail)),
    el('section', { className: 'charts' }, charts.map((chart) => chart.element)),
    el('section', { className: 'split' },
      panel('Requests by command', commands.element),
      panel('Keys by shard', shardDetails)));

  function show(overview) {
    status.replaceChildren();
    cards.version.textContent = overview.version ?? '—';
    cards.uptime.textContent = `up ${formatDuration((overview.uptimeSeconds ?? NaN) * 1000)}`;
    started.textContent = Number.isFinite(overview.startedAtMillis) ? `started ${formatTime(overview.startedAtMillis)}` : '';
    showCount(cards.connections, overview.connections);
    cards.connectionsDetail.textContent = `TCP and WebSocket, open now · ${formatNumber(overview.udpPeers ?? 0)} UDP peers lately`;

    const keys = overview.keys ?? {};
    showCount(cards.keys, keys.total);
    cards.keysDetail.textContent = `${formatNumber(keys.counters)} counters (${formatBytes(keys.counterBytes)}) · `
      + `${formatNumber(keys.buffers)} buffers (${formatBytes(keys.bufferBytes)})`;

    // Every kind of request: Throttr commands over TCP and WebSocket, HTTP checks, Envoy calls, UDP verdicts.
    const requests = overview.requests ?? {};
    const now = latestSample();
    cards.requests.textContent = perSecond(formatDecimal)(now?.requestsPerSecond);
    cards.requestsDetail.textContent = `${formatNumber(requests.all)} since start: Throttr, HTTP checks, Envoy, UDP`;
    limiting.show(overview.rateLimiting, now);

    // Both figures over the same last minute: the totals of open connections alone would drop as they close.
    const bytes = overview.bytes ?? {};
    cards.bytesIn.textContent = perSecond(formatBytes)(bytes.readPerMinute / 60);
    cards.bytesInDetail.textContent = `${formatBytes(bytes.readPerMinute)} in the last minute`;
    cards.bytesOut.textContent = perSecond(formatBytes)(bytes.writtenPerMinute / 60);
    cards.bytesOutDetail.textContent = `${formatBytes(bytes.writtenPerMinute)} in the last minute`;

    const memory = overview.memory ?? {};
    cards.heap.textContent = formatBytes(memory.heapUsedBytes);
    cards.heapDetail.textContent = `of ${formatBytes(memory.heapMaxBytes)} max · ${formatBytes(memory.heapCommittedBytes)} committed`;
    const used = memory.heapMaxBytes > 0 ? Math.min(100, (100 * memory.heapUsedBytes) / memory.heapMaxBytes) : 0;
    cards.heapBar.style.width = `${used.toFixed(1)}%`;

    showBound(overview.bound ?? {}, keys.total);

    const channels = overview.channels ?? {};
    showCount(cards.channels, channels.channels);
    cards.channelsDetail.textContent = `${formatNumber(channels.subscriptions)} subscriptions`
      + (overview.pushesDropped > 0 ? ` · ${formatNumber(overview.pushesDropped)} pushes dropped` : '');

    showPersistence(overview.persistence ?? {});

    const byCommand = requests.byCommand ?? [];
    busiestCommand = Math.max(1, ...byCommand.map((row) => row.total));
    commands.setItems(byCommand);
    showShards(overview.shards ?? []);
  }

  // A few shards are listed; a cluster node's hundreds of partitions are summed up, the table a click away.
  function showShards(rows) {
    shards.setItems(rows);
    const keys = rows.reduce((sum, row) => sum + row.keys, 0);
    const busiest = rows.reduce((top, row) => (top && top.keys >= row.keys ? top : row), null);
    shardSummary.textContent = `${formatNumber(rows.length)} ${rows.length === 1 ? 'shard' : 'shards'}`
      + ` · ${formatNumber(keys)} keys` + (busiest ? ` · most in shard ${busiest.shard} (${formatNumber(busiest.keys)})` : '');
    // Until the operator opens or closes it, the table's openness follows the count.
    if (!shardDetails.dataset.toggled) shardDetails.open = rows.length <= SHARDS_SHOWN_OPEN;
  }
  shardSummary.addEventListener('click', () => { shardDetails.dataset.toggled = 'true'; });

  // Keys and record memory against --max-keys and --max-memory; the meter shows the fuller of the two.
  function showBound(bound, keys) {
    cards.bound.textContent = formatBytes(bound.recordMemoryBytes);
    const memoryLimit = bound.maxMemoryBytes == null ? 'no memory limit' : `of ${formatBytes(bound.maxMemoryBytes)} max`;
    const keysLimit = bound.maxKeys == null ? `${formatNumber(keys)} keys, no key limit`
      : `${formatNumber(keys)} of ${formatNumber(bound.maxKeys)} keys max`;
    cards.boundDetail.textContent = `${memoryLimit} · ${keysLimit}`;
    const evicted = Object.values(bound.evicted ?? {}).reduce((sum, n) => sum + n, 0);
    cards.boundEvictions.textContent = `when full: ${bound.eviction ?? '—'} · ${formatNumber(evicted)} evicted · `
      + `${formatNumber(bound.rejected)} refused`;
    const fractions = [
      bound.maxMemoryBytes > 0 ? bound.recordMemoryBytes / bound.maxMemoryBytes : 0,
      bound.maxKeys > 0 ? keys / bound.maxKeys : 0,
    ];
    cards.boundBar.style.width = `${Math.min(100, 100 * Math.max(...fractions)).toFixed(1)}%`;
  }

  function showPersistence(persistence) {
    if (!persistence.enabled) {
      cards.persistence.textContent = 'off';
      cards.persistenceDetail.textContent = 'in memory only (--data-dir)';
      return;
    }
    cards.persistence.textContent = persistence.failing ? 'write failed' : `on · fsync ${persistence.fsync}`;
    cards.persistence.classList.toggle('error', persistence.failing);
    const snapshot = persistence.lastSnapshotAtMillis > 0
      ? `snapshot ${formatTime(persistence.lastSnapshotAtMillis)} (${formatDuration(persistence.lastSnapshotMillis)})`
      : 'no snapshot yet';
    cards.persistenceDetail.textContent = `${snapshot} · log ${formatBytes(persistence.logBytes)}`
      + ` · fsync lag ${formatDuration(persistence.fsyncLagMillis)}`
      + (persistence.errors > 0 ? ` · ${formatNumber(persistence.errors)} errors` : '');
    if (persistence.failing) {
      status.replaceChildren(notice(`Persistence: ${persistence.error} — requests are still answered, /ready is 503`, 'error'));
    }
  }

  function drawCharts() {
    const samples = recentSamples();
    charts.forEach((chart) => chart.render(samples));
  }

  function latestSample() {
    const samples = recentSamples();
    return samples[samples.length - 1];
  }

  onOverview((overview) => {
    show(overview);
    drawCharts();
  }, signal);
  drawCharts();

  const latest = latestOverview();
  if (latest) {
    show(latest);
  } else {
    // The stream sends an overview at once; this only fills the page if the stream is slow or down.
    get('/api/overview', null, signal)
      .then((overview) => { if (!latestOverview()) show(overview); })
      .catch((error) => {
        if (!isAbort(error) && error.status !== 401) status.replaceChildren(notice(error.message, 'error'));
      });
  }
}

function shareBar(fraction) {
  const bar = el('span', { className: 'share-bar' });
  bar.style.width = `${(100 * fraction).toFixed(1)}%`;
  return bar;
}

import { el, svg } from './dom.js';

const HEIGHT = 168;
const PAD = { top: 12, right: 14, bottom: 22, left: 64 };
const TARGET_TICKS = 4;

/**
 * An SVG line chart of recent samples, newest at the right edge. `series`: [{label, value(sample)}],
 * values may be null (a gap); `integer` keeps the y ticks whole; the x axis spans `windowMs` (an hour by default); `unitBase` 1024 steps them in KiB, MiB…. Samples are {t, …} in milliseconds; the x axis spans `windowMs`.
 * Colours come from the stylesheet (.series-0, .series-1, …); a line with a `tone` ('allowed' or
 * 'denied') takes that tone's colour instead, so every chart of verdicts reads the same way.
 */
export function createLineChart({ id, title, series, format = String, integer = false, unitBase = null, windowMs = 3_600_000 }) {
  const latestValues = series.map(() => el('span', { className: 'legend-value', text: '—' }));
  const legend = el('ul', { className: 'chart-legend' }, series.map((line, index) =>
    el('li', {}, el('span', { className: `swatch ${seriesClass(line, index)}`, 'aria-hidden': 'true' }), line.label, latestValues[index])));
  const plot = svg('svg', { class: 'chart-plot', height: HEIGHT, role: 'img', 'aria-label': title });
  const element = el('figure', { id, className: 'card chart' },
    el('figcaption', {}, el('span', { className: 'chart-title', text: title }), legend), plot);

  let samples = [];
  const resizeObserver = new ResizeObserver(() => draw());
  resizeObserver.observe(plot);

  function render(nextSamples) {
    samples = nextSamples;
    draw();
  }

  function draw() {
    const width = Math.max(200, plot.clientWidth || 600);
    plot.setAttribute('viewBox', `0 0 ${width} ${HEIGHT}`);
    const end = samples.length ? samples[samples.length - 1].t : Date.now();
    const start = end - windowMs;
    const visible = samples.filter((sample) => sample.t >= start);
    const max = Math.max(0, ...visible.flatMap((sample) => series.map((line) => line.value(sample) ?? 0)));
    const { top, interval } = yScale(max, integer, unitBase);
    const x = (t) => PAD.left + ((t - start) / windowMs) * (width - PAD.left - PAD.right);
    const y = (value) => PAD.top + (1 - value / top) * (HEIGHT - PAD.top - PAD.bottom);

    const grid = [];
    for (let tick = 0; tick * interval <= top + interval / 2; tick += 1) {
      const value = tick * interval;
      grid.push(svg('line', { class: 'grid', x1: PAD.left, x2: width - PAD.right, y1: y(value), y2: y(value) }));
      grid.push(svg('text', { class: 'axis-label', x: PAD.left - 8, y: y(value), 'text-anchor': 'end', 'dominant-baseline': 'middle' },
        document.createTextNode(format(value))));
    }
    for (const [fraction, label] of [[0, `−${spanLabel(windowMs)}`], [0.5, `−${spanLabel(windowMs / 2)}`], [1, 'now']]) {
      grid.push(svg('text', { class: 'axis-label', x: x(start + fraction * windowMs), y: HEIGHT - 6,
        'text-anchor': fraction === 0 ? 'start' : fraction === 1 ? 'end' : 'middle' }, document.createTextNode(label)));
    }
    const lines = series.map((line, index) =>
      svg('path', { class: `line ${seriesClass(line, index)}`, d: pathOf(visible, line.value, x, y) }));
    plot.replaceChildren(...grid, ...lines);

    series.forEach((line, index) => {
      const last = [...visible].reverse().find((sample) => line.value(sample) !== null && line.value(sample) !== undefined);
      latestValues[index].textContent = last ? format(line.value(last)) : '—';
    });
  }

  return { element, render, destroy: () => resizeObserver.disconnect() };
}

function seriesClass(line, index) {
  return line.tone ? `series-${line.tone}` : `series-${index}`;
}

/** "60 min", "30 s": the span of the x axis in its natural unit. */
function spanLabel(ms) {
  return ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

/** "M x y L x y …", starting a new stroke after every missing value. */
function pathOf(samples, value, x, y) {
  let d = '';
  let pen = 'M';
  for (const sample of samples) {
    const v = value(sample);
    if (v === null || v === undefined || !Number.isFinite(v)) {
      pen = 'M';
      continue;
    }
    d += `${pen}${x(sample.t).toFixed(1)} ${y(v).toFixed(1)} `;
    pen = 'L';
  }
  return d.trim() || 'M0 0';
}

/** A round tick interval (1, 2 or 5 × 10ⁿ, of unitBaseᵏ) giving about four ticks, and the top tick at or above `max`. */
function yScale(max, integer, unitBase) {
  const rough = max > 0 ? max / TARGET_TICKS : 0.25;
  const unit = unitBase ? unitBase ** Math.max(0, Math.floor(Math.log(rough) / Math.log(unitBase))) : 1;
  const magnitude = 10 ** Math.floor(Math.log10(rough / unit));
  const fraction = rough / unit / magnitude;
  let interval = (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * magnitude * unit;
  if (integer) interval = Math.max(1, Math.round(interval));
  return { top: Math.max(interval, Math.ceil(max / interval) * interval), interval };
}

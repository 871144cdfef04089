// Display formats. Thousands are grouped with a narrow no-break space (as in SI), which never wraps.
const GROUP_SEPARATOR = '\u202F';
const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
const DURATION_UNITS = [[86_400_000, 'd'], [3_600_000, 'h'], [60_000, 'min'], [1_000, 's']];

/** The digits of an integer in groups of three, most significant first: 1234567 → ['1', '234', '567']. */
export function digitGroups(value) {
  const digits = String(Math.round(Math.abs(value)));
  const groups = [];
  for (let end = digits.length; end > 0; end -= 3) {
    groups.unshift(digits.slice(Math.max(0, end - 3), end));
  }
  return groups;
}

export function formatNumber(value) {
  if (!Number.isFinite(value)) return '—';
  return (value < 0 ? '−' : '') + digitGroups(value).join(GROUP_SEPARATOR);
}

/** One decimal below 100 so small rates stay readable (2.5/s), whole numbers above. */
export function formatDecimal(value) {
  if (!Number.isFinite(value)) return '—';
  if (Math.abs(value) >= 100 || Number.isInteger(value)) return formatNumber(value);
  return value.toFixed(1);
}

export function formatBytes(bytes) {
  if (!Number.isFinite(bytes)) return '—';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const sign = bytes < 0 ? '−' : '';
  if (unit === 0) return `${sign}${formatNumber(value)} B`;
  return `${sign}${value >= 100 ? formatNumber(value) : value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

/** The two largest units: "850 ms", "59 s", "4 min 5 s", "2 h 3 min", "3 d 4 h". */
export function formatDuration(millis) {
  if (!Number.isFinite(millis)) return '—';
  const sign = millis < 0 ? '−' : '';
  let rest = Math.abs(millis);
  if (rest < 1000) return `${sign}${Math.round(rest)} ms`;
  const parts = [];
  for (const [size, unit] of DURATION_UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || parts.length > 0) parts.push(count > 0 ? `${count} ${unit}` : null);
    if (parts.length === 2) break;
  }
  return sign + parts.filter(Boolean).join(' ');
}

export function formatAge(sinceMillis, now = Date.now()) {
  if (!Number.isFinite(sinceMillis)) return '—';
  return `${formatDuration(Math.max(0, now - sinceMillis))} ago`;
}

/** Local date and time with the zone: "2026-11-24 05:31:15 UTC", never ambiguous. */
export function formatTime(millis) {
  if (!Number.isFinite(millis)) return '—';
  const date = new Date(millis);
  const time = [date.getHours(), date.getMinutes(), date.getSeconds()].map(pad).join(':');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time} ${zoneOf(date)}`;
}

/** The browser's short name of the zone at that date ("UTC", "CET", "GMT+2"). */
function zoneOf(date) {
  const part = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' }).formatToParts(date)
    .find((piece) => piece.type === 'timeZoneName');
  return part ? part.value : '';
}

export function formatAddress(address, port) {
  if (!address) return '—';
  const host = address.includes(':') ? `[${address}]` : address;
  return port === undefined || port === null ? host : `${host}:${port}`;
}

function pad(value) {
  return String(value).padStart(2, '0');
}

// Server-Sent Events over fetch: EventSource cannot send the Authorization header.
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 15_000;
// The server pushes every second; this long without a byte means a dead connection that TCP has
// not noticed yet (a sleeping laptop, a proxy that dropped it).
const SILENCE_LIMIT_MS = 10_000;

/**
 * Reads `url` as an event stream until `close()`: `onEvent(name, data)` per event, `onStatus(state,
 * detail)` with "connecting", "live" or "retrying" (detail: the delay in ms), and `onUnauthorized()`
 * on 401, after which the stream stops.
 */
export function openEventStream({ url, headers = () => ({}), onEvent, onStatus = () => {}, onUnauthorized = () => {} }) {
  let controller = null;
  let retryTimer = null;
  let silenceTimer = null;
  let failures = 0;
  let closed = false;

  async function connect() {
    controller = new AbortController();
    const attempt = controller;
    onStatus('connecting');
    try {
      const response = await fetch(url, {
        headers: { Accept: 'text/event-stream', ...headers() },
        cache: 'no-store',
        signal: attempt.signal,
      });
      if (response.status === 401) {
        closed = true;
        onStatus('stopped');
        onUnauthorized();
        return;
      }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      await read(response.body, attempt);
    } catch {
      // Network errors and our own aborts end up here alike; both mean: try again unless closed.
    }
    clearTimeout(silenceTimer);
    if (!closed) scheduleRetry();
  }

  async function read(body, attempt) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parse = createEventParser((name, data) => {
      failures = 0;
      onEvent(name, data);
    });
    let announced = false;
    armSilenceTimer(attempt);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      armSilenceTimer(attempt);
      if (!announced) {
        announced = true;
        onStatus('live');
      }
      parse(decoder.decode(value, { stream: true }));
    }
  }

  function armSilenceTimer(attempt) {
    clearTimeout(silenceTimer);
    silenceTimer = setTimeout(() => attempt.abort(), SILENCE_LIMIT_MS);
  }

  function scheduleRetry() {
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures) * (0.8 + Math.random() * 0.4);
    failures += 1;
    onStatus('retrying', delay);
    retryTimer = setTimeout(connect, delay);
  }

  connect();

  return {
    close() {
      closed = true;
      clearTimeout(retryTimer);
      clearTimeout(silenceTimer);
      controller?.abort();
      onStatus('stopped');
    },
  };
}

/**
 * Splits a text/event-stream into events. Feed it decoded chunks in order; it calls
 * `onEvent(name, data)` for each complete block ("message" when the block names no event).
 */
export function createEventParser(onEvent) {
  let buffer = '';
  return (chunk) => {
    // Normalise line ends, but keep a trailing "\r": its "\n" may come with the next chunk.
    buffer = (buffer + chunk).replace(/\r\n|\r(?!$)/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      dispatch(block, onEvent);
    }
  };
}

function dispatch(block, onEvent) {
  let name = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length > 0) onEvent(name, data.join('\n'));
}

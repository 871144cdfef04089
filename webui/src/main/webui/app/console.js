import { el } from './dom.js';
import { formatTime } from './format.js';
import { readToken } from './token.js';

const LOG_LIMIT = 500;
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 15_000;

/**
 * The channels live console: one WebSocket to the bridge at /ws for as long as `signal` lives,
 * reconnecting (and re-subscribing) when it drops. Commands typed while it is connecting are sent
 * once it is open.
 */
export function createChannelConsole({ signal }) {
  const status = el('span', { id: 'console-status', className: 'console-status', text: 'disconnected' });
  const channel = el('input', { id: 'console-channel', type: 'text', className: 'mono', placeholder: 'channel', autocomplete: 'off', spellcheck: 'false', 'aria-label': 'Channel' });
  const message = el('input', { id: 'console-message', type: 'text', placeholder: 'message', autocomplete: 'off', spellcheck: 'false', 'aria-label': 'Message' });
  const log = el('ul', { id: 'console-log', className: 'console-log', 'aria-live': 'polite' });

  const subscribed = new Set();
  const outbox = [];
  let socket = null;
  let retryTimer = null;
  let failures = 0;

  const channelName = () => channel.value;
  const subscribe = () => channelName() && send({ op: 'subscribe', channel: channelName() });
  const unsubscribe = () => channelName() && send({ op: 'unsubscribe', channel: channelName() });
  const publish = () => {
    if (!channelName()) return;
    send({ op: 'publish', channel: channelName(), data: message.value });
    message.value = '';
    message.focus();
  };
  channel.addEventListener('keydown', (event) => { if (event.key === 'Enter') subscribe(); });
  message.addEventListener('keydown', (event) => { if (event.key === 'Enter') publish(); });

  const element = el('section', { className: 'card console' },
    el('div', { className: 'console-head' },
      el('h2', { text: 'Live console' }),
      status,
      el('button', { type: 'button', className: 'button subtle', text: 'Clear', onclick: () => log.replaceChildren() })),
    el('div', { className: 'console-controls' },
      channel,
      el('button', { id: 'console-subscribe', type: 'button', className: 'button', text: 'Subscribe', onclick: subscribe }),
      el('button', { id: 'console-unsubscribe', type: 'button', className: 'button', text: 'Unsubscribe', onclick: unsubscribe })),
    el('div', { className: 'console-controls' },
      message,
      el('button', { id: 'console-publish', type: 'button', className: 'button primary', text: 'Publish', onclick: publish })),
    log);

  function connect() {
    const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
    const current = new WebSocket(url);
    socket = current;
    current.addEventListener('open', () => {
      failures = 0;
      setStatus(true);
      const token = readToken();
      // The token goes first: until it is accepted the bridge answers every other op with an error.
      if (token) current.send(JSON.stringify({ op: 'auth', token }));
      for (const name of subscribed) current.send(JSON.stringify({ op: 'subscribe', channel: name }));
      while (outbox.length > 0) transmit(outbox.shift());
    });
    current.addEventListener('message', (event) => receive(event.data));
    current.addEventListener('close', () => {
      if (socket !== current) return;
      setStatus(false);
      if (signal.aborted) return;
      const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures);
      failures += 1;
      entry('info', `disconnected, retrying in ${Math.round(delay / 1000)} s`);
      retryTimer = setTimeout(connect, delay);
    });
  }

  function send(command) {
    if (socket?.readyState === WebSocket.OPEN) transmit(command);
    else outbox.push(command);
  }

  function transmit(command) {
    socket.send(JSON.stringify(command));
    entry('sent', `→ ${command.op} ${command.channel}${command.op === 'publish' ? `: ${command.data}` : ''}`);
  }

  function receive(data) {
    if (typeof data !== 'string') return;
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      entry('error', `unreadable frame: ${data}`);
      return;
    }
    if (frame.event === 'message') {
      const text = frame.encoding === 'base64' ? `${frame.data} (base64)` : String(frame.data ?? '');
      entry('message', el('span', { className: 'log-channel mono', text: frame.channel }), el('span', { className: 'log-data', text }));
    } else if (frame.event === 'ack') {
      acknowledge(frame);
    } else if (frame.event === 'error') {
      entry('error', `error: ${frame.reason ?? 'unknown'}`);
    } else {
      entry('info', data);
    }
  }

  function acknowledge({ op, channel: name, status: code }) {
    if (op === 'subscribe' && code === 1) subscribed.add(name);
    if (op === 'unsubscribe') subscribed.delete(name);
    const meaning = code === 1 ? 'ok'
      : op === 'publish' ? 'nobody subscribed'
        : op === 'unsubscribe' ? 'was not subscribed'
          : op === 'auth' ? 'token refused' : 'failed';
    entry(code === 1 ? 'ack' : 'ack refused', `${code === 1 ? '✓' : '✗'} ${op}${name ? ` ${name}` : ''}: ${meaning}`);
  }

  function entry(kind, ...content) {
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    // Spaces between the parts so copied log lines read well.
    log.append(el('li', { className: kind }, el('time', { className: 'log-time', text: formatTime(Date.now()) }),
      ...content.flatMap((part) => [' ', part])));
    while (log.childElementCount > LOG_LIMIT) log.firstElementChild.remove();
    if (atBottom) log.scrollTop = log.scrollHeight;
  }

  function setStatus(connected) {
    status.textContent = connected ? 'connected' : 'disconnected';
    status.classList.toggle('on', connected);
  }

  signal.addEventListener('abort', () => {
    clearTimeout(retryTimer);
    const current = socket;
    socket = null;
    current?.close(1000, 'page left');
  }, { once: true });
  connect();

  return element;
}

// The latest pushed overview and who wants to hear of the next one. Views subscribe with their
// mount signal, so leaving a view unsubscribes it.
const listeners = new Set();
let latest = null;

export function publishOverview(overview) {
  latest = overview;
  for (const listener of [...listeners]) {
    try {
      listener(overview);
    } catch (error) {
      // One broken listener must not stop the others, nor the stream that feeds them.
      reportError(error);
    }
  }
}

export function latestOverview() {
  return latest;
}

export function onOverview(listener, signal) {
  listeners.add(listener);
  signal?.addEventListener('abort', () => listeners.delete(listener), { once: true });
}

/**
 * Calls `listener` when `select(overview)` differs from its value at the previous push (or at
 * subscription time): how list views learn that what they show has changed without polling.
 */
export function watchOverview(select, listener, signal) {
  let previous = latest ? select(latest) : undefined;
  onOverview((overview) => {
    const current = select(overview);
    const changed = previous !== undefined && current !== previous;
    previous = current;
    if (changed) listener(overview);
  }, signal);
}

import { readToken } from './token.js';

/** An answer of the API that is not 2xx; `message` is the API's own error text. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

let unauthorizedHandler = () => {};

/** Called whenever the API refuses the stored token (or its absence) with 401. */
export function onUnauthorized(handler) {
  unauthorizedHandler = handler;
}

export function authHeaders(token = readToken()) {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

export function isAbort(error) {
  return error?.name === 'AbortError';
}

/**
 * One JSON call. `token` overrides the stored token; a 401 with an explicit token is left to the
 * caller (the login form checks a candidate token that way), any other 401 shows the login.
 */
export async function request(method, path, { query, body, signal, token } = {}) {
  const headers = { Accept: 'application/json', ...authHeaders(token === undefined ? readToken() : token) };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(withQuery(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(0, 'Sluice cannot be reached.');
  }
  const payload = await readJson(response);
  if (response.ok) {
    return payload;
  }
  const message = typeof payload?.error === 'string' && payload.error
    ? payload.error
    : `${response.status} ${response.statusText}`.trim();
  if (response.status === 401 && token === undefined) {
    unauthorizedHandler(message);
  }
  throw new ApiError(response.status, message);
}

export const get = (path, query, signal) => request('GET', path, { query, signal });
export const post = (path, body, signal) => request('POST', path, { body, signal });
export const patch = (path, body, signal) => request('PATCH', path, { body, signal });
export const remove = (path, signal) => request('DELETE', path, { signal });

function withQuery(path, query) {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function readJson(response) {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

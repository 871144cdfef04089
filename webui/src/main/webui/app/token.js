// The access token lives in sessionStorage only: never in a URL, never on screen.
const STORAGE_KEY = 'sluice.token';

export function readToken() {
  try {
    return sessionStorage.getItem(STORAGE_KEY) || null;
  } catch {
    return null;
  }
}

export function storeToken(token) {
  sessionStorage.setItem(STORAGE_KEY, token);
}

export function clearToken() {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage disabled: nothing was stored either.
  }
}

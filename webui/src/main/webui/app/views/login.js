import { isAbort, request } from '../api.js';
import { el, notice } from '../dom.js';
import { field } from '../form.js';
import { storeToken } from '../token.js';

/** Asks for the access token, checks it against the API, and stores it only once it is accepted. */
export function mount(root, { signal, reason, onLogin }) {
  const token = el('input', { id: 'login-token', name: 'token', type: 'password', autocomplete: 'current-password', required: true });
  const message = el('div', {}, reason ? notice(reason, 'error') : null);
  const submit = el('button', { type: 'submit', className: 'button primary', text: 'Sign in' });
  const form = el('form', { id: 'login-form', className: 'card form login' },
    el('h1', { text: 'Sign in' }),
    el('p', { className: 'muted' }, 'This Sluice runs with ', el('code', { text: '--auth-token' }), ': enter that token to see its data.'),
    field('Access token', token),
    el('div', { className: 'form-actions' }, submit),
    message);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const candidate = token.value;
    submit.disabled = true;
    message.replaceChildren();
    try {
      await request('GET', '/api/overview', { token: candidate, signal });
      storeToken(candidate);
      onLogin();
    } catch (error) {
      if (isAbort(error)) return;
      message.replaceChildren(notice(error.status === 401 ? 'This token is not accepted.' : error.message, 'error'));
      token.select();
    } finally {
      submit.disabled = false;
    }
  });

  root.append(el('div', { className: 'login-page' }, form));
  token.focus();
}

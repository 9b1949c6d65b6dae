import RoomCore

/// The console's script: the admin API over fetch, every value it shows put
/// in as text (`textContent`, text nodes, SVG text), never parsed as HTML.
enum ConsoleScript {
    /// The whole script, one closure, in the order its parts are written:
    /// helpers and signing in (here), the views (ConsoleScript+Views), the
    /// paged lists (+Lists), the actions (+Actions) and the wiring (+Wiring).
    static let js = [core, views, lists, actions, wiring].joined(separator: "\n")

    /// `AuditAction`'s raw values as a JavaScript array literal.
    static let auditActions = "[" + AuditAction.allCases.map { "'" + $0.rawValue + "'" }.joined(separator: ", ") + "]"

    static let core = #"""
'use strict';
(() => {
  // The key lives in this tab's sessionStorage: gone when the tab closes.
  const KEY = 'roomkeeper.adminKey';
  const state = { tenants: [], tenant: null, view: null, room: null, timer: null, opening: 0, rooms: { items: [], next: null }, outbox: { items: [], next: null }, audit: { items: [], next: null } };
  // The audit log's actions, as the engine names them (AuditAction: one list).
  const AUDIT_ACTIONS = \#(ConsoleScript.auditActions);
  const byId = (id) => document.getElementById(id);

  /** An element with text children only: strings become text nodes. */
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props || {})) {
      if (name === 'class') node.className = value;
      else if (name === 'onclick') node.addEventListener('click', value);
      else node.setAttribute(name, String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function fill(tbody, rows, columns) {
    tbody.replaceChildren(...rows);
    if (rows.length === 0) tbody.append(el('tr', {}, el('td', { colspan: columns, class: 'muted' }, 'none')));
    // #44: a long value is cut with an ellipsis, never broken mid-word
    // ("operator", "member.kick" did at 1280 px); the whole value is its title.
    // An id in code (a key's fingerprint, a request id) is cut shorter: the
    // audit view's 32-digit request ids made it 1,400 px wide.
    for (const td of tbody.querySelectorAll('td')) {
      if (td.textContent.length === 0 || td.classList.contains('muted')) continue;
      const only = td.children.length === 1 ? td.children[0] : null;
      if (td.children.length === 0) {
        const text = td.textContent;
        td.replaceChildren(el('span', { class: 'cell', title: text }, text));
      } else if (only && only.tagName === 'CODE' && only.children.length === 0) {
        only.classList.add('cell');
        only.title = only.textContent;
      }
    }
  }

  function when(text) {
    if (!text) return '';
    const date = new Date(text);
    return isNaN(date) ? String(text) : date.toLocaleString();
  }

  /** What an entry does: a webhook's event type, or the provider call's name. */
  function summary(entry) {
    const payload = entry.payload || {};
    if (entry.kind === 'webhook') return (payload.type || '') + ' to ' + (payload.endpoint || '');
    return Object.keys(payload)[0] || '';
  }

  function say(text, isError) {
    const status = byId('status');
    status.textContent = text || '';
    status.className = isError ? 'status error' : 'status';
  }

  async function api(method, path, body) {
    const headers = { Authorization: 'Bearer ' + sessionStorage.getItem(KEY) };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch('/admin/v1' + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    const data = await response.json().catch(() => ({}));
    if (response.status === 401) { signOut('Your key was not accepted.'); throw new Error('unauthorized'); }
    if (!response.ok) throw new Error((data.code ? data.code + ': ' : '') + (data.detail || response.statusText));
    return data;
  }

  const tenantPath = () => '/tenants/' + encodeURIComponent(state.tenant);

  // Sign in and out

  async function signIn(event) {
    event.preventDefault();
    sessionStorage.setItem(KEY, byId('key').value);
    byId('key').value = '';
    try {
      await start();
    } catch (error) {
      byId('signin-error').textContent = 'Could not sign in: ' + error.message;
      sessionStorage.removeItem(KEY);
    }
  }

  function signOut(reason) {
    sessionStorage.removeItem(KEY);
    stopPolling();
    byId('nav').hidden = true;
    byId('whoami').textContent = '';
    for (const scope of ['read', 'rooms', 'moderation', 'webhooks', 'keys']) document.body.classList.remove('can-' + scope);
    // The next person starts from the defaults, not from this one's filters and panels.
    for (const [id, value] of [['room-plugin', ''], ['room-state', 'open'], ['room-find', ''], ['outbox-status', ''], ['outbox-kind', ''],
      ['audit-action', ''], ['audit-actor', ''], ['mod-reason', ''], ['mod-minutes', '']]) byId(id).value = value;
    byId('attempts-panel').hidden = true;
    for (const id of ['webhooks-result', 'revoke-result', 'moderation-result', 'bans-result']) byId(id).textContent = '';
    show('signin');
    byId('signin-error').textContent = typeof reason === 'string' ? reason : '';
  }

  /** Who is signed in and what its key may do (#44): the buttons of other
   *  scopes are not shown (body classes can-<scope>, app.css). */
  async function whoAmI() {
    const me = await api('GET', '/me');
    for (const scope of ['read', 'rooms', 'moderation', 'webhooks', 'keys']) document.body.classList.toggle('can-' + scope, me.scopes.includes(scope));
    byId('whoami').textContent = me.actor + ' · ' + me.scopes.join(', ');
    byId('whoami').title = 'Signed in as ' + me.actor + (me.tenant ? ' of tenant ' + me.tenant : '') + ', with the scopes ' + me.scopes.join(', ');
  }

  async function start() {
    await whoAmI();
    const page = await api('GET', '/tenants');
    state.tenants = page.items;
    const select = byId('tenant-select');
    select.replaceChildren(...state.tenants.map((t) => el('option', { value: t.id }, t.id + ' (' + t.name + ')')));
    state.tenant = state.tenants.length ? state.tenants[0].id : null;
    byId('nav').hidden = false;
    byId('signin-error').textContent = '';
    await open(state.tenants.length > 1 ? 'tenants' : 'rooms');
  }

"""#
}

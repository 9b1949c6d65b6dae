/// The console's script: the admin API over fetch, every value it shows put
/// in as text (`textContent`, text nodes, SVG text), never parsed as HTML.
enum ConsoleScript {
    static let js = #"""
'use strict';
(() => {
  // The key lives in this tab's sessionStorage: gone when the tab closes.
  const KEY = 'roomkeeper.adminKey';
  const state = { tenants: [], tenant: null, view: null, room: null, timer: null, rooms: { items: [], next: null }, outbox: { items: [], next: null }, audit: { items: [], next: null } };
  const AUDIT_ACTIONS = ['room.create', 'room.extend', 'room.dissolve', 'member.kick', 'member.ban', 'member.unban', 'member.mute', 'member.unmute',
    'tenant.ban', 'tenant.unban',
    'account.revoke', 'outbox.retry', 'outbox.replay', 'webhook.test', 'tenants.reload', 'key.create', 'key.revoke'];
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

  // Views

  function show(name) {
    for (const section of document.querySelectorAll('.view')) section.hidden = section.id !== name + '-view';
    for (const button of document.querySelectorAll('nav button[data-view]')) button.classList.toggle('current', button.dataset.view === name);
  }

  function stopPolling() {
    if (state.timer) clearInterval(state.timer);
    state.timer = null;
  }

  async function open(view) {
    stopPolling();
    state.view = view;
    show(view);
    say('');
    try {
      await renderers[view]();
    } catch (error) {
      if (error.message !== 'unauthorized') say(error.message, true);
    }
    // Rooms, a room and the outbox stay current without a reload.
    if (['rooms', 'room', 'outbox'].includes(view)) {
      state.timer = setInterval(() => renderers[view]().catch((error) => say(error.message, true)), 2000);
    }
  }

  const renderers = {
    async tenants() {
      fill(byId('tenants'), state.tenants.map((t) => el('tr', { class: 'link', 'data-tenant': t.id, onclick: () => chooseTenant(t.id) },
        el('td', {}, t.id), el('td', {}, t.name), el('td', {}, t.imProvider), el('td', {}, t.liveProvider),
        el('td', {}, t.plugins.map((p) => p.id).join(', ')))), 5);
    },

    async rooms() {
      const tenant = state.tenants.find((t) => t.id === state.tenant);
      const pluginSelect = byId('room-plugin');
      const chosen = pluginSelect.value;
      pluginSelect.replaceChildren(el('option', { value: '' }, 'every plugin'), ...(tenant ? tenant.plugins : []).map((p) => el('option', { value: p.id }, p.id)));
      pluginSelect.value = chosen;
      const page = await api('GET', tenantPath() + '/rooms?' + roomQuery());
      state.rooms = { items: page.items, next: page.nextCursor };
      drawRooms();
      byId('rooms-updated').textContent = 'updated ' + new Date().toLocaleTimeString();
    },

    async room() {
      const detail = await api('GET', tenantPath() + '/rooms/' + encodeURIComponent(state.room));
      const room = detail.room;
      byId('room-title').textContent = room.name;
      const facts = [['Room', room.id], ['Plugin', room.plugin], ['Owner', room.owner], ['State', room.state + (room.closeReason ? ' (' + room.closeReason + ')' : '')],
        ['Created', when(room.createdAt)], ['Expires', when(room.expiresAt)], ['Capacity', room.capacity]];
      // Its session facts (#30): joins in all and at most at once, texts, how long.
      const session = (await api('GET', tenantPath() + '/sessions?room=' + encodeURIComponent(state.room))).items[0];
      if (session) {
        facts.push(['In the room now', session.members], ['Joins in all', session.totalJoins], ['Most at once', session.peakMembers],
          ['Texts (local IM)', session.messages ?? 'not counted (vendor IM)'], ['Open for', Math.round(session.durationSeconds / 60) + ' min']);
      }
      byId('room-facts').replaceChildren(...facts.flatMap(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]));
      fill(byId('members'), detail.members.map((m) => el('tr', { 'data-account': m.accid }, el('td', {}, m.accid), el('td', {}, m.role),
        el('td', {}, m.status), el('td', {}, when(m.joinedAt)),
        el('td', {}, m.status === 'joined' ? el('button', { type: 'button', class: 'kick', onclick: () => moderate('kick', m.accid) }, 'Kick') : '',
          ' ', el('button', { type: 'button', class: 'ban', onclick: () => moderate('ban', m.accid) }, 'Ban'),
          ' ', el('button', { type: 'button', class: 'mute', onclick: () => moderate('mute', m.accid) }, 'Mute')))), 5);
      const roomPath = '/rooms/' + encodeURIComponent(state.room);
      const [bans, mutes] = await Promise.all([api('GET', tenantPath() + roomPath + '/bans?limit=50'), api('GET', tenantPath() + roomPath + '/mutes?limit=50')]);
      fill(byId('room-bans'), bans.items.map((ban) => banRow(ban, roomPath + '/bans/')), 7);
      fill(byId('room-mutes'), mutes.items.map((mute) => banRow(mute, roomPath + '/mutes/')), 7);
      byId('timeline').replaceChildren(...detail.events.map((e) => el('li', { 'data-kind': e.kind },
        el('strong', {}, e.kind), ' ', when(e.at), ' by ', e.actor, ' ', el('code', {}, JSON.stringify(e.detail)))));
    },

    async outbox() {
      const page = await api('GET', tenantPath() + '/outbox?' + outboxQuery());
      state.outbox = { items: page.items, next: page.nextCursor };
      drawOutbox();
    },

    async webhooks() {
      const page = await api('GET', tenantPath() + '/webhooks');
      fill(byId('webhooks'), page.items.map((hook) => el('tr', { 'data-endpoint': hook.name },
        el('td', {}, hook.name), el('td', {}, hook.url), el('td', {}, hook.events.join(', ')), el('td', {}, hook.signingSecrets),
        el('td', {}, el('button', { type: 'button', class: 'send-test', onclick: () => sendTest(hook.name) }, 'Send test event')))), 5);
    },

    async sessions() {},

    async bans() {
      const page = await api('GET', tenantPath() + '/bans?limit=100');
      fill(byId('tenant-bans'), page.items.map((ban) => banRow(ban, '/bans/')), 7);
    },

    async audit() {
      const select = byId('audit-action');
      if (select.options.length === 1) select.append(...AUDIT_ACTIONS.map((a) => el('option', { value: a }, a)));
      const page = await api('GET', tenantPath() + '/audit?' + auditQuery());
      state.audit = { items: page.items, next: page.nextCursor };
      drawAudit();
    },

    async activity() {
      const [stats, activity] = await Promise.all([api('GET', tenantPath() + '/stats'), api('GET', tenantPath() + '/activity?minutes=60')]);
      const open = Object.entries(stats.rooms).map(([plugin, states]) => [plugin, states.open || 0]);
      byId('chart-open').replaceChildren(Charts.bars(open));
      byId('chart-transitions').replaceChildren(Charts.lines(activity.buckets, ['created', 'joined', 'left', 'closed']));
      // Usage by hour, last day (#30): room- and member-minutes.
      const usage = await api('GET', tenantPath() + '/usage?granularity=hour');
      byId('chart-usage').replaceChildren(Charts.usage(usage.items));
      // The tenant's budgets and quotas and what it uses now (#41).
      const limits = await api('GET', tenantPath() + '/limits');
      const rate = (b) => b.perSecond + ' a second, burst ' + b.burst;
      const rows = [['Client requests', rate(limits.budgets.client), rate(limits.perInstance.client), ''],
        ['Admin requests (tenant keys)', rate(limits.budgets.admin), rate(limits.perInstance.admin), ''],
        ['Requests per account', rate(limits.budgets.account), rate(limits.perInstance.account), ''],
        ...limits.quotas.map((q) => ['Open rooms of ' + q.plugin,
          (q.maxOpenRooms ?? 'no limit') + (q.maxOpenRoomsPerOwner ? ', ' + q.maxOpenRoomsPerOwner + ' per owner' : ''), '', '']),
        ['Open rooms', '', '', limits.usage.openRooms], ['Accounts', limits.maxAccounts ?? 'no limit', '', limits.usage.accounts], ['Local IM sockets', '', '', limits.usage.sockets]];
      fill(byId('limits'), rows.map((cells) => el('tr', {}, ...cells.map((cell) => el('td', {}, String(cell))))), 4);
    },
  };

  // Lists: the newest 100, then older pages by cursor on request (the
  // list then stops refreshing itself until a filter changes).

  function roomQuery() {
    const query = new URLSearchParams({ limit: '100' });
    if (byId('room-plugin').value) query.set('plugin', byId('room-plugin').value);
    if (byId('room-state').value) query.set('state', byId('room-state').value);
    const find = byId('room-find').value.trim();
    if (find && !/^[0-9]+$/.test(find)) query.set('owner', find);
    return query;
  }

  function drawRooms() {
    fill(byId('rooms'), state.rooms.items.map((room) => el('tr', { class: 'link', 'data-room': room.id, onclick: () => openRoom(room.id) },
      el('td', {}, room.id), el('td', {}, room.plugin), el('td', { class: 'room-name' }, room.name), el('td', {}, room.owner),
      el('td', {}, room.state + (room.closeReason ? ' (' + room.closeReason + ')' : '')), el('td', {}, when(room.createdAt)), el('td', {}, when(room.expiresAt)))), 7);
    byId('rooms-older').hidden = !state.rooms.next;
  }

  function outboxQuery() {
    const query = new URLSearchParams({ limit: '100' });
    if (byId('outbox-status').value) query.set('status', byId('outbox-status').value);
    if (byId('outbox-kind').value) query.set('kind', byId('outbox-kind').value);
    return query;
  }

  function drawOutbox() {
    fill(byId('outbox'), state.outbox.items.map((entry) => el('tr', { class: 'link', 'data-entry': entry.id, onclick: () => showAttempts(entry.id) },
      el('td', {}, entry.id), el('td', {}, entry.kind + ' ' + summary(entry)), el('td', {}, entry.roomId ?? ''),
      el('td', { class: entry.status }, entry.status), el('td', {}, entry.attempts), el('td', {}, entry.lastError ?? ''), el('td', {}, when(entry.createdAt)),
      el('td', {}, entry.status === 'delivered' ? '' : el('button', { type: 'button', class: 'retry', 'data-entry': entry.id, onclick: (event) => retry(event, entry.id) }, 'Retry')))), 8);
    byId('outbox-older').hidden = !state.outbox.next;
  }

  function auditQuery() {
    const query = new URLSearchParams({ limit: '100' });
    if (byId('audit-action').value) query.set('action', byId('audit-action').value);
    const actor = byId('audit-actor').value.trim();
    if (actor) query.set('actor', actor);
    return query;
  }

  function drawAudit() {
    fill(byId('audit'), state.audit.items.map((row) => el('tr', { 'data-audit': row.id, 'data-action': row.action },
      el('td', {}, when(row.at)), el('td', {}, row.actor), el('td', {}, el('code', {}, row.keyFingerprint ?? '')), el('td', {}, row.action),
      el('td', {}, row.target), el('td', {}, row.outcome), el('td', {}, el('code', {}, row.requestId ?? '')), el('td', {}, row.clientAddress ?? ''))), 8);
    byId('audit-older').hidden = !state.audit.next;
  }

  /** A ban's row, with Lift while it is in force; `path` is its scope's bans path. */
  function banRow(ban, path) {
    return el('tr', { 'data-ban': ban.id, 'data-account': ban.account },
      el('td', {}, ban.id), el('td', {}, ban.account), el('td', {}, ban.reason), el('td', {}, ban.expiresAt ? when(ban.expiresAt) : 'no end'),
      el('td', {}, ban.createdBy), el('td', { class: ban.active ? 'dead' : 'muted' }, ban.active ? 'in force' : (ban.liftedAt ? 'lifted' : 'ended')),
      el('td', {}, ban.active ? el('button', { type: 'button', class: 'lift', onclick: () => lift(path + ban.id) }, 'Lift') : ''));
  }

  async function older(list, path, query, draw, cursor = 'cursor') {
    stopPolling();
    query.set(cursor, state[list].next);
    const page = await api('GET', tenantPath() + path + '?' + query);
    state[list] = { items: state[list].items.concat(page.items), next: page.nextCursor };
    draw();
  }

  /** A room id opens that room; anything else lists that owner's rooms. */
  async function findRoom() {
    const find = byId('room-find').value.trim();
    if (/^[0-9]+$/.test(find)) {
      try {
        await api('GET', tenantPath() + '/rooms/' + find);
        openRoom(find);
      } catch (error) {
        say(error.message, true);
      }
      return;
    }
    await open('rooms');
  }

  // Actions

  function chooseTenant(id) {
    state.tenant = id;
    byId('tenant-select').value = id;
    open('rooms');
  }

  function openRoom(id) {
    state.room = id;
    open('room');
  }

  async function retry(event, id) {
    event.stopPropagation();
    try {
      const entry = await api('POST', tenantPath() + '/outbox/' + id + '/retry');
      say('Entry ' + entry.id + ' will be tried again now, with a fresh set of attempts.');
      await renderers.outbox();
      if (!byId('attempts-panel').hidden) await showAttempts(id);
    } catch (error) {
      say(error.message, true);
    }
  }

  async function showAttempts(id) {
    const page = await api('GET', tenantPath() + '/outbox/' + id + '/attempts');
    byId('attempts-panel').hidden = false;
    byId('attempts-title').textContent = 'Attempts of entry ' + id;
    fill(byId('attempts'), page.items.map((a) => el('tr', {}, el('td', {}, a.attempt), el('td', {}, when(a.at)), el('td', { class: a.outcome }, a.outcome),
      el('td', {}, a.statusCode ?? '-'), el('td', {}, a.latencyMs + ' ms'), el('td', {}, a.error ?? ''))), 6);
  }

  async function sendTest(name) {
    try {
      const entry = await api('POST', tenantPath() + '/webhooks/' + encodeURIComponent(name) + '/test');
      byId('webhooks-result').textContent = 'Test event queued as outbox entry ' + entry.id + '.';
    } catch (error) {
      byId('webhooks-result').textContent = error.message;
    }
  }

  async function replay(event) {
    event.preventDefault();
    const since = new Date(byId('replay-since').value);
    try {
      const result = await api('POST', tenantPath() + '/outbox/replay', { since: since.toISOString() });
      byId('webhooks-result').textContent = result.replayed + ' dead letters are due again.';
    } catch (error) {
      byId('webhooks-result').textContent = error.message;
    }
  }

  /** The minutes field as seconds, or null when blank. */
  function seconds(id) {
    const text = byId(id).value.trim();
    return text ? Math.round(Number(text) * 60) : null;
  }

  async function moderate(action, account) {
    const room = encodeURIComponent(state.room);
    const reason = byId('mod-reason').value;
    const durationSeconds = seconds('mod-minutes');
    try {
      if (action === 'kick') {
        const result = await api('POST', tenantPath() + '/rooms/' + room + '/members/' + encodeURIComponent(account) + '/kick', { reason, durationSeconds });
        byId('moderation-result').textContent = 'Kicked ' + account + (result.ban ? ', kept out until ' + when(result.ban.expiresAt) : '') + '.';
      } else if (action === 'mute') {
        const mute = await api('POST', tenantPath() + '/rooms/' + room + '/mutes', { account, reason, durationSeconds });
        byId('moderation-result').textContent = 'Muted ' + account + ' in this room ' + (mute.expiresAt ? 'until ' + when(mute.expiresAt) : 'until lifted') + '.';
      } else {
        const ban = await api('POST', tenantPath() + '/rooms/' + room + '/bans', { account, reason, durationSeconds });
        byId('moderation-result').textContent = 'Banned ' + account + ' from this room ' + (ban.expiresAt ? 'until ' + when(ban.expiresAt) : 'until lifted') + '.';
      }
      await renderers.room();
    } catch (error) {
      byId('moderation-result').textContent = error.message;
    }
  }

  async function lift(path) {
    const inRoom = state.view === 'room';
    try {
      const ban = await api('DELETE', tenantPath() + path);
      byId(inRoom ? 'moderation-result' : 'bans-result').textContent = 'Lifted ' + (path.includes('/mutes/') ? 'mute ' : 'ban ') + ban.id + ' of ' + ban.account + '.';
      await renderers[state.view]();
    } catch (error) {
      byId(inRoom ? 'moderation-result' : 'bans-result').textContent = error.message;
    }
  }

  async function banFromTenant(event) {
    event.preventDefault();
    const account = byId('tenant-ban-account').value;
    try {
      const ban = await api('POST', tenantPath() + '/bans', { account, reason: byId('tenant-ban-reason').value, durationSeconds: seconds('tenant-ban-minutes') });
      byId('bans-result').textContent = 'Banned ' + account + ' from every room of the tenant ' + (ban.expiresAt ? 'until ' + when(ban.expiresAt) : 'until lifted') + '.';
      await renderers.bans();
    } catch (error) {
      byId('bans-result').textContent = error.message;
    }
  }

  /** The billing export: the CSV fetched with the key, saved through a blob link. */
  async function downloadUsage() {
    const response = await fetch('/admin/v1' + tenantPath() + '/usage?granularity=day&format=csv', {
      headers: { authorization: 'Bearer ' + sessionStorage.getItem(KEY) } });
    if (!response.ok) throw new Error('usage export failed: ' + response.status);
    const link = el('a', { href: URL.createObjectURL(await response.blob()), download: 'usage-' + state.tenant + '.csv' });
    document.body.append(link);
    link.click();
    link.remove();
  }

  async function revoke(event) {
    event.preventDefault();
    const accid = byId('revoke-accid').value;
    try {
      const result = await api('POST', tenantPath() + '/accounts/' + encodeURIComponent(accid) + '/sessions/revoke');
      byId('revoke-result').textContent = 'Revoked ' + result.revoked + ' session(s) of ' + accid + '; its IM tokens end through the outbox.';
    } catch (error) {
      byId('revoke-result').textContent = error.message;
    }
  }

  // Charts: console/charts.js (ConsoleCharts), loaded before this script.
  const Charts = window.RoomkeeperCharts;

  // Wiring

  document.addEventListener('DOMContentLoaded', () => {
    byId('signin-form').addEventListener('submit', signIn);
    byId('signout').addEventListener('click', () => signOut(''));
    byId('replay-form').addEventListener('submit', replay);
    byId('revoke-form').addEventListener('submit', revoke);
    byId('tenant-ban-form').addEventListener('submit', banFromTenant);
    byId('audit-action').addEventListener('change', () => open('audit'));
    byId('audit-actor').addEventListener('change', () => open('audit'));
    byId('audit-older').addEventListener('click', () => older('audit', '/audit', auditQuery(), drawAudit, 'before').catch((e) => say(e.message, true)));
    byId('back-to-rooms').addEventListener('click', () => open('rooms'));
    byId('usage-csv').addEventListener('click', () => downloadUsage().catch((e) => say(e.message, true)));
    for (const id of ['room-plugin', 'room-state']) byId(id).addEventListener('change', () => open('rooms'));
    for (const id of ['outbox-status', 'outbox-kind']) byId(id).addEventListener('change', () => open('outbox'));
    byId('room-find').addEventListener('change', () => findRoom().catch((e) => say(e.message, true)));
    byId('rooms-older').addEventListener('click', () => older('rooms', '/rooms', roomQuery(), drawRooms).catch((e) => say(e.message, true)));
    byId('outbox-older').addEventListener('click', () => older('outbox', '/outbox', outboxQuery(), drawOutbox).catch((e) => say(e.message, true)));
    byId('tenant-select').addEventListener('change', (event) => chooseTenant(event.target.value));
    for (const button of document.querySelectorAll('nav button[data-view]')) button.addEventListener('click', () => open(button.dataset.view));
    const since = new Date(Date.now() - 86400000);
    byId('replay-since').value = new Date(since.getTime() - since.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
    if (sessionStorage.getItem(KEY)) start().catch(() => signOut('Sign in again.'));
    else show('signin');
  });
})();
"""#
}

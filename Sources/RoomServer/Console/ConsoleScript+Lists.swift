/// The console's paged lists (rooms, outbox, audit, bans): the newest 100, then older pages by cursor.
extension ConsoleScript {
    static let lists = #"""
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

"""#
}

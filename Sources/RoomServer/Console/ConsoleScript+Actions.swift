/// The console's actions: choosing a tenant and a room, retrying, replaying, moderating, lifting, banning, revoking.
extension ConsoleScript {
    static let actions = #"""
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

"""#
}

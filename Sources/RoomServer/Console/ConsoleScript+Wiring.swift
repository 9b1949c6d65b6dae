/// The console's wiring: the charts script, and the handlers set once the page has loaded.
extension ConsoleScript {
    static let wiring = #"""
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

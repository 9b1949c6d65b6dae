/// The console's views: showing one, and how each renders its data.
extension ConsoleScript {
    static let views = #"""
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
    // A view opened while an earlier one still renders wins: the earlier one
    // must not start its polling (or say its error) when its answer arrives.
    const opening = ++state.opening;
    state.view = view;
    show(view);
    say('');
    try {
      await renderers[view]();
    } catch (error) {
      if (error.message !== 'unauthorized' && opening === state.opening) say(error.message, true);
    }
    if (opening !== state.opening) return;
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
        ['Joins into one room', '', rate(limits.roomJoins), ''],
        ...limits.quotas.map((q) => ['Open rooms of ' + q.plugin,
          (q.maxOpenRooms ?? 'no limit') + (q.maxOpenRoomsPerOwner ? ', ' + q.maxOpenRoomsPerOwner + ' per owner' : ''), '', '']),
        ['Open rooms', '', '', limits.usage.openRooms], ['Accounts', limits.maxAccounts ?? 'no limit', '', limits.usage.accounts], ['Local IM sockets', '', '', limits.usage.sockets]];
      fill(byId('limits'), rows.map((cells) => el('tr', {}, ...cells.map((cell) => el('td', {}, String(cell))))), 4);
    },
  };

"""#
}

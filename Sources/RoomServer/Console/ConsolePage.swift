/// The console's one page. Static: no user text is ever put into it on the
/// server; the script fills it in, as text, from the admin API.
enum ConsolePage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Roomkeeper console</title>
<link rel="stylesheet" href="/console/app.css">
<script src="/console/charts.js" defer></script>
<script src="/console/app.js" defer></script>
</head>
<body>
<header>
  <h1>Roomkeeper</h1>
  <nav id="nav" hidden>
    <label>Tenant <select id="tenant-select"></select></label>
    <button type="button" data-view="tenants">Tenants</button>
    <button type="button" data-view="rooms">Rooms</button>
    <button type="button" data-view="outbox">Outbox</button>
    <button type="button" data-view="webhooks">Webhooks</button>
    <button type="button" data-view="sessions">Sessions</button>
    <button type="button" data-view="bans">Bans</button>
    <button type="button" data-view="audit">Audit</button>
    <button type="button" data-view="activity">Activity</button>
    <span id="whoami" class="whoami"></span>
    <button type="button" id="signout">Sign out</button>
  </nav>
</header>
<main>
  <section id="signin-view" class="view">
    <form id="signin-form">
      <h2>Sign in</h2>
      <p>With your admin key: the operator's, or a tenant's. It stays in this browser tab until the tab closes, and goes only to this server.</p>
      <label>Admin key <input id="key" type="password" autocomplete="off" required></label>
      <button id="signin" type="submit">Sign in</button>
      <p id="signin-error" class="error" role="alert"></p>
    </form>
  </section>

  <section id="tenants-view" class="view" hidden>
    <h2>Tenants</h2>
    <table>
      <thead><tr><th>Tenant</th><th>Name</th><th>IM</th><th>Live</th><th>Plugins</th></tr></thead>
      <tbody id="tenants"></tbody>
    </table>
  </section>

  <section id="rooms-view" class="view" hidden>
    <h2>Rooms</h2>
    <div class="filters">
      <label>Plugin <select id="room-plugin"><option value="">every plugin</option></select></label>
      <label>State <select id="room-state"><option value="open">open</option><option value="closed">closed</option><option value="">any</option></select></label>
      <label>Find <input id="room-find" type="search" placeholder="room id or owner" maxlength="128"></label>
      <span id="rooms-updated" class="muted"></span>
    </div>
    <table>
      <thead><tr><th>Room</th><th>Plugin</th><th>Name</th><th>Owner</th><th>State</th><th>Created</th><th>Expires</th></tr></thead>
      <tbody id="rooms"></tbody>
    </table>
    <p><button type="button" id="rooms-older" hidden>Older rooms</button></p>
  </section>

  <section id="room-view" class="view" hidden>
    <p><button type="button" id="back-to-rooms">All rooms</button></p>
    <h2 id="room-title"></h2>
    <dl id="room-facts"></dl>
    <h3>Members</h3>
    <div class="filters">
      <label>Reason <input id="mod-reason" maxlength="256" placeholder="shown in the audit log"></label>
      <label>For minutes <input id="mod-minutes" type="number" min="1" max="527040" placeholder="kick: none; ban: no end"></label>
    </div>
    <table>
      <thead><tr><th>Account</th><th>Role</th><th>Status</th><th>Joined</th><th></th></tr></thead>
      <tbody id="members"></tbody>
    </table>
    <p id="moderation-result" role="status"></p>
    <h3>Bans of this room</h3>
    <table>
      <thead><tr><th>Ban</th><th>Account</th><th>Reason</th><th>Until</th><th>By</th><th>State</th><th></th></tr></thead>
      <tbody id="room-bans"></tbody>
    </table>
    <h3>Mutes in this room</h3>
    <table>
      <thead><tr><th>Mute</th><th>Account</th><th>Reason</th><th>Until</th><th>By</th><th>State</th><th></th></tr></thead>
      <tbody id="room-mutes"></tbody>
    </table>
    <h3>Timeline</h3>
    <ol id="timeline"></ol>
  </section>

  <section id="outbox-view" class="view" hidden>
    <h2>Outbox</h2>
    <div class="filters">
      <label>Status <select id="outbox-status"><option value="">any</option><option value="pending">pending</option><option value="dead">dead</option><option value="delivered">delivered</option></select></label>
      <label>Kind <select id="outbox-kind"><option value="">any</option><option value="im">IM</option><option value="live">live</option><option value="webhook">webhook</option></select></label>
    </div>
    <table>
      <thead><tr><th>Entry</th><th>Kind</th><th>Room</th><th>Status</th><th>Attempts</th><th>Last error</th><th>Created</th><th></th></tr></thead>
      <tbody id="outbox"></tbody>
    </table>
    <p><button type="button" id="outbox-older" hidden>Older entries</button></p>
    <div id="attempts-panel" hidden>
      <h3 id="attempts-title"></h3>
      <table>
        <thead><tr><th>Attempt</th><th>At</th><th>Outcome</th><th>HTTP status</th><th>Latency</th><th>Error</th></tr></thead>
        <tbody id="attempts"></tbody>
      </table>
    </div>
  </section>

  <section id="webhooks-view" class="view" hidden>
    <h2>Webhooks</h2>
    <table>
      <thead><tr><th>Endpoint</th><th>URL</th><th>Events</th><th>Signing secrets</th><th></th></tr></thead>
      <tbody id="webhooks"></tbody>
    </table>
    <form id="replay-form">
      <label>Deliver again every dead letter since <input id="replay-since" type="datetime-local" required></label>
      <button type="submit">Replay</button>
    </form>
    <p id="webhooks-result" role="status"></p>
  </section>

  <section id="sessions-view" class="view" hidden>
    <h2>Sessions</h2>
    <form id="revoke-form">
      <label>Account <input id="revoke-accid" required maxlength="128"></label>
      <button id="revoke" type="submit">Revoke every session and IM token</button>
    </form>
    <p id="revoke-result" role="status"></p>
  </section>

  <section id="bans-view" class="view" hidden>
    <h2>Bans across the tenant</h2>
    <form id="tenant-ban-form">
      <label>Account <input id="tenant-ban-account" required maxlength="128"></label>
      <label>For minutes <input id="tenant-ban-minutes" type="number" min="1" max="527040" placeholder="no end"></label>
      <label>Reason <input id="tenant-ban-reason" maxlength="256"></label>
      <button id="tenant-ban" type="submit">Ban from every room</button>
    </form>
    <p id="bans-result" role="status"></p>
    <table>
      <thead><tr><th>Ban</th><th>Account</th><th>Reason</th><th>Until</th><th>By</th><th>State</th><th></th></tr></thead>
      <tbody id="tenant-bans"></tbody>
    </table>
  </section>

  <section id="audit-view" class="view" hidden>
    <h2>Audit log</h2>
    <div class="filters">
      <label>Action <select id="audit-action"><option value="">any</option></select></label>
      <label>Actor or key <input id="audit-actor" type="search" maxlength="140" placeholder="operator, account:alice, a fingerprint"></label>
    </div>
    <table>
      <thead><tr><th>At</th><th>Actor</th><th>Key</th><th>Action</th><th>Target</th><th>Outcome</th><th>Request</th><th>From</th></tr></thead>
      <tbody id="audit"></tbody>
    </table>
    <p><button type="button" id="audit-older" hidden>Older rows</button></p>
  </section>

  <section id="activity-view" class="view" hidden>
    <h2>Activity</h2>
    <figure><figcaption>Open rooms by plugin</figcaption><div id="chart-open" class="chart"></div></figure>
    <figure><figcaption>Room transitions per minute, last hour</figcaption><div id="chart-transitions" class="chart"></div></figure>
    <figure><figcaption>Usage by hour, last day (room- and member-minutes)</figcaption><div id="chart-usage" class="chart"></div></figure>
    <p><button type="button" id="usage-csv">Download usage by day (CSV)</button></p>
    <h3>Limits</h3>
    <table>
      <thead><tr><th>Limit</th><th>Whole tenant</th><th>This instance's share</th><th>In use now</th></tr></thead>
      <tbody id="limits"></tbody>
    </table>
  </section>

  <p id="status" class="status" role="status"></p>
</main>
</body>
</html>
"""#
}

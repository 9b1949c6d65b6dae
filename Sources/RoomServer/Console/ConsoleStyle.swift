/// The console's stylesheet.
enum ConsoleStyle {
    static let css = #"""
:root { font-family: system-ui, sans-serif; color: #1d2330; background: #f6f7f9; }
body { margin: 0; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; padding: .6rem 1.2rem; background: #1d2330; color: #fff; }
header h1 { font-size: 1.2rem; margin: 0; }
nav { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
nav button, nav select { font: inherit; }
nav button.current { background: #3d7eff; color: #fff; border-color: #3d7eff; }
.whoami { font-size: .85rem; opacity: .85; max-width: 28rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
/* A key's scopes (#44): what it may not do is not offered. */
body:not(.can-moderation) button.kick, body:not(.can-moderation) button.ban, body:not(.can-moderation) button.mute,
body:not(.can-moderation) button.lift, body:not(.can-moderation) #revoke-form, body:not(.can-moderation) #tenant-ban-form,
body:not(.can-webhooks) button.retry, body:not(.can-webhooks) button.send-test, body:not(.can-webhooks) #replay-form { display: none; }
main { padding: 1rem 1.2rem; }
table { border-collapse: collapse; width: 100%; background: #fff; margin-bottom: 1rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e1e4ea; vertical-align: top; }
td .cell { display: inline-block; max-width: 16rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; vertical-align: bottom; }
td code.cell { max-width: 7.5rem; }
/* The audit log fits its window whatever its values (#44): fixed columns,
   each value cut to its column (a CI run's long targets and actors made it
   4 px too wide with caps per value alone). */
#audit-view table { table-layout: fixed; }
#audit-view td .cell { max-width: 100%; }
#audit-view th:nth-child(1) { width: 14rem; }
#audit-view th:nth-child(2) { width: 8rem; }
#audit-view th:nth-child(3) { width: 6.5rem; }
#audit-view th:nth-child(4) { width: 8.5rem; }
#audit-view th:nth-child(6) { width: 7rem; }
#audit-view th:nth-child(7) { width: 6.5rem; }
#audit-view th:nth-child(8) { width: 7rem; }
tbody tr.link { cursor: pointer; }
tbody tr.link:hover { background: #eef3ff; }
.filters { display: flex; gap: 1rem; align-items: center; margin-bottom: .6rem; }
.muted { color: #6b7385; font-size: .9rem; }
.error { color: #b00020; }
.status { color: #6b7385; }
.dead { color: #b00020; font-weight: 600; }
.pending { color: #a36200; }
.delivered { color: #1b7f3b; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
ol#timeline { background: #fff; padding: .6rem 2rem; }
ol#timeline li { margin: .2rem 0; }
code { font-size: .85rem; }
figure { background: #fff; margin: 0 0 1rem; padding: .6rem; }
.chart svg { width: 100%; max-width: 900px; height: auto; }
form { margin-bottom: 1rem; }
#signin-form { max-width: 30rem; background: #fff; padding: 1rem; }
"""#
}

"""#18's browser test: the web console in headless Chromium (Debian's
`chromium` and `chromium-driver`), driven by Selenium, on the running
cluster (ops/cluster) through nginx.

It signs in with the operator key, sees a room appear when a client creates
one (a SealMic room named `<img src=x onerror=alert(1)>`, which must show as
those characters), opens it, kicks a member and lifts the kick's ban, mutes and unmutes
one, bans and
unbans an account across the tenant, reads the audit log (all, then kicks
only), retries a dead outbox entry, sends a test webhook, revokes a
session, draws the charts, then signs in again as a tenant admin. Every view is saved as a PNG under .screenshots/ (git-ignored).
Exit status 0 when all holds; what failed is printed otherwise.
    ops/python ops/console_check.py
"""
import json
import os
import subprocess
import sys
import time
import traceback
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

import sealmic_client

URL = "http://127.0.0.1:8080"
XSS = "<img src=x onerror=alert(1)>"
SHOTS = ".screenshots"
OPERATOR_KEY = open(".cluster/operator-key").read().strip()
DB = subprocess.run(["ops/cluster", "uri"], capture_output=True, text=True, check=True).stdout.strip()
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("console check FAILED: " + what, flush=True)


def sql(statement):
    env = dict(os.environ, PGPASSFILE=".cluster/pgpass")
    return subprocess.run(["/usr/lib/postgresql/15/bin/psql", DB, "-qtA", "-v", "ON_ERROR_STOP=1", "-c", statement],
                          check=True, capture_output=True, text=True, timeout=60, env=env).stdout.strip()


def sealmic(path, form, token=None):
    return sealmic_client.call(URL + "/t/demo/sealmic", path, form, token)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000", "--disable-gpu"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def where_it_stopped(driver, frames):
    """What a CI log needs when no screenshot can be seen: the check's line
    that waited, the view shown, the console's status line, the browser's log."""
    line = next((f"line {f.lineno}: {f.line}" for f in reversed(frames) if f.filename == __file__ and f.name == "main"), "?")
    try:
        view = driver.execute_script("return Array.from(document.querySelectorAll('section.view')).filter((v) => !v.hidden).map((v) => v.id).join(',')")
        status = driver.execute_script("const s = document.getElementById('status'); return s ? s.textContent : ''")
        log = [entry["message"] for entry in driver.get_log("browser")][-5:]
    except Exception as error:  # the browser itself may be what failed
        return f"waited at {line}; the browser could not be asked: {error}"
    return f"waited at {line}; view shown: {view or 'none'}; the console said: {status!r}; the browser's log: {log}"


def main():
    os.makedirs(SHOTS, exist_ok=True)
    driver = browser()
    # Tables are redrawn every 2 s: an element found may be replaced before it is used.
    wait = WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException])
    shots = []

    def shot(name, what):
        path = os.path.join(SHOTS, name + ".png")
        driver.save_screenshot(path)
        shots.append((path, what))

    def visible(element_id):
        return wait.until(lambda d: d.find_element(By.ID, element_id) if d.find_element(By.ID, element_id).is_displayed() else False)

    def click(css):
        """Clicks the element `css` finds, finding it again if it was redrawn."""
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, css).click() or True)

    def text(css):
        return wait.until(lambda d: d.find_element(By.CSS_SELECTOR, css).text)

    def texts(css, attribute=None):
        """The text (or an attribute) of every element `css` finds, read in one
        script: element by element, 120 rows took a round trip each, and the
        rooms list, redrawn every 2 s, made one of them stale before the last
        was read, so the wait never saw the list whole (CI at 89075d0)."""
        return driver.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0])).map((e) => arguments[1] ? e.getAttribute(arguments[1]) : e.textContent)",
            css, attribute)

    def no_alert():
        try:
            driver.switch_to.alert
            return False
        except NoAlertPresentException:
            return True

    try:
        driver.get(URL + "/console")
        visible("signin-view")
        shot("01-signin", "the sign-in form")
        driver.find_element(By.ID, "key").send_keys(OPERATOR_KEY)
        driver.find_element(By.ID, "signin").click()
        visible("tenants-view")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tenants tr[data-tenant='demo']"))
        shot("02-tenants", "the operator's tenants with their providers and plugins")
        check(driver.execute_script("return sessionStorage.length") == 1 and driver.execute_script("return localStorage.length") == 0,
              "the key is kept in the tab's session storage only")

        click("#tenants tr[data-tenant='demo']")
        visible("rooms-view")
        Select(driver.find_element(By.ID, "room-plugin")).select_by_value("sealmic")
        # A client (the SealMic app's API, through nginx) creates a room while the console is open.
        owner = sealmic("/user/login", {"deviceId": "console-check"})
        room = str(sealmic("/room/create", {"subject": XSS}, owner["authorization"])["roomId"])
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#rooms tr[data-room='{room}']"))
        shot("03-rooms", "rooms of demo filtered to sealmic; the client's new room appeared without a reload, its name as text")
        check(text(f"#rooms tr[data-room='{room}'] .room-name") == XSS, "the room's name is shown literally")
        check(not driver.find_elements(By.CSS_SELECTOR, "#rooms img"), "no element was made from the room's name")
        check(no_alert(), "no script ran from the room's name")

        click(f"#rooms tr[data-room='{room}']")
        visible("room-view")
        wait.until(lambda d: d.find_element(By.ID, "room-title").text == XSS)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#timeline li[data-kind='created']"))
        wait.until(lambda d: "Most at once" in d.find_element(By.ID, "room-facts").text)
        shot("04-room", "the room: facts (with its session's: joins, most at once, texts, how long), members and its event timeline; the title is the literal name")
        check(no_alert() and not driver.find_elements(By.CSS_SELECTOR, "#room-view img"), "the room view made nothing of the name")

        # #27: lists page by cursor past the newest 100, and a room is found
        # by its id (opened) or its owner (listed).
        sql("""INSERT INTO rooms (tenant_id, room_id, plugin_id, name, owner, state, capacity, created_at, expires_at)
               SELECT 'demo', nextval('room_ids'), 'sealmic', 'page ' || n, 'console-pager', 'open', 10, now() - interval '1 hour', now() + interval '1 hour'
               FROM generate_series(1, 120) n""")
        driver.find_element(By.ID, "back-to-rooms").click()
        visible("rooms-view")
        wait.until(lambda d: not d.find_element(By.ID, "rooms-older").get_attribute("hidden"))
        check(len(driver.find_elements(By.CSS_SELECTOR, "#rooms tr[data-room]")) == 100, "the newest 100 rooms first")
        click("#rooms-older")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rooms tr[data-room]")) > 100)
        shot("04b-rooms-older", "older rooms appended after the newest 100")
        find = driver.find_element(By.ID, "room-find")
        find.send_keys("console-pager\n")
        wait.until(lambda d: (owners := texts("#rooms tr[data-room] td:nth-child(4)")) and set(owners) == {"console-pager"})
        find.clear()
        find.send_keys(room + "\n")
        visible("room-view")
        wait.until(lambda d: d.find_element(By.ID, "room-title").text == XSS)
        shot("04c-room-found", "the room found by its id")
        sql("DELETE FROM rooms WHERE tenant_id = 'demo' AND owner = 'console-pager'")

        # #29: moderation from the room view. A listener in the room (put there
        # in SQL: its join through the IM is not what this checks).
        sql(f"""INSERT INTO room_members (tenant_id, room_id, accid, role, status, joined_at, updated_at)
                VALUES ('demo', {room}, 'console-troll', 'member', 'joined', now(), now())""")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#members tr[data-account='console-troll'] button.kick"))
        driver.find_element(By.ID, "mod-reason").send_keys("spam (console check)")
        driver.find_element(By.ID, "mod-minutes").send_keys("5")
        click("#members tr[data-account='console-troll'] button.kick")
        wait.until(lambda d: "Kicked console-troll" in d.find_element(By.ID, "moderation-result").text)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#room-bans tr[data-account='console-troll'] button.lift"))
        shot("04d-room-kicked", "a member kicked for 5 minutes from the room view: out of the room, its ban listed with Lift")
        check(not driver.find_elements(By.CSS_SELECTOR, "#members tr[data-account='console-troll'] button.kick"), "the kicked member is no longer joined")
        check(sql(f"SELECT status FROM room_members WHERE tenant_id = 'demo' AND room_id = {room} AND accid = 'console-troll'") == "banned",
              "the kick ended the membership and keeps the account out")
        click("#room-bans tr[data-account='console-troll'] button.lift")
        wait.until(lambda d: "Lifted ban" in d.find_element(By.ID, "moderation-result").text)
        wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#room-bans tr[data-account='console-troll'] button.lift"))
        # A mute of the owner (in the room, on the mic side of SealMic), for 5 minutes, then lifted.
        owner_id = owner["userId"]
        click(f"#members tr[data-account='{owner_id}'] button.mute")
        wait.until(lambda d: f"Muted {owner_id}" in d.find_element(By.ID, "moderation-result").text)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#room-mutes tr[data-account='{owner_id}'] button.lift"))
        shot("04d2-room-muted", "a member muted for 5 minutes: listed under the room's mutes with Lift")
        check(sql(f"SELECT roomkeeper_muted('demo', '{owner_id}', {room}, now())") == "t", "the engine's rule says muted")
        click(f"#room-mutes tr[data-account='{owner_id}'] button.lift")
        wait.until(lambda d: "Lifted mute" in d.find_element(By.ID, "moderation-result").text)
        check(sql(f"SELECT roomkeeper_muted('demo', '{owner_id}', {room}, now())") == "f", "the lift ended the mute")

        driver.find_element(By.CSS_SELECTOR, "nav button[data-view='bans']").click()
        visible("bans-view")
        driver.find_element(By.ID, "tenant-ban-account").send_keys("console-troll")
        driver.find_element(By.ID, "tenant-ban-reason").send_keys("repeat offender")
        driver.find_element(By.ID, "tenant-ban").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#tenant-bans tr[data-account='console-troll'] button.lift"))
        shot("04e-bans", "a tenant-wide ban from the Bans view, in force until lifted")
        click("#tenant-bans tr[data-account='console-troll'] button.lift")
        wait.until(lambda d: "Lifted ban" in d.find_element(By.ID, "bans-result").text)
        check(sql("SELECT count(*) FROM bans WHERE tenant_id = 'demo' AND accid = 'console-troll' AND lifted_at IS NULL") == "0",
              "every ban of the account was lifted")

        driver.find_element(By.CSS_SELECTOR, "nav button[data-view='audit']").click()
        visible("audit-view")
        for action in ("member.kick", "member.unban", "member.mute", "member.unmute", "tenant.ban", "tenant.unban"):
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#audit tr[data-action='{action}']"))
        shot("04f-audit", "the audit log: each act with the operator's key fingerprint, target, outcome, request id and address")
        check(OPERATOR_KEY not in driver.page_source, "no key reaches the audit view")
        # #44: at 1280 px no value breaks mid-word ("operator", "member.kick" did):
        # each cell is one line, cut with an ellipsis, its whole value its title.
        cells = driver.execute_script("return Array.from(document.querySelectorAll('#audit td .cell'))"
                                      ".map((c) => [c.textContent, c.title, c.getClientRects().length])")
        check(cells and all(text == title and lines == 1 for text, title, lines in cells),
              f"every audit cell is one line with its whole value as its title: {[c for c in cells if c[2] != 1][:3]}")
        check(any(text == title and len(text) == 32 for text, title, _ in cells), "request ids are cut cells with their whole value as title")
        # ... and the table fits the window: no column is pushed out of sight.
        widths = driver.execute_script("const t = document.querySelector('#audit').closest('table');"
                                       "return [t.getBoundingClientRect().right, document.documentElement.clientWidth]")
        check(widths[0] <= widths[1], f"the audit table fits 1280 px: its right edge at {widths[0]} px, the window {widths[1]} px")
        Select(driver.find_element(By.ID, "audit-action")).select_by_value("member.kick")
        wait.until(lambda d: (actions := texts("#audit tr[data-action]", "data-action")) and set(actions) == {"member.kick"})
        shot("04g-audit-kicks", "the audit log filtered to kicks")
        Select(driver.find_element(By.ID, "audit-action")).select_by_value("")

        driver.find_element(By.CSS_SELECTOR, "nav button[data-view='sessions']").click()
        visible("sessions-view")
        driver.find_element(By.ID, "revoke-accid").send_keys(owner["userId"])
        driver.find_element(By.ID, "revoke").click()
        wait.until(lambda d: "Revoked" in d.find_element(By.ID, "revoke-result").text)
        shot("05-sessions", "a session revoked by account")
        check("Revoked 1 session" in driver.find_element(By.ID, "revoke-result").text, "the client's session was revoked")

        # The revocation's IM entry, as if its attempts ran out (a day of them: set in SQL, as no test waits a day).
        entry = sql("SELECT max(outbox_id) FROM outbox WHERE tenant_id = 'demo'")
        sql(f"UPDATE outbox SET status = 'dead', last_error = 'attempts exhausted (set by ops/console_check.py)' WHERE tenant_id = 'demo' AND outbox_id = {entry}")
        driver.find_element(By.CSS_SELECTOR, "nav button[data-view='outbox']").click()
        visible("outbox-view")
        Select(driver.find_element(By.ID, "outbox-status")).select_by_value("dead")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#outbox button.retry[data-entry='{entry}']"))
        shot("06-outbox-dead", "the outbox filtered to dead letters, each with Retry")
        click(f"#outbox button.retry[data-entry='{entry}']")
        Select(driver.find_element(By.ID, "outbox-status")).select_by_value("")
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, f"#outbox tr[data-entry='{entry}'] td:nth-child(4)").text == "delivered")
        click(f"#outbox tr[data-entry='{entry}']")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#attempts td.delivered"))
        shot("07-outbox-retried", "the retried entry delivered again, with its attempts (outcome, latency)")

        driver.find_element(By.CSS_SELECTOR, "nav button[data-view='activity']").click()
        visible("activity-view")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#transitions-chart polyline[data-kind='created']"))
        shot("08-activity", "open rooms by plugin (bars) and transitions per minute (lines), drawn as SVG")
        check(driver.find_elements(By.CSS_SELECTOR, "#open-rooms-chart rect"), "the open-rooms chart has bars")
        # Usage by hour (#30): the rooms this check made count as room-minutes within the hour.
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#usage-chart rect[data-kind='room']"))
        driver.execute_script("document.getElementById('chart-usage').scrollIntoView()")
        shot("08b-usage", "the tenant's usage by hour: room- and member-minutes as bars, a CSV export button")
        check(driver.find_elements(By.ID, "usage-csv"), "the usage view offers the CSV export")
        # The tenant's budgets and quotas and what it uses now (#41).
        wait.until(lambda d: "Client requests" in d.find_element(By.ID, "limits").text)
        driver.execute_script("document.getElementById('limits').scrollIntoView()")
        shot("08c-limits", "the tenant's request budgets (whole and this instance's share), open-room quotas and what it uses now")
        check("Open rooms" in driver.find_element(By.ID, "limits").text, "the limits table shows what the tenant uses")

        Select(driver.find_element(By.ID, "tenant-select")).select_by_value("hooks")
        driver.find_element(By.CSS_SELECTOR, "nav button[data-view='webhooks']").click()
        visible("webhooks-view")
        click("#webhooks tr[data-endpoint='backend'] button.send-test")
        wait.until(lambda d: "queued" in d.find_element(By.ID, "webhooks-result").text)
        shot("09-webhooks", "the hooks tenant's endpoint (no secret shown) and a test event queued")
        check("whsec_" not in driver.page_source, "no webhook secret reaches the page")

        driver.find_element(By.ID, "signout").click()
        visible("signin-view")
        check(driver.execute_script("return sessionStorage.length") == 0, "signing out forgets the key")
        driver.find_element(By.ID, "key").send_keys("demo-admin-key")
        driver.find_element(By.ID, "signin").click()
        visible("rooms-view")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#rooms tr[data-room='{room}']"))
        options = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "tenant-select")).options]
        shot("10-tenant-admin", "signed in with demo's key: demo's rooms only")
        check(options == ["demo"], f"a tenant admin sees its own tenant only, not {options}")
        check("tenant-admin" in driver.find_element(By.ID, "whoami").text, "the console says who is signed in")

        # A key made through the API with the read scope only (#44): the
        # console names it and offers none of the moderation it may not do.
        made = urllib.request.Request(URL + "/admin/v1/tenants/demo/keys", method="POST",
                                      data=json.dumps({"label": "console-reader", "scopes": ["read"]}).encode(),
                                      headers={"Authorization": "Bearer demo-admin-key", "Content-Type": "application/json"})
        reader = json.load(urllib.request.urlopen(made, timeout=10))
        driver.find_element(By.ID, "signout").click()
        visible("signin-view")
        driver.find_element(By.ID, "key").send_keys(reader["key"])
        driver.find_element(By.ID, "signin").click()
        visible("rooms-view")
        wait.until(lambda d: "console-reader" in d.find_element(By.ID, "whoami").text)
        driver.find_element(By.CSS_SELECTOR, "nav button[data-view='sessions']").click()
        visible("sessions-view")
        shot("11-read-only-key", "signed in with a key of the read scope only: named in the header, no revoke or ban forms")
        check(not driver.find_element(By.ID, "revoke-form").is_displayed(), "a read-only key is not offered session revocation")
        driver.find_element(By.CSS_SELECTOR, "nav button[data-view='bans']").click()
        visible("bans-view")
        check(not driver.find_element(By.ID, "tenant-ban-form").is_displayed(), "a read-only key is not offered a tenant ban")
        check(reader["key"] not in driver.page_source, "the key is not in the page")

        errors = [entry["message"] for entry in driver.get_log("browser")
                  if entry["level"] == "SEVERE" and "favicon" not in entry["message"]]
        check(not errors, f"the browser logged no errors (CSP violations included): {errors}")
    except TimeoutException as error:
        shot("99-failure", "where the check stopped")
        check(False, f"timed out waiting in the browser ({error.msg or 'no message'}); see {SHOTS}/99-failure.png; "
                     + where_it_stopped(driver, traceback.extract_tb(error.__traceback__)))
    finally:
        driver.quit()
    for path, what in shots:
        print(f"console check: {path}: {what}")
    print(f"console check: {len(shots)} screenshots, {'no failures' if not failures else str(len(failures)) + ' failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

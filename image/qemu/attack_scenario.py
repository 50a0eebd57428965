"""The attack scenario (issue 44, docs/security.md): a shell as the daemon's user, inside a copy of its unit's
sandbox, as a decoder taken over by a crafted file would have it, tries every route to root, to root's state,
to a program of its own being run, and to an update the maker did not make. Each must fail while the box
keeps its daemon and its history. Run by update_scenarios after the updates (the stick with the test's
bundles, an older build among them, is attached).

The copy of the sandbox is the daemon's unit's settings with one difference: /usr/bin and /usr/sbin may be
run, so the attacker has a shell and the system's tools (the daemon itself may run only stillroomd and its
libraries). That is more than a taken-over daemon has, never less."""

import json
import os

# STILLROOM_ATTACK_AS_BEFORE=1 (never under CI): before the routes, root puts back the boundaries as they were
# before issue 44 (the data partition's top the daemon's, the agent's folder writable by its group), to see
# the scenario fail on them. Recorded in docs/security.md.
AS_BEFORE = os.environ.get("STILLROOM_ATTACK_AS_BEFORE") == "1" and os.environ.get("CI") not in ("true", "1")
WEAKEN = ("chown stillroom:stillroom /var/lib/stillroom && chmod 0750 /var/lib/stillroom && "
          "chgrp stillroom /run/stillroom-update && chmod 0770 /run/stillroom-update")

# The daemon's sandbox (board/systemd/stillroom.service) for a transient unit, and the attacker's shell.
SANDBOX = [
    "User=stillroom", "Group=stillroom", "SupplementaryGroups=audio video render input gpio",
    "NoNewPrivileges=yes", "CapabilityBoundingSet=", "AmbientCapabilities=",
    "ProtectSystem=strict", "ReadWritePaths=/var/lib/stillroom/stillroomd /run/stillroom", "ProtectHome=yes",
    "TemporaryFileSystem=/tmp:mode=1777,nosuid,nodev,noexec /var/tmp:mode=1777,nosuid,nodev,noexec",
    "TemporaryFileSystem=/dev/shm:mode=1777,nosuid,nodev,noexec",
    "NoExecPaths=/", "ExecPaths=/usr/bin /usr/sbin /usr/lib -/usr/lib64",
    "ProtectProc=invisible", "ProcSubset=pid", "PrivateIPC=yes", "PrivateMounts=yes",
    "DevicePolicy=closed", "DeviceAllow=char-alsa rw", "DeviceAllow=char-input rw",
    "ProtectKernelTunables=yes", "ProtectKernelModules=yes", "ProtectKernelLogs=yes", "ProtectControlGroups=yes",
    "ProtectHostname=yes", "ProtectClock=yes", "RestrictNamespaces=yes", "RestrictRealtime=yes",
    "RestrictSUIDSGID=yes", "LockPersonality=yes", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK",
    "SystemCallArchitectures=native", "SystemCallFilter=@system-service", "SystemCallFilter=~@privileged @resources",
    "SystemCallErrorNumber=EPERM", "UMask=0027",
]

# Each line: a route's name and the shell that tries it; the route succeeds when the shell exits 0 (one that
# hangs is cut after 20 s by `timeout`, which exits 124: not a success).
ROUTES = r"""
top-link|ln -s /etc/shadow /var/lib/stillroom/.planted
top-rename|mv /var/lib/stillroom/.update /var/lib/stillroom/.update-moved
top-new-folder|mkdir /var/lib/stillroom/.wifi-planted
update-pending|echo A > /var/lib/stillroom/.update/pending
update-state-read|ls /var/lib/stillroom/.update
wifi-config|printf 'network={\n\tssid="attacker"\n\tkey_mgmt=NONE\n}\n' > /var/lib/stillroom/.wifi/wpa_supplicant.conf
sshd-host-key|cat /var/lib/stillroom/.sshd/ssh_host_ed25519_key
reports-link|ln -s /etc/ld.so.preload /run/stillroom-update/progress.new
reports-forged|echo state=installed > /run/stillroom-update/progress
downgrade-allowance|echo allowed > /run/stillroom-update/allow-downgrade
run-from-dev-shm|cp /usr/bin/true /dev/shm/t && chmod 0755 /dev/shm/t && /dev/shm/t
run-from-tmp|cp /usr/bin/true /tmp/t && chmod 0755 /tmp/t && /tmp/t
run-from-data-folder|cp /usr/bin/true /var/lib/stillroom/stillroomd/t && chmod 0755 /var/lib/stillroom/stillroomd/t && /var/lib/stillroom/stillroomd/t; s=$?; rm -f /var/lib/stillroom/stillroomd/t; exit $s
preload|echo /var/lib/stillroom/stillroomd/evil.so >> /etc/ld.so.preload
replace-a-program|cp /usr/bin/true /usr/lib/stillroom/stillroom-update-agent
unit-override|mkdir -p /etc/systemd/system/stillroom-update.service.d
su-root|timeout 20 su -c id root </dev/null
kill-init|kill -9 1
mount-boot-partition|timeout 20 mount -o rw LABEL=STILLBOOT /tmp
start-the-agent|timeout 20 systemctl start --no-ask-password stillroom-update.service
reboot|timeout 20 systemctl reboot --no-ask-password
raw-block-device|head -c 512 /dev/disk/by-label/stillroom-data
kernel-module|modprobe dummy
"""


def run(box, report, check, stick, boot_budget):
    """The scenario's body; `stick` is where the test's bundles are mounted in the guest."""
    if not box.out("systemctl is-active stillroom.service") == "active":
        raise AssertionError("the daemon is not running before the attack")
    before = {
        "history": exported_runs(box),
        "watched": box.out("sha256sum /etc/shadow /etc/passwd /usr/lib/stillroom/stillroom-update-agent; "
                           "stat -c '%n %U %a' /etc /etc/shadow /var/lib/stillroom /var/lib/stillroom/.update; "
                           "ls -la /etc/ld.so.preload 2>&1; ls /var/lib/stillroom/.update"),
        "boot": box.out("/usr/lib/stillroom/stillroom-boot-select status"),
    }
    # The box plays through the attack: a taken-over daemon is still the daemon the owner hears.
    played = box.ctl("play", "test-sweep")
    check(played[0] == 0, "play before the attack: %s" % (played,))

    def as_daemon(script, name="attack"):
        box.out("cat > /run/%s.sh <<'END'\n%s\nEND\nchmod 0644 /run/%s.sh" % (name, script, name))
        properties = " ".join("-p '%s'" % p for p in SANDBOX)
        return box.run("systemd-run --quiet --wait --pipe --collect %s /bin/sh /run/%s.sh" % (properties, name),
                       timeout=300)

    if AS_BEFORE:
        box.out(WEAKEN)
    # 1. Every route in turn: each line says how it ended.
    script = "\n".join(
        "if ( %s ) >/run/stillroom/attack-out 2>&1; then echo \"SUCCEEDED %s: $(tail -1 /run/stillroom/attack-out)\"; "
        "else echo \"refused %s: $(tail -1 /run/stillroom/attack-out)\"; fi" % (shell, name, name)
        for name, shell in (line.split("|", 1) for line in ROUTES.strip().splitlines()))
    status, out = as_daemon(script)
    lines = [line for line in out.splitlines() if line.startswith(("refused ", "SUCCEEDED "))]
    tried = len(ROUTES.strip().splitlines())
    check(len(lines) == tried, "the attacker's shell reported %d of %d routes: %s" % (len(lines), tried, out[-1500:]))
    succeeded = [line for line in lines if line.startswith("SUCCEEDED")]
    outcomes = {line.split(":", 1)[0].split(" ", 1)[1]: line.split(":", 1)[1].strip()[:100] for line in lines}

    playing = box.status().get("state")
    check(playing == "playing", "the box stopped playing during the attack's routes: %s" % playing)

    # 2. Requests through the daemon's own channel, which it may write: what the agent (root) makes of them.
    def request_taken(label):
        box.wait_until("the agent to take the %s request" % label,
                       lambda: box.run("test -e /run/stillroom/update-request -o -L /run/stillroom/update-request")[0] != 0,
                       120, interval=1.0)
        box.wait_until("the agent to finish with the %s request" % label, lambda: box.out(
            "systemctl show -p ActiveState --value stillroom-update.service") in ("inactive", "failed"), 300, interval=1.0)

    def refusals_said():
        return int(box.out("journalctl -u stillroom-update -o cat --no-pager | grep -c 'not a plain file: refused' || true") or 0)

    said_before = refusals_said()
    as_daemon("ln -s /etc/shadow /run/stillroom/update-request", "attack-link")
    request_taken("link")
    link_refused = refusals_said() == said_before + 1
    outcomes["request-as-a-link"] = "refused unread" if link_refused else "not refused"
    as_daemon("mkfifo /run/stillroom/update-request", "attack-fifo")
    request_taken("FIFO")
    fifo_refused = refusals_said() == said_before + 2
    outcomes["request-as-a-fifo"] = "refused unread" if fifo_refused else "not refused"
    as_daemon("printf 'action=install\\nsource=%s/older.raucb\\nallow-downgrade=yes\\n' > /run/stillroom/update-request.new"
              " && mv /run/stillroom/update-request.new /run/stillroom/update-request" % stick, "attack-downgrade")
    request_taken("downgrade")
    progress = box.out("cat /run/stillroom-update/progress")
    downgrade_refused = "state=failed" in progress and "versions only go forward" in progress
    outcomes["downgrade-through-the-agent"] = next((l for l in progress.splitlines() if l.startswith("message=")), progress)[:120]
    for name, refused in (("request-as-a-link", link_refused), ("request-as-a-fifo", fifo_refused),
                          ("downgrade-through-the-agent", downgrade_refused)):
        tried += 1
        if not refused:
            succeeded.append("SUCCEEDED %s: %s" % (name, outcomes[name]))

    # 3. Links planted in the daemon's own folder, then a boot: root lays the partition out and follows none.
    as_daemon("ln -s /etc/shadow /var/lib/stillroom/stillroomd/planted-file && "
              "ln -s /etc /var/lib/stillroom/stillroomd/planted-folder && "
              "ln -s /etc /var/lib/stillroom/stillroomd/.future-root-state", "attack-links")
    targets = box.out("stat -c '%n %U %G %a' /etc /etc/shadow")
    box.power_off()
    box.boot()
    box.wait_agent()
    box.wait_ready(timeout=boot_budget)
    tried += 2
    after_boot = box.out("stat -c '%n %U %G %a' /etc /etc/shadow")
    if after_boot != targets:
        succeeded.append("SUCCEEDED layout-follows-a-link: %s → %s" % (targets, after_boot))
    if box.run("test -e /var/lib/stillroom/.future-root-state -o -L /var/lib/stillroom/.future-root-state")[0] == 0:
        succeeded.append("SUCCEEDED a-daemon-name-became-a-root-dot-name")
    outcomes["layout-at-boot"] = after_boot.replace("\n", "; ")
    box.run("rm -f /var/lib/stillroom/stillroomd/planted-file /var/lib/stillroom/stillroomd/planted-folder "
            "/var/lib/stillroom/stillroomd/.future-root-state")

    # 4. Nothing followed, nothing lost: root's files as they were, the history kept, the daemon answering.
    after = box.out("sha256sum /etc/shadow /etc/passwd /usr/lib/stillroom/stillroom-update-agent; "
                    "stat -c '%n %U %a' /etc /etc/shadow /var/lib/stillroom /var/lib/stillroom/.update; "
                    "ls -la /etc/ld.so.preload 2>&1; ls /var/lib/stillroom/.update")
    check(after == before["watched"], "root's files changed:\n%s\n→\n%s" % (before["watched"], after))
    check(box.out("/usr/lib/stillroom/stillroom-boot-select status") == before["boot"], "the slot selection changed")
    runs = exported_runs(box)
    lost = [run for run in before["history"] if run not in runs]
    check(not lost, "practice runs lost: %s" % lost[:3])
    played = box.ctl("play", "test-sweep")
    status = box.status()
    check(played[0] == 0 and status.get("state") == "playing", "play after the attack: %s %s" % (played, status.get("state")))
    report.figure("attack.routes_tried", tried)
    report.figure("attack.routes_succeeded", len(succeeded))
    report.figure("attack.outcomes", outcomes)
    check(not succeeded, "%d of %d routes succeeded:\n%s" % (len(succeeded), tried, "\n".join(succeeded)))
    check(status_ok(status), "the daemon's status after the attack: %s" % json.dumps(status)[:400])
    return "%d routes tried as the daemon's user in its sandbox, none succeeded; root's files, the slots and the history unchanged; plays" % tried


def status_ok(status):
    return isinstance(status, dict) and status.get("state") in ("playing", "loading")


def exported_runs(box):
    """Every practice run the box keeps, as `stillroomctl history export --format json` gives them."""
    return json.loads(box.out("stillroomctl history export --format json")).get("runs", [])

#!/usr/bin/env python3
"""The system test: boots the amd64 appliance image in QEMU (TCG) and walks the box through its
scenarios with real kernel drivers. Run by scripts/system-test (which builds the image first).

    system_test.py IMAGE_DIR WORK_DIR [--report FILE] [--arch amd64|arm64] [--part all|life|updates]

--part splits the scenarios over two boxes that can run at once (scripts/test runs them on its two cores):
`life` is the box's first boots, playback, power cuts and cards, each scenario on the box the one before
left; `updates` flashes a card of its own, plays a little to have a history to keep, and then installs,
rolls back and cuts the power around updates, and attacks from the daemon's sandbox. `all` (the default)
runs both on one box, one after the other.

Each scenario passes, fails or is skipped with a reason; the last line is "N passed, N failed, N skipped".
A scenario is skipped only when an earlier one it stands on failed (that failure is already counted); under
CI (CI=true) any skip fails the run too. A daemon that holds no input or DRM device fails the scenarios that
need one: the test looks at which device nodes the running daemon holds open."""

import base64
import json
import os
import re
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemubox import Box, BoxError, DATA_PARTITION, check_data_partition, read_png, read_ppm  # noqa: E402
import update_scenarios  # noqa: E402
import wifi_scenario  # noqa: E402

# Budgets only stop a test that would hang; the figures are recorded, not asserted (bench/ measures).
BOOT_BUDGET = 480          # s of guest time from kernel start to READY=1 under TCG on a busy 2-core host
WATCHDOG_BUDGET = 120      # s from SIGSTOP to a new READY=1 (the twin's WatchdogSec 30 + TimeoutAbortSec 5 + RestartSec 2 + start)
SILENT_RMS = 30.0          # a 16-bit capture quieter than this is silence (the fixtures play at about -10 dBFS)
AUDIBLE_RMS = 300.0
SSH_STATE = "/var/lib/stillroom/.sshd"  # the host key and authorized_keys, on the data partition
DATA = "/var/lib/stillroom/stillroomd"  # the daemon's folder on it (board/data/stillroom-data-layout)
# The twin's card is larger than the image, as every real card is: the data partition grows into the rest at
# the first boot (board/data/stillroom-grow-data). Later the card grows again, for a power cut while it grows.
CARD_LARGER_MIB = 512
CARD_LARGER_AGAIN_MIB = 512
GROW_SLACK_SECTORS = 8 * 2048  # what the growth leaves as not worth a write (its slack_sectors)
# The daemon holds its database alone while it runs (locking_mode EXCLUSIVE: docs/data.md), so the test
# reads a copy, as a power cut would leave the files: the database and its -wal, which the copy replays.
def GUEST_SQL(sql):
    return ("d=$(mktemp -d) && cp %s/stillroom.db %s/stillroom.db-wal \"$d\"/ && " % (DATA, DATA) +
            "sqlite3 \"$d/stillroom.db\" '%s'; rm -rf \"$d\"" % sql)


SUM_LISTENING = GUEST_SQL("SELECT ifnull(sum(actual_listening_seconds), 0) FROM practice_run")
HISTORY = "SELECT count(*), round(ifnull(sum(actual_listening_seconds), 0), 3) FROM practice_run"


class Skip(Exception):
    pass


class Report:
    def __init__(self, after_failure=None):
        self.results = []
        self.figures = {}
        # What the box itself says after a failed scenario (its daemon's journal), printed with the failure:
        # CI keeps only this output, and a failure on a slower host must carry its own cause.
        self.after_failure = after_failure

    def scenario(self, name, function):
        started = time.monotonic()
        print("== %s" % name, flush=True)
        try:
            detail = function() or ""
            outcome = "passed"
        except Skip as skip:
            outcome, detail = "skipped", str(skip)
        except (AssertionError, BoxError) as failure:
            outcome, detail = "failed", str(failure) or traceback.format_exc(limit=2)
        except Exception:  # a bug in the test itself still reports, and the run goes on
            outcome, detail = "failed", traceback.format_exc(limit=4)
        took = time.monotonic() - started
        print("   %s (%.1f s)%s" % (outcome.upper(), took, (": " + detail) if detail else ""), flush=True)
        if outcome == "failed" and self.after_failure is not None:
            try:
                for line in self.after_failure():
                    print("   | %s" % line, flush=True)
            except Exception as error:  # the box may be off or wedged: the failure above stands alone
                print("   | (the box could not say more: %s)" % error, flush=True)
        self.results.append({"scenario": name, "outcome": outcome, "detail": detail, "seconds": round(took, 1)})
        return outcome == "passed"

    def figure(self, key, value):
        self.figures[key] = value
        print("   %s = %s" % (key, value), flush=True)


SWEEP = "test-sweep"  # the fixture sweep image/add-test-sweep puts beside the real sessions
KNOB_DETENT_SECONDS = 15.0  # one detent of the knob in the player (docs/controls.md)



def chain_seconds(text):
    """"1min 2.345s" or "39.343s" or "120ms" → seconds."""
    match = re.fullmatch(r"(?:(\d+)min )?([0-9.]+)(ms|s)", text)
    if match is None:
        return None
    value = float(match.group(2)) / (1000.0 if match.group(3) == "ms" else 1.0)
    return int(match.group(1) or 0) * 60 + value


def units_that_held_up(chain):
    """The network's units in a critical chain that were active before the unit drawn above them."""
    held = []
    parent_at = float("inf")  # the first line is the daemon itself
    for line in (raw.strip() for raw in chain.splitlines() if raw.strip()):
        at = re.search(r"@((?:\d+min )?[0-9.]+m?s)", line)
        took = re.search(r"\+((?:\d+min )?[0-9.]+m?s)", line)
        at_seconds = chain_seconds(at.group(1)) if at else None
        active_at = None if at_seconds is None else at_seconds + (chain_seconds(took.group(1)) if took else 0.0)
        if ("resolved" in line or "network" in line) and active_at is not None and active_at <= parent_at:
            held.append(line)
        parent_at = at_seconds if at_seconds is not None else parent_at
    return held

def sweep_position(frequency):
    """Where in the fixture sweep (100 Hz to 2000 Hz, exponential over 120 s) a pitch is heard."""
    import math
    return 120 * math.log10(max(frequency, 1.0) / 100.0) / math.log10(20.0)


def new_ssh_key(work_dir, name, comment):
    """A throwaway ed25519 key pair made on the host as `name` and `name`.pub in work_dir; its path."""
    key = os.path.join(work_dir, name)
    for path in (key, key + ".pub"):
        if os.path.exists(path):
            os.unlink(path)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", key], check=True)
    return key


def provision_ssh_key(box, work_dir):
    """A throwaway key pair made on the host; its public half goes onto the working disk's boot partition
    as authorized_keys, with the CRLF line ends an editor elsewhere might save. Returns (private key path,
    the client's known_hosts path)."""
    key = new_ssh_key(work_dir, "ssh-key", "stillroom-system-test")
    authorized = os.path.join(work_dir, "authorized_keys")
    with open(key + ".pub") as source, open(authorized, "w", newline="") as target:
        target.write("# the system test's key\r\n" + source.read().strip() + "\r\n")
    box.put_boot_file("authorized_keys", authorized)
    return key, os.path.join(work_dir, "known_hosts")


def box_after_failure(box):
    """The daemon's unit state and its journal's last lines (monotonic time: the boot's own clock), or why
    the box cannot say."""
    if not box.running():
        return ["the box is off"]
    lines = ["stillroom.service: %s" % " ".join("%s=%s" % item for item in sorted(box.service().items()))]
    journal = box.run("journalctl -b -o short-monotonic --no-pager -u stillroom.service | tail -40", timeout=30)[1]
    return lines + journal.rstrip().splitlines()


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def main():
    image_dir, work_dir = sys.argv[1], sys.argv[2]
    report_path = sys.argv[sys.argv.index("--report") + 1] if "--report" in sys.argv else None
    arch = sys.argv[sys.argv.index("--arch") + 1] if "--arch" in sys.argv else "amd64"
    display_cost_seconds = float(sys.argv[sys.argv.index("--display-cost") + 1]) if "--display-cost" in sys.argv else 0
    part = sys.argv[sys.argv.index("--part") + 1] if "--part" in sys.argv else "all"
    if part not in ("all", "life", "updates"):
        print("system-test: --part all, life or updates", file=sys.stderr)
        return 2
    box = Box(image_dir, work_dir, log=print, arch=arch)
    report = Report(after_failure=lambda: box_after_failure(box))
    box.fresh_disk()
    state = {"data_mib_flashed": box.partition(DATA_PARTITION)[1] >> 20}
    box.grow_card(CARD_LARGER_MIB)
    ssh_key, known_hosts = provision_ssh_key(box, work_dir)
    if part != "updates":
        wifi_scenario.provision(box, work_dir)
    # STILLROOM_SYSTEM_TEST_ONLY=wifi: the first boot and the Wi-Fi scenarios only (docs/image.md); refused
    # under CI, where every scenario must run.
    only = [word for word in os.environ.get("STILLROOM_SYSTEM_TEST_ONLY", "").split(",") if word]
    if only and os.environ.get("CI") in ("true", "1"):
        print("system-test: STILLROOM_SYSTEM_TEST_ONLY is set, and under CI every scenario must run", file=sys.stderr)
        return 1
    if only and only not in (["wifi"], ["screen"], ["attack"]):
        print("system-test: STILLROOM_SYSTEM_TEST_ONLY knows only 'wifi', 'screen' and 'attack'", file=sys.stderr)
        return 2

    # ---- boot 1 ------------------------------------------------------------------------------------------
    def boot_to_ready():
        box.boot()
        agent_after = box.wait_agent()
        props = box.wait_ready(timeout=BOOT_BUDGET)
        host_seconds = time.monotonic() - box.launched_at
        ready_guest = int(props["ActiveEnterTimestampMonotonic"]) / 1e6
        report.figure("boot1.ready_guest_seconds", round(ready_guest, 1))
        report.figure("boot1.ready_host_seconds", round(host_seconds, 1))
        report.figure("boot1.agent_host_seconds", round(agent_after, 1))
        check(ready_guest < BOOT_BUDGET, "READY=1 after %.1f s of guest time" % ready_guest)
        state["pid"] = props["MainPID"]
        return "READY=1 at %.1f s guest time (%.1f s on the host clock from QEMU's start)" % (ready_guest, host_seconds)

    def appliance_layout():
        root = box.out("findmnt -n -o FSTYPE /")
        check(root == "overlay", "root is %s, not the overlay" % root)
        lower = box.out("findmnt -n -o FSTYPE,OPTIONS /media/root-ro")
        check(lower.startswith("ext4") and ",ro" in "," + lower.split()[1], "lower root: %s" % lower)
        data = box.out("findmnt -n -o SOURCE,FSTYPE,OPTIONS /var/lib/stillroom")
        check(" ext4 " in " %s " % data and "rw" in data.split()[2].split(","), "data partition: %s" % data)
        label = box.out("blkid -s LABEL -o value %s" % data.split()[0])
        check(label == "stillroom-data", "data partition label %s" % label)
        # Nothing on the root survives: a file written there is in the RAM overlay.
        upper = box.out("findmnt -n -o OPTIONS / | tr , '\\n' | sed -n 's/^upperdir=//p'")
        check(upper.startswith("/media/root-rw"), "overlay upper dir %s" % upper)
        journal = box.out("journalctl --header | sed -n 's/^File path: //p' | head -1")
        check(journal.startswith("/run/log/journal/"), "journal file %s" % journal)
        check(box.run("ls /var/log/journal 2>/dev/null | grep -q .")[0] != 0, "a persistent journal exists")
        # The manual pages (board/man) are installed, whole: the help's first command is in the CLI's page.
        pages = box.out("ls /usr/share/man/man1/stillroomctl.1 /usr/share/man/man8/stillroomd.8 /usr/share/man/man5/stillroom-board.5 | wc -l")
        check(pages == "3", "manual pages installed: %s of 3" % pages)
        check(box.run("grep -q 'fBplay' /usr/share/man/man1/stillroomctl.1")[0] == 0, "stillroomctl(1) has no play command")
        return "root: overlay on read-only ext4; data: %s; journal in %s; 3 manual pages" % (data.split()[0], journal.rsplit("/", 2)[0])

    # ---- the data partition grows to the end of the card -------------------------------------------------
    def data_partition_in_guest(label):
        """Once stillroom-grow-data has run: (partition MiB, ext4 MiB, what it logged), as the guest's kernel
        and the superblock have them; the partition and its ext4 must reach the end of the disk."""
        unit = "stillroom-grow-data.service"
        box.wait_until(unit + " done", lambda: box.run("systemctl is-active " + unit)[1].strip() in ("active", "failed"),
                       300, interval=1.0)
        said = box.run("journalctl -b -u %s -o cat --no-pager" % unit)[1].strip()
        active = box.run("systemctl is-active " + unit)[1].strip()
        check(active == "active", "%s is %s: %s" % (unit, active, said))
        lines = box.out(
            "p=$(basename $(readlink -f $(findmnt -n -o SOURCE /var/lib/stillroom))); "
            "d=$(basename $(readlink -f /sys/class/block/$p/..)); "
            "echo $p $d $(cat /sys/class/block/$d/size /sys/class/block/$p/start /sys/class/block/$p/size); "
            "dumpe2fs -h /dev/$p 2>/dev/null | sed -n 's/^Block count: *//p; s/^Block size: *//p'").splitlines()
        part, disk, disk_sectors, start, sectors = lines[0].split()
        disk_sectors, start, sectors = int(disk_sectors), int(start), int(sectors)
        ext4_sectors = int(lines[1]) * int(lines[2]) // 512
        times = box.out("systemctl show %s -p ExecMainStartTimestampMonotonic -p ExecMainExitTimestampMonotonic" % unit)
        stamps = dict(line.split("=", 1) for line in times.splitlines())
        took = (int(stamps["ExecMainExitTimestampMonotonic"]) - int(stamps["ExecMainStartTimestampMonotonic"])) / 1e6
        report.figure(label + ".grow_data_log", said.splitlines())
        report.figure(label + ".grow_data_unit_seconds", round(took, 2))
        report.figure(label + ".data_partition_and_ext4_mib", [sectors // 2048, ext4_sectors // 2048])
        check(start + sectors == disk_sectors // 2048 * 2048,
              "/dev/%s ends at sector %d; /dev/%s's last whole MiB ends at %d" % (part, start + sectors, disk, disk_sectors // 2048 * 2048))
        check(sectors - ext4_sectors < GROW_SLACK_SECTORS,
              "ext4 is %d MiB in a partition of %d MiB" % (ext4_sectors // 2048, sectors // 2048))
        return sectors // 2048, ext4_sectors // 2048, said

    def grew_line(said):
        return " | ".join(line for line in said.splitlines() if line.startswith("stillroom-grow-data: ")) or "nothing"

    def data_partition_grows():
        flashed = state["data_mib_flashed"]
        partition, ext4, said = data_partition_in_guest("boot1")
        check(partition == flashed + CARD_LARGER_MIB,
              "the data partition is %d MiB: flashed %d MiB on a card %d MiB larger" % (partition, flashed, CARD_LARGER_MIB))
        check("stillroom-grow-data: grew " in said, "no growth logged: %s" % said)
        df = int(box.out("df -B1M --output=size /var/lib/stillroom | tail -1"))
        report.figure("boot1.data_df_mib", df)
        # The doctor's data storage line: the data folder is the partition, not the RAM overlay.
        doctor = json.loads(box.run("stillroomctl doctor --json")[1])
        storage = [c for c in doctor["checks"] if c["check"] == "data storage"]
        check(storage and storage[0]["ok"] and " on ext4" in storage[0]["detail"], "doctor's data storage: %s" % storage)
        return "%d MiB flashed → partition %d MiB, ext4 %d MiB (df %d MiB), to the disk's end; %s; doctor: %s" % (
            flashed, partition, ext4, df, grew_line(said), storage[0]["detail"])

    def hardware_watchdog():
        identity = box.out("cat /sys/class/watchdog/watchdog0/identity")
        active = box.out("cat /sys/class/watchdog/watchdog0/state")
        timeout = box.out("cat /sys/class/watchdog/watchdog0/timeout")
        check("6300" in identity, "watchdog device: %s" % identity)
        check(active == "active", "watchdog state: %s" % active)
        expected = "120" if arch == "arm64" else "15"  # the arm64 twin's emulated CPU gets 120 s (image/build)
        check(timeout == expected, "watchdog timeout: %s" % timeout)
        return "%s, %s, %s s, petted by systemd" % (identity, active, timeout)

    def daemon_mounts(pid):
        """The daemon's mount table as (mount point, options, file system type), from /proc/PID/mountinfo."""
        table = []
        for line in box.out("cat /proc/%s/mountinfo" % pid).splitlines():
            fields = line.split()
            dash = fields.index("-")
            table.append((fields[4].replace("\\040", " "), fields[5].split(","), fields[dash + 1]))
        return table

    def mount_of(table, path):
        """The mount that holds `path` in `table`: the last (topmost) of the longest matching mount points."""
        best = None
        for point, options, kind in table:
            if path == point or path.startswith(point.rstrip("/") + "/"):
                if best is None or len(point) >= len(best[0]):
                    best = (point, options, kind)
        return best

    def hardening():
        pid = box.service()["MainPID"]
        user = box.out("stat -c %%U /proc/%s" % pid)
        check(user == "stillroom", "daemon runs as %s" % user)
        status = box.out("grep -E '^(NoNewPrivs|CapEff|Groups)' /proc/%s/status" % pid)
        check("NoNewPrivs:\t1" in status, "NoNewPrivs: %s" % status)
        check("CapEff:\t0000000000000000" in status, "capabilities: %s" % status)
        # Its mounts, read from the host (nothing can be run inside its namespace: NoExecPaths=/ leaves only
        # stillroomd and the libraries executable there, which is the point).
        mounts = daemon_mounts(pid)
        # ProtectSystem=strict: the daemon's view of /etc is read-only even though the overlay is writable.
        check(mount_of(mounts, "/etc")[1][0] == "ro", "/etc in the daemon's namespace: %s" % (mount_of(mounts, "/etc"),))
        check(mount_of(mounts, DATA)[1][0] == "rw", "%s in the daemon's namespace: %s" % (DATA, mount_of(mounts, DATA)))
        # The partition's top, root's, is read-only for it too (docs/security.md).
        top = mount_of(mounts, "/var/lib/stillroom")
        check(top[1][0] == "ro", "/var/lib/stillroom in the daemon's namespace: %s" % (top,))
        # Its own /tmp, /var/tmp and /dev/shm (a read-only card's database is copied there to be read): empty
        # tmpfs, writable for everyone in it (1777), seen by nobody else; nothing written there can be run, nor
        # anything in its data folder.
        for folder in ("/tmp", "/var/tmp", "/dev/shm"):
            point, options, kind = mount_of(mounts, folder)
            check(point == folder and kind == "tmpfs", "%s in the daemon's namespace: %s" % (folder, (point, options, kind)))
            mode = box.out("stat -c %%a /proc/%s/root%s" % (pid, folder))
            check(mode == "1777", "the daemon's %s is mode %s" % (folder, mode))
        for folder in ("/tmp", "/var/tmp", "/dev/shm", DATA):
            check("noexec" in mount_of(mounts, folder)[1], "%s is not noexec for the daemon: %s" % (folder, mount_of(mounts, folder)))
        check("noexec" not in mount_of(mounts, "/usr/bin/stillroomd")[1], "stillroomd itself is noexec for it")
        # ... without PrivateTmp='s implicit order after the boot-wide systemd-tmpfiles-setup, or anything
        # else boot-wide that serves no PLAY (docs/performance.md, "Boot → READY").
        after = set(box.out("systemctl show -p After --value stillroom.service").split())
        boot_wide = after & {"systemd-tmpfiles-setup.service", "tmp.mount", "local-fs.target", "sysinit.target",
                             "basic.target", "sound.target", "systemd-udev-trigger.service",
                             "systemd-udev-settle.service", "modprobe@drm.service"}
        check(not boot_wide, "the daemon's unit is ordered after %s" % sorted(boot_wide))
        exposure = box.run("systemd-analyze security stillroom.service --no-pager 2>/dev/null | tail -1")[1].strip()
        report.figure("systemd_analyze_security", exposure)
        devices = box.open_devices(pid)
        state["devices"] = devices
        report.figure("daemon_open_devices", devices)
        return ("user stillroom, NoNewPrivs, no capabilities, /etc read-only, the data directory and its own "
                "tmpfs /tmp writable for it, ordered after nothing boot-wide")

    # ---- SSH -----------------------------------------------------------------------------------------------
    def host_key_on_data_partition():
        """The box's host key as the guest has it: on the data partition, root's alone; its fingerprint."""
        box.wait_until("ssh.service active", lambda: box.run("systemctl is-active ssh.service")[1].strip() == "active",
                       120, interval=1.0)
        owners = box.out("stat -c '%%U %%a' %s %s/ssh_host_ed25519_key" % (SSH_STATE, SSH_STATE)).split("\n")
        check(owners == ["root 700", "root 600"], "host key directory and key: %s" % owners)
        mount = box.out("findmnt -n -o TARGET -T %s" % SSH_STATE)
        check(mount == "/var/lib/stillroom", "the host key is on %s, not the data partition" % mount)
        daemon_reads = box.run("setpriv --reuid stillroom --regid stillroom --clear-groups "
                               "cat %s/ssh_host_ed25519_key" % SSH_STATE)[0]
        check(daemon_reads != 0, "the daemon's user can read the host key")
        return box.out("ssh-keygen -l -f %s/ssh_host_ed25519_key.pub | cut -d' ' -f2" % SSH_STATE)

    def ssh_in(command, first=False, key=None):
        """Over SSH with the provisioned key (or `key`), retrying while sshd or the guest's DHCP lease is not
        there yet."""
        def attempt():
            status, out, err = box.ssh(command, key or ssh_key, known_hosts, new_host_key=first)
            state["ssh_last"] = err.strip()
            return (status, out, err) if status != 255 else None
        try:
            return box.wait_until("ssh " + command, attempt, 90, interval=2.0)
        except BoxError as failure:
            raise BoxError("%s; ssh said: %s" % (failure, state.get("ssh_last")))

    def ssh_maintenance():
        images_keys = box.run("ls /media/root-ro/etc/ssh/ssh_host_* 2>/dev/null")[1].strip()
        check(images_keys == "", "the image carries host keys: %s" % images_keys)
        # Offline-first: the daemon's unit neither pulls in nor waits for the network.
        ordering = box.out("systemctl show stillroom.service -p Wants -p Requires -p After")
        check("network" not in ordering, "the daemon's unit depends on the network: %s" % ordering)
        # What the daemon's start really waited for: nothing of the network's.
        chain = box.run("systemd-analyze critical-chain stillroom.service --no-pager 2>/dev/null | tail -n +3")[1]
        report.figure("boot1.critical_chain", [line.strip() for line in chain.splitlines() if line.strip()])
        # critical-chain draws each unit's latest activation: systemd-resolved, started by the DHCP lease
        # after sysinit.target, can appear under it (its unit orders itself before it). A unit can only
        # have held up the one drawn above it if it was active before that one was: same clock, same list
        # (the daemon's ExecMainStartTimestampMonotonic counts from the kernel's start, the chain from
        # userspace's, so the two cannot be compared).
        started = int(box.out("systemctl show -p ExecMainStartTimestampMonotonic --value stillroom.service")) / 1e6
        report.figure("boot1.daemon_started_at", round(started, 2))
        waited = units_that_held_up(chain)
        check(not waited, "the daemon's start waited for: %s" % waited)
        # DNS from the DHCP lease: systemd-resolved, started by stillroom-dns.path once the lease is there.
        # (Asking resolvectl first would start it through D-Bus whatever the path unit did.)
        box.wait_until("systemd-resolved started", lambda: box.run(
            "systemctl is-active systemd-resolved.service")[1].strip() == "active", 60, interval=1.0)
        # Which DNS server the lease named and resolved took up: recorded, not asserted (QEMU's restricted
        # network has nothing to resolve names with anyway).
        report.figure("dns.lease", box.run("grep -h '^DNS=' /run/systemd/netif/leases/* 2>&1")[1].strip())
        report.figure("dns.resolvectl", box.run("resolvectl dns 2>&1")[1].strip())
        fingerprint = host_key_on_data_partition()
        state["host_key"] = fingerprint
        report.figure("ssh.host_key", fingerprint)
        started = time.monotonic()
        status, out, err = ssh_in("stillroomctl status --json", first=True)
        report.figure("ssh.first_command_seconds", round(time.monotonic() - started, 1))
        check(status == 0, "stillroomctl status over SSH: %d %s" % (status, err))
        remote, here = json.loads(out), box.status()
        check((remote["state"], remote.get("session")) == (here["state"], here.get("session")),
              "status over SSH %s, through the agent %s" % (remote["state"], here["state"]))
        # The key the client now remembers is the one on the data partition.
        seen = subprocess.run(["ssh-keygen", "-l", "-f", known_hosts], capture_output=True, text=True).stdout.split()
        check(len(seen) > 1 and seen[1] == fingerprint, "the client saw host key %s" % seen[1:2])
        doctor_status, doctor, err = ssh_in("stillroomctl doctor")
        agent_status, _ = box.ctl("doctor")
        check(doctor_status == agent_status and "database" in doctor,
              "doctor over SSH: %d (agent: %d): %s %s" % (doctor_status, agent_status, doctor, err))
        # Passwords are not even offered: the server lists only publickey.
        status, out, err = box.ssh("true", ssh_key, known_hosts, options=(
            "-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=password,keyboard-interactive"))
        check(status == 255 and "Permission denied (publickey)" in err, "a password login: %d %s" % (status, err))
        return ("status (%s) and doctor (exit %d) over ssh -p %d root@127.0.0.1 with the key from the boot "
                "partition; host key %s on the data partition, root's only, none in the image; password "
                "login refused (%s)" % (remote["state"], doctor_status, box.ssh_port, fingerprint,
                                         err.strip().splitlines()[-1]))

    def ssh_after_reboot():
        if "host_key" not in state:
            raise Skip("SSH did not work on the first boot")
        fingerprint = host_key_on_data_partition()
        check(fingerprint == state["host_key"], "host key %s, before the reboot %s" % (fingerprint, state["host_key"]))
        # StrictHostKeyChecking=yes with the first boot's known_hosts: a changed key would be refused.
        status, out, err = ssh_in("stillroomctl status --json")
        check(status == 0, "stillroomctl status over SSH: %d %s" % (status, err))
        return ("same host key %s after the power cut and boot; the client's known_hosts still matches; logged in "
                "with the key kept on the data partition, authorized_keys gone from the boot partition; state %s" % (
                    fingerprint, json.loads(out)["state"]))

    def devices_for(kind):
        devices = state.get("devices", [])
        if kind == "drm":
            return [d for d in devices if d.startswith("/dev/dri/")]
        return [d for d in devices if d.startswith("/dev/input/")]

    def play_audio():
        # Night mode (auto: from 21:00 local time, and the guest runs on UTC) caps the volume below what
        # AUDIBLE_RMS assumes: without this the scenario failed whenever the test ran in the evening.
        status, output = box.ctl("settings", "set", "night-mode", "off")
        check(status == 0, "stillroomctl settings set night-mode off: %s" % output)
        # The knob's scenario turns the knob on the player, reached by this PLAY. Paused and untouched for
        # dim-after (30 s) the player gives way to the clock face, where a turn only shows the library:
        # on the emulated arm64 machine the scenarios in between took longer than that, and the knob
        # missed its seek. The screen's own timing is not what these scenarios test.
        for key, seconds in (("dim-after", "3600"), ("dark-after", "7200")):
            status, output = box.ctl("settings", "set", key, seconds)
            check(status == 0, "stillroomctl settings set %s %s: %s" % (key, seconds, output))
        check(devices_for("input"), "the daemon holds no /dev/input device open: the evdev backend did not start")
        box.control("tap play")
        playing = box.wait_until("playing", lambda: (lambda s: s if s["state"] == "playing" else None)(box.status()), 30)
        state["first_session"] = playing["session"]
        # A few seconds in: a real session may open with a fade-in or a breath of silence.
        box.wait_until("position past 4 s", lambda: box.status()["position"] > 4.0, 60)
        rms, _, frames = box.record(2)
        report.figure("play.capture_rms", rms)
        check(frames >= 44100 and rms > AUDIBLE_RMS, "the loopback heard RMS %.1f in %d frames: silence" % (rms, frames))
        return "PLAY pressed (uinput) → playing %s; loopback RMS %.0f" % (playing["session"], rms)

    def sweep_heard_where_status_says():
        """The fixture sweep, whose pitch says where in it the sound is: what is heard must be where the
        daemon says playback is. Fails if the sweep is not what plays."""
        status, output = box.ctl("play", SWEEP)
        check(status == 0, "stillroomctl play %s: %s" % (SWEEP, output))
        playing = box.wait_until("the sweep playing", lambda: (lambda s: s if s["state"] == "playing" else None)(box.status()), 30)
        check(playing["session"] == SWEEP, "playing %s, not the sweep" % playing["session"])
        state["session"] = SWEEP
        # Past 20 s the tone is above 160 Hz, where the zero-crossing estimate is steady.
        box.ctl("seek", "0:20")
        box.wait_until("position past 21 s", lambda: box.status()["position"] > 21.0, 60)
        return heard_matches_status("sweep")

    def heard_matches_status(label):
        """Records 2 s of the fixture sweep from the loopback; its pitch must place it where `stillroomctl
        status` said playback was over those 2 s. Returns (text, where heard)."""
        before = box.status()
        rms, frequency, frames = box.record(2)
        after = box.status()
        check(before["session"] == SWEEP and after["session"] == SWEEP and after["state"] == "playing",
              "the sweep is not what plays: %s %s" % (after["session"], after["state"]))
        start, end = before["position"], after["position"]
        report.figure(label + ".capture_rms", rms)
        report.figure(label + ".capture_frequency_hz", frequency)
        check(frames >= 44100, "captured only %d frames" % frames)
        check(rms > AUDIBLE_RMS, "the loopback heard RMS %.1f: silence" % rms)
        check(end > start, "the position did not move while recording: %.2f → %.2f" % (start, end))
        where = sweep_position(frequency)
        report.figure(label + ".heard_at_seconds", round(where, 2))
        report.figure(label + ".status_window", [round(start, 2), round(end, 2)])
        check(start - 1.0 <= where <= end + 1.0,
              "the sweep's pitch puts the sound at %.2f s; status said %.2f..%.2f s" % (where, start, end))
        state["heard_at"] = where
        return "loopback RMS %.0f, %.0f Hz = %.2f s into the sweep; status %.2f..%.2f s" % (rms, frequency, where, start, end)

    def seek_while_paused(label, words, target_of):
        """Pauses, seeks (`words`), checks the paused position is `target_of(paused_at)`, plays and checks by
        the pitch that the sound starts there: heard no earlier than the target and no later than where
        status says playback had got to by the end of the recording, whatever the machine's speed."""
        status, output = box.ctl("pause")
        check(status == 0, "pause: %s" % output)
        paused = box.wait_until("paused", lambda: (lambda s: s if s["state"] == "paused" else None)(box.status()), 30)
        target = target_of(paused["position"])
        status, output = box.ctl(*words)
        check(status == 0, "%s: %s" % (" ".join(words), output))
        landed = box.wait_until("the seek taken", lambda: (lambda s: s if abs(s["position"] - target) < 0.2 else None)(box.status()), 30)
        status, output = box.ctl("play")
        check(status == 0, "play: %s" % output)
        box.wait_until("playing", lambda: box.status()["state"] == "playing", 30)
        heard = heard_matches_status(label)
        end = box.status()["position"]
        check(target - 1.0 <= state["heard_at"] <= end + 1.0,
              "%s from %.2f s: the sweep is heard at %.2f s, the target %.2f s (status %.2f s at the end)" % (
                  " ".join(words), paused["position"], state["heard_at"], target, end))
        return "%s → %.2f s; %s" % (" ".join(words), landed["position"], heard)

    def seek_by_control():
        """Seeks land where they were asked to, by the pitch heard after each."""
        to_60 = seek_while_paused("seek.to_60", ("seek", "1:00"), lambda _: 60.0)
        back = seek_while_paused("seek.back_30", ("seek", "-30"), lambda at: max(0.0, at - 30.0))
        return "%s; %s" % (to_60, back)

    def seek_by_knob():
        """One detent forward (uinput, through the kernel's rotary-encoder path) moves 15 s, by ear."""
        check(devices_for("input"), "the daemon holds no /dev/input device open: the evdev backend did not start")
        box.ctl("seek", "0:30")
        status, output = box.ctl("pause")
        check(status == 0, "pause: %s" % output)
        box.wait_until("paused", lambda: box.status()["state"] == "paused", 30)
        before = box.status()["position"]
        box.control("turn 1")
        after = box.wait_until("knob seek committed",
                               lambda: (lambda s: s if s["position"] > before + 5 else None)(box.status()), 20)
        moved = after["position"] - before
        report.figure("seek.knob_one_detent_moved", round(moved, 2))
        # Paused, the position moves by the detent exactly (the preview commits without playback going on).
        check(abs(moved - KNOB_DETENT_SECONDS) < 0.2, "one detent moved %.2f s" % moved)
        box.ctl("play")
        box.wait_until("playing", lambda: box.status()["state"] == "playing", 30)
        heard = heard_matches_status("seek.knob")
        end = box.status()["position"]
        check(before + KNOB_DETENT_SECONDS - 1.0 <= state["heard_at"] <= end + 1.0,
              "one detent from %.2f s: the sweep is heard at %.2f s (status %.2f s at the end)" % (before, state["heard_at"], end))
        return "one detent forward moved %.2f s while paused; %s" % (moved, heard)

    def jack_unplug():
        check(devices_for("input"), "the daemon holds no /dev/input device open: the evdev backend did not start")
        check(box.status()["state"] == "playing", "not playing before the unplug")
        box.control("jack 0")
        paused = box.wait_until("paused after unplug",
                                lambda: (lambda s: s if s["state"] == "paused" else None)(box.status()), 10)
        check(paused.get("lastCheckpoint") is not None, "no checkpoint after the unplug")
        rms, _, _ = box.record(1)
        check(rms < SILENT_RMS, "still sound after the unplug (RMS %.1f)" % rms)
        box.control("jack 1")
        # Wait for the daemon to have taken the plug in (a positive signal), then check it stayed paused.
        plugged = box.wait_until("headphones seen plugged in",
                                 lambda: (lambda s: s if s.get("headphones") is True else None)(box.status()), 10)
        check(plugged["state"] == "paused", "plugging back in resumed playback")
        # And it stays paused: a resume that came a moment later would be heard in these 3 s, and seen after.
        rms, _, _ = box.record(3)
        check(rms < SILENT_RMS, "sound within 3 s of plugging back in (RMS %.1f)" % rms)
        check(box.status()["state"] == "paused", "playback resumed by itself after the plug")
        box.ctl("play")
        return "unplugged → paused (checkpoint written, loopback silent); plugged back → still paused, silent 3 s on"

    def pause_is_silent():
        status, output = box.ctl("pause")
        check(status == 0, "pause: %s" % output)
        box.wait_until("paused", lambda: box.status()["state"] == "paused", 30)
        rms, _, _ = box.record(1)
        report.figure("pause.capture_rms", rms)
        check(rms < SILENT_RMS, "the loopback still hears RMS %.1f while paused" % rms)
        box.ctl("play")
        box.wait_until("playing again", lambda: box.status()["state"] == "playing", 30)
        return "paused → the loopback hears silence (RMS %.1f); resumed" % rms

    def display_cost():
        """A figure, not a check: the daemon's CPU on this (emulated) CPU playing the same recording on the
        loopback sound card, once with no screen and once drawing the animating player into memory at
        800×480, each for `display_cost_seconds` inside the guided breathing. CPU from /proc/PID/stat."""
        box.out("systemctl stop stillroom.service")
        ratios = {}
        try:
            for display in ("none", "memory@800x480"):
                box.out("rm -rf /run/cost && mkdir -p /run/cost")
                box.out("setsid stillroomd --data-dir /run/cost/data --content-dir /usr/share/stillroom/content "
                        "--display %s --input none --socket /run/cost/s.sock --audio-device default "
                        ">/run/cost/log 2>&1 < /dev/null & echo $! > /run/cost/pid" % display)
                ctl = "stillroomctl --socket /run/cost/s.sock --data-dir /run/cost/data "
                # The daemon itself answering ("daemon": true), not the CLI reading its files meanwhile.
                box.wait_until("the measured daemon answers",
                               lambda: '"daemon":true' in box.run(ctl + "status --json")[1], 60, interval=1.0)
                box.out(ctl + "settings set dim-after 3600 && " + ctl + "settings set dark-after 3600 && "
                        + ctl + "settings set night-mode off && " + ctl + "play steady-breath && " + ctl + "seek 1:00")
                time.sleep(3)
                ticks = "awk '{print $14 + $15}' /proc/$(cat /run/cost/pid)/stat"
                hz = int(box.out("getconf CLK_TCK"))
                before, started = int(box.out(ticks)), time.monotonic()
                time.sleep(display_cost_seconds)
                used = (int(box.out(ticks)) - before) / hz
                ratios[display] = used / (time.monotonic() - started)
                box.out("kill $(cat /run/cost/pid); while kill -0 $(cat /run/cost/pid) 2>/dev/null; do sleep 0.2; done")
        finally:
            box.out("systemctl start stillroom.service")
            box.wait_ready(timeout=BOOT_BUDGET)
        report.figure("display_cost.cpu_seconds_per_second", {k: round(v, 4) for k, v in ratios.items()})
        ratio = ratios["memory@800x480"] / ratios["none"] if ratios.get("none") else None
        report.figure("display_cost.ratio_800x480_to_audio_alone", round(ratio, 2) if ratio else None)
        return "audio alone %.4f CPU s/s, with the animating player at 800x480 %.4f: %.2f×" % (
            ratios["none"], ratios["memory@800x480"], ratio or 0)

    def daemon_frame():
        """The frame the daemon's painter last drew (`stillroomctl screenshot`: what it gave DRM), as RGB."""
        status, output = box.ctl("screenshot", "/run/stillroom-test-frame.png")
        check(status == 0, "stillroomctl screenshot: %s" % output)
        path = os.path.join(work_dir, "frame.png")
        with open(path, "wb") as f:
            f.write(base64.b64decode(box.out("base64 -w0 /run/stillroom-test-frame.png")))
        return read_png(path)

    def screen():
        """What the panel shows (QEMU's screendump of bochs DRM) is, pixel for pixel, what the daemon drew.
        Taken while the screen stands still: the daemon's frame before and after the dump must agree."""
        drm = devices_for("drm")
        check(drm, "the daemon holds no /dev/dri device open: the DRM backend did not start")
        path = os.path.join(work_dir, "screen.ppm")
        for attempt in range(5):
            before = daemon_frame()
            box.screendump(path)
            after = daemon_frame()
            if before == after:
                break
        check(before == after, "the screen never stood still for a screendump")
        width, height, pixels = read_ppm(path)
        check((width, height) == (800, 480), "the screen is %dx%d" % (width, height))
        check((before[0], before[1]) == (width, height), "the daemon drew %dx%d" % (before[0], before[1]))
        def count_differing(a, b):
            return sum(1 for i in range(0, len(a), 3) if a[i:i + 3] != b[i:i + 3])
        differing = count_differing(pixels, before[2])
        # The comparison itself can fail: one changed pixel in a copy of the frame is one pixel found.
        changed = bytearray(before[2])
        changed[len(changed) // 2] ^= 0x40
        check(count_differing(pixels if differing else before[2], bytes(changed)) >= 1, "the comparison cannot see a changed pixel")
        report.figure("screen.pixels_differing_from_the_daemons_frame", differing)
        distinct = len(set(pixels[i:i + 3] for i in range(0, len(pixels), 3 * 97)))
        report.figure("screen.distinct_colours_sampled", distinct)
        check(differing == 0, "%d of %d pixels on the panel differ from the frame the daemon drew" % (differing, width * height))
        check(distinct > 8, "the screen is nearly uniform (%d colours): nothing drawn" % distinct)
        return "%s at %dx%d: every pixel is the daemon's own frame (%d colours sampled)" % (drm[0], width, height, distinct)

    def boot_partition_shared():
        """The boot partition is mounted by the slot check and RAUC (stillroom-boot-select), by
        stillroom-ssh-keys, and by stillroom-wifi-config, which remounts it read-write to take a wifi.txt off
        it. The kernel refuses to mount it read-only while it is mounted read-write elsewhere ("already
        mounted": a first boot's slot check failed so in the system test), so every mount of it takes one
        lock from mount to unmount. A read-write holder that does not take the lock makes the selector's
        read fail (the refusal the lock is for); one that takes it makes the read wait, then succeed."""
        select = "/usr/lib/stillroom/stillroom-boot-select"
        hold = ("mkdir -p /run/held && mount -t vfat -o rw LABEL=STILLBOOT /run/held && touch /run/held.up && "
                "sleep 6; umount /run/held; rm -f /run/held.up")
        def read_while_held(with_lock):
            locking = "flock /run/stillroom-boot-partition.lock " if with_lock else ""
            box.out("nohup %ssh -c '%s' >/dev/null 2>&1 &" % (locking, hold))
            box.wait_until("the boot partition held read-write", lambda: box.run("test -e /run/held.up")[0] == 0, 60)
            result = box.run(select + " status 2>&1", timeout=120)
            box.wait_until("the holder gone", lambda: box.run("test -e /run/held.up || mountpoint -q /run/held")[0] != 0, 60)
            return result
        # `status` fails whole when the selector cannot be read: no line, not an empty committed=.
        refused_status, refused = read_while_held(False)
        check(refused_status != 0 and "already mounted" in refused and "cannot mount the boot selector" in refused
              and "committed=" not in refused,
              "a read-write mount without the lock did not stop the selector's read (%d): %s" % (refused_status, refused))
        status, output = read_while_held(True)
        committed = next((line for line in output.splitlines() if line.startswith("committed=")), "")
        check(status == 0 and committed in ("committed=A", "committed=B") and "cannot mount" not in output,
              "the selector's read beside a locked holder failed (%d): %s" % (status, output))
        return "without the lock the read is refused (%s); with it the read waits and gives %s" % (
            next((line for line in refused.splitlines() if "cannot mount" in line), "refused"),
            next((line for line in output.splitlines() if line.startswith("committed=")), ""))

    def late_screen():
        """A screen whose driver loads after the daemon started (on a slow boot udev can load the KMS driver,
        and with it the DRM core, after the daemon): the driver and the DRM core are unloaded, the daemon
        started without DRM's major in /proc/devices (its device filter names the cards by number, which
        needs no module), and the driver loaded again. The same daemon, never restarted, draws its first
        frame on the card."""
        card = "/sys/class/drm/card0/device"
        module = box.out("basename $(readlink -f %s/driver/module)" % card)
        pci = box.out("basename $(readlink -f %s)" % card)
        driver = box.out("basename $(readlink -f %s/driver)" % card)
        box.out("systemctl stop stillroom.service")
        # Unbinding first lets the module go even with the console on its frame buffer.
        box.out("echo %s > /sys/bus/pci/drivers/%s/unbind" % (pci, driver))
        status, output = box.run("modprobe -r %s" % module)
        check(status == 0, "modprobe -r %s: %s" % (module, output))
        # The helpers modprobe -r leaves behind (unused, but not the driver's own dependencies) go too, each
        # once nothing holds it, and with them the DRM core.
        for _ in range(6):
            for name in box.out("ls /sys/module/drm/holders 2>/dev/null").split():
                box.run("[ \"$(cat /sys/module/%s/refcnt)\" = 0 ] && modprobe -r %s" % (name, name))
        box.run("modprobe -r drm")
        check(box.run("ls /dev/dri/card* 2>/dev/null")[0] != 0, "a DRM card is still there after unloading %s" % module)
        check(box.run("grep -qw drm /proc/devices")[0] != 0, "the DRM core is still loaded: %s" % box.run("lsmod")[1][-600:])
        box.out("systemctl start stillroom.service")  # Type=notify: returns at READY=1
        pid = box.service()["MainPID"]
        invocation = "_SYSTEMD_INVOCATION_ID=$(systemctl show -p InvocationID --value stillroom.service)"
        journal = lambda: box.out("journalctl -b %s -o cat --no-pager" % invocation)
        check("until one appears in /dev/dri" in journal(), "the daemon did not say it waits for a screen: %s" % journal()[-600:])
        status = json.loads(box.out("stillroomctl status --json"))
        check(status.get("screen") == "none", "screen %s before the driver loaded" % status.get("screen"))
        check(box.run("grep -qw drm /proc/devices")[0] != 0, "the daemon's start loaded the DRM core: the case is not tested")
        loaded_at = time.monotonic()
        box.out("modprobe %s" % module)
        box.wait_until("the first frame on the late screen", lambda: "screen: first frame shown" in journal(), 120, interval=1.0)
        took = time.monotonic() - loaded_at
        report.figure("late_screen.driver_loaded_to_first_frame_host_seconds", round(took, 1))
        after = box.service()
        check(after["MainPID"] == pid, "the daemon was restarted (%s → %s)" % (pid, after["MainPID"]))
        devices = box.open_devices(pid)
        check(any(d.startswith("/dev/dri/card") for d in devices), "the daemon holds no card open: %s" % devices)
        status = json.loads(box.out("stillroomctl status --json"))
        check(status.get("screen") in ("on", "dim", "off"), "screen %s after the driver loaded" % status.get("screen"))
        state["devices"], state["pid"] = devices, pid
        lines = [line for line in journal().splitlines() if line.startswith("display:") or line.startswith("screen:")]
        return "%s and the DRM core unloaded, the daemon started without a screen; %s loaded → " \
               "first frame %.1f s later, same daemon: %s" % (module, module, took, " | ".join(lines)[-400:])

    def doctor_input():
        """The doctor's input line, as a maintainer reads it."""
        return next((line for line in box.run("stillroomctl doctor")[1].splitlines() if "input" in line[:18]), "")

    def late_controls():
        """Controls whose devices appear after the daemon started (a driver loading late, a keypad plugged
        in later; in the twin, its uinput unit, no longer ordered before the daemon): the uinput devices
        removed, the daemon started without them, then the devices made again. The daemon starts all the
        same and says which controls wait (doctor, a live notice); the same daemon, never restarted, opens
        them when they come, and PLAY pressed on them plays (the next scenario)."""
        box.out("systemctl stop stillroom.service")
        box.out("systemctl stop stillroom-uinput.service")
        check(box.run("grep -q stillroom-qemu /proc/bus/input/devices")[0] != 0, "the uinput devices are still there")
        box.out("systemctl start stillroom.service")  # Type=notify: returns at READY=1
        pid = box.service()["MainPID"]
        waiting = doctor_input()
        check(waiting.startswith("FAIL input") and "waiting for [play], [back], [knob-press] on \"stillroom-qemu-buttons\"" in waiting,
              "doctor before the devices: %s" % waiting)
        notices = json.loads(box.out("stillroomctl status --json")).get("notices", [])
        check(any(n.get("kind") == "controls-missing" for n in notices), "no controls notice: %s" % notices)
        made_at = time.monotonic()
        box.out("systemctl start stillroom-uinput.service")
        box.wait_until("the controls open", lambda: doctor_input().startswith("ok"), 120, interval=1.0)
        took = time.monotonic() - made_at
        report.figure("late_controls.devices_made_to_open_host_seconds", round(took, 1))
        check(box.service()["MainPID"] == pid, "the daemon was restarted")
        devices = box.open_devices(pid)
        check(any(d.startswith("/dev/input/") for d in devices), "the daemon holds no input device open: %s" % devices)
        notices = json.loads(box.out("stillroomctl status --json")).get("notices", [])
        check(not any(n.get("kind") == "controls-missing" for n in notices), "the controls notice stayed: %s" % notices)
        state["devices"], state["pid"] = devices, pid
        return "the daemon started without its controls (doctor: %s); uinput devices made → open %.1f s later, same daemon" % (
            waiting[:120], took)

    def controls_before_udev():
        """Controls whose nodes udev has not set up yet: at boot the kernel makes a device's node root's
        alone, and udev gives it group input a moment later. A daemon that starts in between (its start is
        given the CPU first while the box boots) must wait for udev, not exit and be restarted. udev's
        event queue is held, the uinput devices made again (their nodes root's, mode 600), the daemon
        started; then the queue is let go, and the same daemon opens the devices."""
        box.out("systemctl stop stillroom.service")
        box.out("systemctl stop stillroom-uinput.service")
        box.out("udevadm control --stop-exec-queue")
        try:
            # The uinput helper waits up to 10 s per device for udev's group, then carries on without it.
            box.out("systemctl start stillroom-uinput.service", timeout=120)
            nodes = box.out("for d in /sys/devices/virtual/input/input*/event*; do stat -c '%U %G %a' /dev/input/$(basename $d); done | sort -u")
            check(nodes == "root root 600", "the nodes before udev: %s" % nodes)
            started = box.run("systemctl start stillroom.service", timeout=300)  # Type=notify: returns at READY=1
            said = box.out("journalctl -u stillroom.service -o cat --no-pager -n 40 | grep -E 'evdev|cannot start' || true")
            check(started[0] == 0, "the daemon did not start with the nodes root's: %s" % said[-600:])
            pid = box.service()["MainPID"]
            check("is not ready yet (still root's alone: udev has not given it its group)" in said, "what it said: %s" % said[-600:])
        finally:
            box.out("udevadm control --start-exec-queue")
        box.wait_until("the controls open once udev has run", lambda: doctor_input().startswith("ok"), 120, interval=1.0)
        check(box.service()["MainPID"] == pid, "the daemon was restarted")
        devices = box.open_devices(pid)
        check(any(d.startswith("/dev/input/") for d in devices), "the daemon holds no input device open: %s" % devices)
        state["devices"], state["pid"] = devices, pid
        return "nodes root's (600) at the daemon's start: it waited, same daemon opened them once udev ran; %s" % (
            said.splitlines()[0][:160] if said else "")

    def network_time_runs():
        """Network time runs on the read-only root (systemd-timesyncd failed at every boot before its
        drop-in, status 238, and never set the clock). The units that failed at this boot are recorded,
        not judged: on a loaded host the first boot's slowest units can fail (2026-12-03, once:
        stillroom-slot-check, beside a 90 s wait for the grown data partition's device)."""
        timesync = box.out("systemctl show systemd-timesyncd.service -p ActiveState -p NRestarts -p Result")
        check("ActiveState=active" in timesync and "NRestarts=0" in timesync, "systemd-timesyncd: %s" % timesync.replace("\n", ", "))
        failed = box.run("systemctl list-units --failed --no-legend --plain")[1].strip()
        report.figure("boot1.failed_units", failed.splitlines())
        # What each failed unit said, kept: the twin's journal is gone with it.
        for unit in (line.split()[0] for line in failed.splitlines() if line.split()):
            said = box.run("journalctl -b -u '%s' -o short-monotonic --no-pager | tail -n 20" % unit)[1]
            report.figure("boot1.failed_unit_journal.%s" % unit, said.splitlines())
        return "systemd-timesyncd active, never restarted; failed units: %s" % (failed.replace("\n", "; ") or "none")

    def watchdog_restart():
        props = box.service()
        pid, restarts = props["MainPID"], int(props["NRestarts"])
        box.out("kill -STOP %s" % pid)
        stopped_at = time.monotonic()

        def restarted():
            now = box.service()
            return now if now["MainPID"] not in ("0", pid) and now["ActiveState"] == "active" else None
        after = box.wait_until("a new daemon after SIGSTOP", restarted, WATCHDOG_BUDGET, interval=1.0)
        took = time.monotonic() - stopped_at
        report.figure("watchdog.sigstop_to_ready_seconds", round(took, 1))
        check(int(after["NRestarts"]) == restarts + 1, "NRestarts %s → %s" % (restarts, after["NRestarts"]))
        log = box.run("journalctl -b -u stillroom.service -o cat --no-pager | grep -i watchdog | tail -3")[1]
        check("watchdog" in log.lower(), "no watchdog line in the journal")
        state["pid"] = after["MainPID"]
        return "SIGSTOP → systemd killed the hung daemon (%s) and started a new one in %.1f s" % (
            log.strip().splitlines()[0], took)

    def power_cut():
        # Practice so far, all saved (stop saves the run), so what the cut costs can be told apart.
        box.ctl("stop")
        state["listening_before"] = float(box.out(SUM_LISTENING))
        # From the start of the default session, so the last checkpoint before the cut is a periodic one.
        status, output = box.ctl("play", state.get("session") or "")
        check(status == 0, "play: %s" % output)
        box.wait_until("playing", lambda: box.status()["state"] == "playing", 20)
        target = float(os.environ.get("STILLROOM_CUT_AT", "12.5"))
        heard_status = box.wait_until("position past %.1f s" % target,
                                      lambda: (lambda s: s if s["position"] >= target else None)(box.status()),
                                      60, interval=0.2)
        box.cut_power()
        heard = heard_status["position"]
        state["heard"] = heard
        state["heard_checkpoint"] = (heard_status.get("lastCheckpoint") or {}).get("position")
        report.figure("powercut.heard_position", heard)
        report.figure("powercut.last_checkpoint_before_cut", state["heard_checkpoint"])
        findings = check_data_partition(box, work_dir)
        report.figure("powercut.offline_check", findings)
        check(findings["fsck_verify_status"] == 0, "the data partition is not clean after journal replay: %s" % findings)
        check(findings["fsck_replay_status"] in (0, 1), "e2fsck had to repair: %s" % findings)
        check(findings["quick_check"] == "ok", "quick_check on the cut database: %s" % findings["quick_check"])
        return "cut at %.2f s heard; on the host: e2fsck after journal replay clean, quick_check ok" % heard

    # ---- boot 2 (after the power cut) ------------------------------------------------------------------
    def resume_after_cut():
        if "heard" not in state:
            raise Skip("no power cut happened")
        # Meanwhile the owner takes authorized_keys off the card: the copy kept on the data partition must
        # go on working (the SSH scenario after this one logs in with it).
        box.remove_boot_file("authorized_keys")
        box.boot()
        box.wait_agent()
        props = box.wait_ready(timeout=BOOT_BUDGET)
        report.figure("boot2.ready_guest_seconds", round(int(props["ActiveEnterTimestampMonotonic"]) / 1e6, 1))
        status = box.status()
        check(status["state"] == "idle", "after the cut the box is %s, not idle (it must never play by itself)" % status["state"])
        offer = (status.get("resumeOffer") or {}).get("position")
        check(offer is not None, "no resume offer: %s" % json.dumps(status))
        heard = state["heard"]
        report.figure("powercut.resume_offer", offer)
        report.figure("powercut.offer_behind_heard", round(heard - offer, 2))
        # The offer is the last checkpoint rewound 5 s; the checkpoint is at most 10 s (one period) behind what
        # was heard and never ahead of it. So the offer lies 5 to 15 s behind what was heard (0.5 s for the
        # status read before the cut), or at 0 when that would be before the start.
        behind = heard - offer
        check(behind >= 5.0 - 0.5 or offer == 0, "the offer (%.2f) is less than the 5 s rewind behind what was heard (%.2f)" % (offer, heard))
        check(behind <= 15.0 + 0.5, "the offer is %.2f s behind what was heard: more than 10 s of position lost" % behind)
        quick = box.out(GUEST_SQL("PRAGMA quick_check"))
        check(quick == "ok", "quick_check in the guest: %s" % quick)
        opened = box.run("journalctl -b -u stillroom.service -o cat --no-pager | grep -m1 'database:'")[1].strip()
        report.figure("boot2.database_line", opened)
        check("opened the existing database" in opened, "the daemon said: %s" % opened)
        # The initramfs checks (e2fsck -p: it replays the journal the cut left) and mounts the data partition,
        # its lines in the kernel log; systemd-fsck@ then finds it mounted and skips it (image/configure-root).
        early = box.run("dmesg | grep 'stillroom-data: ' | sed 's/^\\[[ 0-9.]*\\] //'")[1].strip()
        report.figure("boot2.initramfs_fsck", early.splitlines())
        check("stillroom-data: checked (e2fsck -p: " in early, "the initramfs did not check and mount the data partition: %s" % early)
        said = [line.split("e2fsck: ", 1)[1] for line in early.splitlines() if "stillroom-data: e2fsck: " in line]
        repaired = [line for line in said if not re.search(r"recovering journal$|: clean, ", line)]
        check(not repaired, "the initramfs's e2fsck -p repaired: %s" % repaired)
        fsck = box.run("journalctl -b -o cat --no-pager -u 'systemd-fsck@*' | tail -3")[1].strip()
        report.figure("boot2.fsck", fsck)
        failed_fsck = box.run("systemctl list-units --all --no-legend --state=failed 'systemd-fsck@*'")[1].strip()
        check(failed_fsck == "", "a boot-time fsck failed: %s" % failed_fsck)
        check("UNEXPECTED INCONSISTENCY" not in fsck and "FILE SYSTEM WAS MODIFIED" not in fsck, "the boot fsck repaired: %s" % fsck)
        listened = float(box.out(SUM_LISTENING)) - state["listening_before"]
        practice_loss = heard - listened
        report.figure("powercut.practice_seconds_saved", round(listened, 2))
        report.figure("powercut.practice_seconds_lost", round(practice_loss, 2))
        # Practice is saved with every checkpoint: at most 10 s lost, and never more kept than was heard.
        check(practice_loss <= 10.0 + 0.5, "%.2f s of practice lost to the cut (at most 10 s)" % practice_loss)
        check(practice_loss >= -0.5, "%.2f s of practice kept for %.2f s heard" % (listened, heard))
        status_code, output = box.ctl("play")
        check(status_code == 0, "accepting the offer: %s" % output)
        resumed = box.wait_until("playing after accepting",
                                 lambda: (lambda s: s if s["state"] == "playing" else None)(box.status()), 20)
        check(resumed["session"] == state.get("session"), "resumed %s" % resumed["session"])
        check(resumed["position"] >= offer - 0.5, "resumed at %.2f, offer %.2f" % (resumed["position"], offer))
        return ("idle with an offer at %.2f s (%.2f s behind the %.2f s heard; checkpoint lost %.2f s); "
                "practice saved %.2f of %.2f s; quick_check ok; accepted → playing" % (
                    offer, heard - offer, heard, heard - offer - 5, listened, heard))

    def data_folder_owner_mended():
        """The data partition as the releases before 2026-12 laid it out (its top the daemon's, the daemon's
        files there), with a link to /etc planted where the daemon's folder goes now, and the database's owner
        lost as a partition made anew leaves it: laid
        out by owner at the next boot before the daemon opens its database, by the initramfs where it
        mounts the partition (no unit run for it) and by stillroom-data-owner.service where systemd's fstab
        entry mounts it instead (board/data/stillroom-data-layout). The history is kept, the planted link
        is gone, nothing it pointed at was touched (planted root folders: DataLayoutTests, the attack scenario)."""
        told = []
        for mounted_by, append in (("initramfs", ""), ("systemd", "stillroom.early-data=0")):
            box.run("systemctl stop stillroom.service", check=True)
            # (A name at the top that the daemon's folder also has, a .cache, say, is replaced by the daemon's.)
            box.run("cd /var/lib/stillroom && ls -la . stillroomd >&2 && find . -maxdepth 1 -type l -delete && "
                    "for f in stillroomd/* stillroomd/.[!.]*; do [ -e \"$f\" ] || continue; n=${f#stillroomd/}; "
                    "rm -rf \"./$n\" && mv \"$f\" \"./$n\" || exit 1; done && rmdir stillroomd && "
                    "chown -R root:root /var/lib/stillroom/stillroom.db* && chown stillroom:stillroom . && chmod 0750 . && "
                    "ln -s /etc /var/lib/stillroom/stillroomd && sync", check=True)
            check(box.out("stat -c %U /var/lib/stillroom/stillroom.db") == "root", "the database was not made root's")
            box.power_off()
            box.boot(extra_append=append)
            box.wait_agent()
            box.wait_ready(timeout=BOOT_BUDGET)
            top = box.out("stat -c '%U %G %a' /var/lib/stillroom")
            check(top == "root root 755", "mounted by %s: the partition's top is %s" % (mounted_by, top))
            folder = box.out("stat -c '%%F %%U %%G %%a' %s" % DATA)
            check(folder == "directory stillroom stillroom 750", "mounted by %s: %s is %s" % (mounted_by, DATA, folder))
            left = box.out("find %s ! -user stillroom -print" % DATA)
            check(left == "", "mounted by %s: still not stillroom's: %s" % (mounted_by, left))
            etc = box.out("stat -c '%U %a' /etc")
            check(etc == "root 755", "mounted by %s: /etc, where the planted link pointed, is %s" % (mounted_by, etc))
            link = box.out("readlink /var/lib/stillroom/stillroom.db")
            check(link == "stillroomd/stillroom.db", "mounted by %s: the older slot's link is %r" % (mounted_by, link))
            sshd = box.out("stat -c '%%U %%a' %s" % SSH_STATE)
            check(sshd == "root 700", "mounted by %s: %s is %s" % (mounted_by, SSH_STATE, sshd))
            update = box.out("stat -c '%U %G %a' /run/stillroom-update")
            check(update == "root root 755", "mounted by %s: /run/stillroom-update is %s" % (mounted_by, update))
            opened = box.out("journalctl -b -u stillroom.service -o cat --no-pager | grep -m1 'database:'")
            check("opened the existing database" in opened, "mounted by %s: the daemon said: %s" % (mounted_by, opened))
            early = box.out("dmesg | grep 'stillroom-data: ' | sed 's/^\\[[ 0-9.]*\\] //'")
            unit = dict(line.split("=", 1) for line in box.out(
                "systemctl show -p ConditionResult,Result,ExecMainStatus stillroom-data-owner.service").splitlines())
            if mounted_by == "initramfs":
                check("stillroom.db moved into" in early and "was not a directory: removed" in early,
                      "the initramfs did not say it laid the partition out: %s" % early)
                check(unit["ConditionResult"] == "no", "stillroom-data-owner.service ran after the initramfs: %s" % unit)
            else:
                check("off (stillroom.early-data=0)" in early, "the initramfs mounted the partition: %s" % early)
                check(unit["ConditionResult"] == "yes" and unit["Result"] == "success" and unit["ExecMainStatus"] == "0",
                      "stillroom-data-owner.service: %s" % unit)
                said = box.out("journalctl -b -u stillroom-data-owner.service -o cat --no-pager")
                check("stillroom.db moved into" in said, "stillroom-data-owner.service said: %s" % said)
            told.append("%s: top %s, %s %s, .sshd %s, daemon: %s" % (mounted_by, top, DATA, folder, sshd, opened))
        return "; ".join(told)

    def card_gone_read_only():
        """A card gone read-only, as a failing SD card locks itself at the end of its life: the box still
        boots from it, plays, shows what was saved (a setting changed before), says nothing new can be kept,
        refuses a change with a clear error, and lets a maintainer in over SSH with the host key it had and
        with a new key put on the boot partition that cannot be stored. With the card writable again,
        everything is as it was and the box saves again. (The read-only fallback's scratch copy crashed the
        release build here, in a loop, until 2026-12-04.)"""
        changed = box.ctl("settings", "set", "night-cap", "35")
        check(changed[0] == 0, "settings set night-cap 35: %s" % changed[1])
        # A second key pair, only on the boot partition: the stored authorized_keys knows the first alone.
        new_key = new_ssh_key(work_dir, "ssh-key-read-only-card", "read-only card")
        box.put_boot_file("authorized_keys", new_key + ".pub")
        box.power_off()
        box.card_read_only = True
        try:
            box.boot()
            box.wait_agent()
            props = box.wait_ready(timeout=BOOT_BUDGET)
            report.figure("read_only_card.ready_guest_seconds", round(int(props["ActiveEnterTimestampMonotonic"]) / 1e6, 1))
            check(box.out("cat /sys/block/vda/ro") == "1", "the guest's card is not write-protected")
            mounted = box.out("findmnt -n -o MAJ:MIN,OPTIONS /var/lib/stillroom").split()
            partition = box.out("lsblk -dn -o MAJ:MIN /dev/disk/by-label/stillroom-data")
            check(mounted[0] == partition and mounted[1].startswith("ro,"),
                  "the data partition (%s) is not mounted read-only from the card: %s" % (partition, mounted))
            # By the initramfs, at once: not after systemd's fsck has failed on the card first.
            early = box.out("dmesg | grep 'stillroom-data: ' | sed 's/^\\[[ 0-9.]*\\] //'")
            check("the card is write-protected: not checked; mounted read-only" in early,
                  "the initramfs said: %s" % early)
            check(box.service()["NRestarts"] == "0", "the daemon restarted %s times" % box.service()["NRestarts"])
            status = box.status()
            check(status["storage"]["canSave"] is False, "storage: %s" % status["storage"])
            kinds = [notice["kind"] for notice in status["notices"]]
            check("storage-read-only" in kinds, "no read-only notice: %s" % kinds)
            setting = box.out("stillroomctl settings | grep -m1 '^night-cap'")
            check(" 35" in setting, "what was saved does not show: %s" % setting)
            doctor = box.run("stillroomctl doctor --json 2>/dev/null")
            storage = [c for c in json.loads(doctor[1])["checks"] if c["check"] == "storage"]
            check(doctor[0] != 0 and storage and storage[0]["ok"] is False and "Read-only" in storage[0]["detail"],
                  "doctor on a read-only card: %d %s" % (doctor[0], storage))
            refused = box.ctl("settings", "set", "night-cap", "40")
            check(refused[0] == 1 and refused[1].strip(), "a change on a read-only card: %d %s" % refused)
            check(" 35" in box.out("stillroomctl settings | grep -m1 '^night-cap'"), "the refused change shows")
            played = box.ctl("play")
            check(played[0] == 0, "play on a read-only card: %s" % played[1])
            box.wait_until("playing on a read-only card", lambda: box.status()["state"] == "playing", 30)
            box.ctl("stop")
            host_key = box.out("ssh-keygen -l -f %s/ssh_host_ed25519_key.pub | cut -d' ' -f2" % SSH_STATE)
            if "host_key" in state:
                check(host_key == state["host_key"], "host key %s, before %s" % (host_key, state["host_key"]))
            ssh = ssh_in("stillroomctl status --json", key=new_key)
            check(ssh[0] == 0, "SSH with the boot partition's new key on a read-only card: %d %s" % (ssh[0], ssh[2]))
            said = box.out("journalctl -b -u stillroom-ssh-keys.service -o cat --no-pager")
            check("they serve this boot only" in said, "stillroom-ssh-keys said: %s" % said)
        finally:
            box.power_off()
            box.card_read_only = False
        # The card writable again (the boot partition's key taken off: the stored one, the first, serves).
        box.remove_boot_file("authorized_keys")
        box.boot()
        box.wait_agent()
        box.wait_ready(timeout=BOOT_BUDGET)
        status = box.status()
        kinds = [notice["kind"] for notice in status["notices"]]
        check(status["storage"]["canSave"] is True and "storage-read-only" not in kinds,
              "with the card writable again: %s, notices %s" % (status["storage"], kinds))
        check(" 35" in box.out("stillroomctl settings | grep -m1 '^night-cap'"), "the setting saved before is gone")
        saved = box.ctl("settings", "set", "night-cap", "40")
        check(saved[0] == 0, "settings set on the writable card: %s" % saved[1])
        again = ssh_in("stillroomctl status --json")
        check(again[0] == 0, "SSH with the stored key: %d %s" % (again[0], again[2]))
        return ("read-only card: READY=1, the data partition mounted read-only, no restart, the notice, the "
                "saved setting shown, a change refused (%s), PLAY plays, SSH with the same host key and the boot "
                "partition's new key; writable again: saving, the stored key" % refused[1].strip().splitlines()[0])

    def clean_shutdown():
        box.power_off()
        check(not box.running(), "QEMU still runs")
        findings = check_data_partition(box, work_dir)
        check(findings["fsck_replay_status"] == 0 and findings["fsck_verify_status"] == 0,
              "data partition after a clean shutdown: %s" % findings)
        check(findings["quick_check"] == "ok", "quick_check: %s" % findings["quick_check"])
        return "systemd poweroff; the data partition is clean without a journal replay; quick_check ok"

    def nothing_left_to_grow():
        partition, ext4, said = data_partition_in_guest("boot2")
        check("stillroom-grow-data: grew" not in said, "the second boot grew again: %s" % said)
        check(partition == state["data_mib_flashed"] + CARD_LARGER_MIB, "the data partition is %d MiB" % partition)
        return "partition %d MiB, ext4 %d MiB, to the disk's end; stillroom-grow-data logged %s" % (
            partition, ext4, grew_line(said))

    # ---- boot 3: a power cut while the data partition grows ------------------------------------------------
    def host_history():
        """The practice history (runs, seconds) in the database check_data_partition read out last."""
        database = os.path.join(work_dir, "db", "stillroom.db")
        return subprocess.run(["sqlite3", database, HISTORY], check=True, capture_output=True, text=True).stdout.strip()

    def power_cut_while_growing():
        findings = check_data_partition(box, work_dir)
        check(findings["fsck_verify_status"] == 0 and findings["quick_check"] == "ok", "before: %s" % findings)
        state["history_before_growth_cut"] = host_history()
        _, size_before = box.partition(DATA_PARTITION)
        box.grow_card(CARD_LARGER_AGAIN_MIB)
        box.boot()
        # The guest's table writes reach the disk file at once (cache=writeback is the host's page cache):
        # the cut comes as soon as the data partition's entry is seen grown, between the table and ext4.
        deadline = time.monotonic() + 600
        while box.partition(DATA_PARTITION)[1] == size_before:
            check(box.running(), "QEMU ended before the partition grew: %s" % box.why_ended())
            check(time.monotonic() < deadline, "the data partition's entry did not grow within 600 s")
            time.sleep(0.1)
        box.cut_power()
        report.figure("growth_cut.host_seconds_from_power_on", round(time.monotonic() - box.launched_at, 1))
        findings = check_data_partition(box, work_dir)
        report.figure("growth_cut.offline_check", findings)
        check(findings["fsck_verify_status"] == 0, "the data partition is not clean after journal replay: %s" % findings)
        check(findings["fsck_replay_status"] in (0, 1), "e2fsck had to repair: %s" % findings)
        check(findings["quick_check"] == "ok", "quick_check: %s" % findings["quick_check"])
        history = host_history()
        check(history == state["history_before_growth_cut"], "history %s, before the cut %s" % (history, state["history_before_growth_cut"]))
        return "cut once the table had grown (%d → %d MiB); on the host: e2fsck clean after replay (%s), quick_check ok, history %s intact" % (
            size_before >> 20, box.partition(DATA_PARTITION)[1] >> 20, findings["fsck_replay_output"][-1:], history)

    def growth_finished_after_cut():
        box.boot()
        box.wait_agent()
        box.wait_ready(timeout=BOOT_BUDGET)
        partition, ext4, said = data_partition_in_guest("growth_cut")
        expected = state["data_mib_flashed"] + CARD_LARGER_MIB + CARD_LARGER_AGAIN_MIB
        check(partition == expected, "the data partition is %d MiB, not %d" % (partition, expected))
        history = box.out(GUEST_SQL(HISTORY))
        check(history == state["history_before_growth_cut"], "history %s, before the cut %s" % (history, state["history_before_growth_cut"]))
        quick = box.out(GUEST_SQL("PRAGMA quick_check"))
        check(quick == "ok", "quick_check in the guest: %s" % quick)
        early = box.run("dmesg | grep 'stillroom-data: e2fsck: ' | sed 's/^.*e2fsck: //'")[1].strip().splitlines()
        repaired = [line for line in early if not re.search(r"recovering journal$|: clean, ", line)]
        check(not repaired, "the initramfs's e2fsck -p repaired: %s" % repaired)
        state["growth_finished"] = True
        return "partition %d MiB, ext4 %d MiB, to the disk's end; %s; history %s intact, quick_check ok" % (
            partition, ext4, grew_line(said), history)

    # ---- boot 4 (or 3) -----------------------------------------------------------------------------------
    def kernel_hang_resets():
        if not box.running():  # else on the box that finished growing after a cut
            box.boot()
            box.wait_agent()
        box.wait_until("the hardware watchdog armed",
                       lambda: box.out("cat /sys/class/watchdog/watchdog0/state") == "active", 120, interval=1.0)
        # No reboot on panic (the image says panic=10): a hung kernel is left to the hardware watchdog.
        box.out("echo 0 > /proc/sys/kernel/panic")
        box.run("nohup sh -c 'sleep 1; echo c > /proc/sysrq-trigger' >/dev/null 2>&1 &")
        crashed_at = time.monotonic()
        limit = 180 if arch == "amd64" else 300  # the watchdog's timeout (15 s; 120 s on the arm64 twin) and more
        check(box.wait_off(limit), "QEMU still runs %d s after the kernel crashed: no watchdog reset" % limit)
        took = time.monotonic() - crashed_at
        with open(box.console, errors="replace") as f:
            console = f.read()
        check("Kernel panic" in console or "sysrq: Trigger a crash" in console, "no panic on the console")
        report.figure("watchdog.kernel_hang_to_reset_seconds", round(took, 1))
        findings = check_data_partition(box, work_dir)
        check(findings["fsck_verify_status"] == 0 and findings["quick_check"] == "ok",
              "data partition after the reset: %s" % findings)
        return ("kernel crashed with panic off; the i6300esb reset the machine %.1f s later (QEMU ended: "
                "-no-reboot); data partition clean after journal replay, quick_check ok" % took)

    wifi, wifi_cleanup = wifi_scenario.scenarios(box, report, check, Skip, ssh_key, state)

    def run_wifi():
        try:
            for name, function in wifi:
                report.scenario(name, function)
        finally:
            if box.running():
                wifi_cleanup()

    try:
        if part == "updates":
            for name, function in update_scenarios.scenarios(box, report, work_dir, image_dir, check, Skip,
                                                             BOOT_BUDGET, GUEST_SQL):
                report.scenario(name, function)
            return finish(report, report_path)
        if only == ["attack"]:
            # The attack scenario alone, on a fresh box (docs/security.md, "The attack scenario").
            for name, function in update_scenarios.scenarios(box, report, work_dir, image_dir, check, Skip,
                                                             BOOT_BUDGET, GUEST_SQL, only_attack=True):
                report.scenario(name, function)
            return finish(report, report_path)
        if only:
            if report.scenario("boot to READY=1", boot_to_ready):
                if only == ["wifi"]:
                    run_wifi()
                else:
                    report.scenario("service hardening as running", hardening)
                    if report.scenario("a screen whose driver loads after the daemon", late_screen):
                        report.scenario("screen: the daemon draws on bochs DRM (screendump)", screen)
            return finish(report, report_path)
        if report.scenario("boot to READY=1", boot_to_ready):
            report.scenario("read-only root, data partition, volatile journal", appliance_layout)
            report.scenario("network time runs on the read-only root", network_time_runs)
            report.scenario("the data partition grows to the end of a larger card; doctor: data storage on ext4",
                            data_partition_grows)
            report.scenario("hardware watchdog armed (i6300esb)", hardware_watchdog)
            report.scenario("service hardening as running", hardening)
            report.scenario("the boot partition's mounts share one lock (slot check beside a read-write mount)",
                            boot_partition_shared)
            report.scenario("maintenance over SSH: key from the boot partition, host key on the data partition",
                            ssh_maintenance)
            run_wifi()
            report.scenario("screen: the daemon draws on bochs DRM (screendump)", screen)
            if report.scenario("a screen whose driver loads after the daemon", late_screen):
                report.scenario("screen: the late screen shows the daemon's frame (screendump)", screen)
            if display_cost_seconds:
                report.scenario("the screen's CPU cost on this CPU (figure)", display_cost)
            report.scenario("controls whose devices come after the daemon", late_controls)
            report.scenario("controls whose nodes udev has not set up when the daemon starts", controls_before_udev)
            if report.scenario("PLAY (uinput) → audio on the loopback", play_audio) and \
                    report.scenario("the sweep is heard where status says it plays", sweep_heard_where_status_says):
                report.scenario("seek with stillroomctl lands where asked (by pitch)", seek_by_control)
                report.scenario("seek with the knob (uinput) lands where asked (by pitch)", seek_by_knob)
                report.scenario("pause → silence", pause_is_silent)
                report.scenario("headphones pulled (uinput jack) → paused", jack_unplug)
            else:
                for name in ("seek with stillroomctl", "seek with the knob", "pause → silence", "headphones pulled"):
                    report.results.append({"scenario": name, "outcome": "skipped", "detail": "playback did not start", "seconds": 0})
            report.scenario("daemon hung (SIGSTOP) → systemd watchdog restarts it", watchdog_restart)
            if report.scenario("power cut mid-playback (QEMU killed); data partition checked offline", power_cut):
                if report.scenario("boot after the cut: quick_check, resume offer within the window", resume_after_cut):
                    report.scenario("SSH after the reboot: the same host key", ssh_after_reboot)
                    report.scenario("the second boot finds nothing left to grow", nothing_left_to_grow)
                    report.scenario("the data folder's owner, lost, mended at the next boot (initramfs; systemd's mount)",
                                    data_folder_owner_mended)
                    report.scenario("a card gone read-only: boots, plays, shows what was saved, SSH; writable again",
                                    card_gone_read_only)
                    report.scenario("clean shutdown leaves a clean data partition", clean_shutdown)
        if not box.running():
            if report.scenario("power cut while the data partition grows (a larger card again)", power_cut_while_growing):
                report.scenario("boot after that cut: the growth finished, the data partition clean, the history intact",
                                growth_finished_after_cut)
            if box.running() and not state.get("growth_finished"):
                box.cut_power()
        if not box.running() or state.get("growth_finished"):
            report.scenario("kernel hang → the hardware watchdog resets the box", kernel_hang_resets)
        if part == "all" and not box.running():
            for name, function in update_scenarios.scenarios(box, report, work_dir, image_dir, check, Skip,
                                                             BOOT_BUDGET, GUEST_SQL):
                report.scenario(name, function)
    finally:
        if box.running():
            box.cut_power()
    return finish(report, report_path)


def finish(report, report_path):
    counts = {k: sum(1 for r in report.results if r["outcome"] == k) for k in ("passed", "failed", "skipped")}
    if report_path:
        with open(report_path, "w") as f:
            json.dump({"results": report.results, "figures": report.figures}, f, indent=2)
    print("system-test: %d passed, %d failed, %d skipped" % (counts["passed"], counts["failed"], counts["skipped"]))
    skip_log = os.environ.get("STILLROOM_SKIP_LOG")
    for result in report.results:
        if result["outcome"] == "skipped":
            print("SKIPPED: system test: %s: %s" % (result["scenario"], result["detail"]), file=sys.stderr)
            if skip_log:
                with open(skip_log, "a") as f:
                    f.write("SKIPPED: system test: %s: %s\n" % (result["scenario"], result["detail"]))
    if counts["skipped"] and os.environ.get("CI") in ("true", "1"):
        print("system-test: a scenario was skipped, and under CI every scenario must run", file=sys.stderr)
        return 1
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Bytes written to the card per hour of listening and per idle hour, counted at the block device in the
amd64 QEMU twin.

    bench/card-writes/measure.py [--image DIR] [--listen MINUTES] [--idle MINUTES] [--warm-wal]
                                 [--out FILE.json]

Boots a fresh copy of the image twice (the first boot makes the database and the SSH host key; the second
is the box as it boots every day), lets it settle, then reads the data partition's counters:

  /proc/diskstats        sectors written (×512 bytes: what reached the virtual disk, which is what a card
                         would be asked to write), write requests and flushes;
  /sys/fs/ext4/DEV/lifetime_write_kbytes  what ext4 wrote, its journal (jbd2) included;
  /proc/fs/jbd2/DEV-8/info  how many journal transactions were committed;

before and after a stretch of listening (`stillroomctl play`, restarted whenever the session ends, as a
listener would) and a stretch idle (`stillroomctl stop`, then nothing). Each stretch is scaled to an hour.
With --warm-wal the database's -wal is first grown past its working size with the daemon stopped (SQLite's
shell, as the daemon's user, persist_wal on), so the stretch sees a box in use: a -wal the store keeps and
rewrites in place, rather than the growth of a new one (a box's first hour of listening).
The guest's clock is the reference (its CLOCK_MONOTONIC), so a slow emulator does not stretch the hour.
"""
import json
import os
import shlex
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "image", "qemu"))
from qemubox import Box  # noqa: E402


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def counters(box, device):
    """The data partition's write counters now, with the guest's monotonic clock."""
    disk = device.rstrip("0123456789")  # flushes are counted for the whole disk, not its partitions
    text = box.out("cat /proc/uptime; grep ' %s ' /proc/diskstats; cat /sys/fs/ext4/%s/lifetime_write_kbytes; "
                   "grep -m1 'transactions' /proc/fs/jbd2/%s-8/info || echo '0 transactions'; "
                   "grep ' %s ' /proc/diskstats" % (device, device, device, disk))
    lines = text.splitlines()
    fields = lines[1].split()
    disk_fields = lines[4].split()
    # major minor name | reads merged sectors ms | writes merged sectors ms | in-flight io_ms weighted |
    # discards merged sectors ms | flushes ms
    return {
        "uptime": float(lines[0].split()[0]),
        "write_requests": int(fields[7]),
        "sectors_written": int(fields[9]),
        "flushes": int(disk_fields[18]) if len(disk_fields) > 18 else None,  # of the whole disk
        "ext4_lifetime_kbytes": int(lines[2]),
        "jbd2_transactions": int(lines[3].split()[0]),
    }


# Run in the guest with the daemon stopped: about 1 MiB of frames, then dropped; the -wal keeps its size.
WARM_SQL = (".filectrl persist_wal 1\n"
            "PRAGMA wal_autocheckpoint = 0;\n"
            "CREATE TABLE bench_warm(x);\n"
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 900) "
            "INSERT INTO bench_warm SELECT randomblob(900) FROM n;\n"
            "DROP TABLE bench_warm;\n")


def warm_write_ahead_log(box):
    box.out("systemctl stop stillroom.service")
    box.out("printf %s | runuser -u stillroom -- sqlite3 /var/lib/stillroom/stillroomd/stillroom.db >/dev/null; "
            "rm -f /var/lib/stillroom/stillroomd/stillroom.db-shm; sync" % shlex.quote(WARM_SQL))
    size = box.out("stat -c %s /var/lib/stillroom/stillroomd/stillroom.db-wal")
    # The shell leaves the -wal's header valid; one start and stop of the daemon checkpoints those frames
    # and clears it, as the daemon's own close always does, so the stretch does not copy them again.
    for command in ("start", "stop", "start"):
        box.out("systemctl %s stillroom.service" % command)
    box.wait_ready()
    return int(size) if size.isdigit() else None


def difference(before, after):
    seconds = after["uptime"] - before["uptime"]
    hour = 3600.0 / seconds
    out = {"guest_seconds": round(seconds, 1)}
    for key in ("write_requests", "sectors_written", "flushes", "ext4_lifetime_kbytes", "jbd2_transactions"):
        if before[key] is None or after[key] is None:
            continue
        out[key] = after[key] - before[key]
        out[key + "_per_hour"] = round(out[key] * hour, 1)
    out["bytes_per_hour"] = round(out["sectors_written"] * 512 * hour)
    return out


def main():
    image = option("--image", ".build/image/amd64-qemu")
    listen = float(option("--listen", "10")) * 60
    idle = float(option("--idle", "10")) * 60
    session = option("--session", "")
    out = option("--out", None)
    result = {"image": os.path.abspath(image)}
    with tempfile.TemporaryDirectory(prefix="stillroom-card-writes-") as scratch:
        box = Box(image, scratch, arch="amd64", log=lambda *_: None)
        box.fresh_disk()
        box.boot()
        box.wait_agent()
        box.wait_ready()
        box.power_off()
        box.boot()
        try:
            box.wait_agent()
            box.wait_ready()
            device = os.path.basename(box.out("findmnt -n -o SOURCE /var/lib/stillroom"))
            result["device"] = device
            result["mount options"] = box.out("findmnt -n -o OPTIONS /var/lib/stillroom")
            if "--warm-wal" in sys.argv:
                result["warmed -wal bytes"] = warm_write_ahead_log(box)
            # Let the boot's own writes (the daemon's start-up, the journal's first commit) settle.
            time.sleep(60)
            start = counters(box, device)
            status, text = box.ctl("play", session)
            if status != 0:
                raise SystemExit("stillroomctl play %s: %s" % (session, text))
            restarts = 0
            deadline = time.monotonic() + listen
            while time.monotonic() < deadline:
                time.sleep(10)
                if box.status()["state"] != "playing":
                    box.ctl("play", session)
                    restarts += 1
            played = counters(box, device)
            box.ctl("stop")
            # The stop's own checkpoint and ext4's next commit (5 s) belong to the listening.
            time.sleep(15)
            stopped = counters(box, device)
            time.sleep(idle)
            idled = counters(box, device)
            result["listening"] = difference(start, stopped)
            result["listening"]["plays_restarted"] = restarts
            result["idle"] = difference(stopped, idled)
            result["database files"] = box.out("ls -l /var/lib/stillroom/stillroomd/")
            # The journal's own account since the mount (the boot's transactions included): blocks logged
            # per transaction say how much of each commit is the journal's.
            result["jbd2 info"] = box.out("cat /proc/fs/jbd2/%s-8/info" % device)
            # The daemon holds the database alone: read a copy.
            result["page size"] = box.out("d=$(mktemp -d) && cp /var/lib/stillroom/stillroomd/stillroom.db /var/lib/stillroom/stillroomd/stillroom.db-wal "
                                          "\"$d\"/ && sqlite3 \"$d/stillroom.db\" 'PRAGMA page_size' 2>&1; rm -rf \"$d\"")
            result["load on the host"] = os.getloadavg()[0]
        finally:
            box.power_off()
    print(json.dumps(result, indent=2))
    for stretch in ("listening", "idle"):
        r = result[stretch]
        print("%s: %.0f guest s, %d sectors written (%d requests, %s flushes; ext4 %d KiB; %d jbd2 transactions)"
              " → %.2f MB an hour" % (stretch, r["guest_seconds"], r["sectors_written"], r["write_requests"],
                                     r.get("flushes"), r["ext4_lifetime_kbytes"], r["jbd2_transactions"],
                                     r["bytes_per_hour"] / 1e6))
    if out:
        with open(out, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()

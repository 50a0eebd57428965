#!/usr/bin/env python3
"""fsyncs and bytes written per hour: the real daemon playing in real time, then idle.

Starts stillroomd on the paced fake speaker (`--audio-device paced`, which consumes audio in real time:
checkpoints run on the loop's 10 s timer in real time, so a faster pace would not change the count per
hour of wall time but would per hour of audio) with its data directory on a disk (/var/tmp by default,
not tmpfs, where nothing is ever written back), plays the default bench session and, once playing, for
SECONDS:

- traces fsync/fdatasync and every write to a file with `strace -f -T -y`: fsyncs are counted, scaled to
  an hour, and grouped into checkpoints (bursts less than 1 s apart) to show fsyncs per checkpoint and each
  checkpoint's time spent in fsync; the bytes of write/pwrite calls are summed per file of the data folder
  (the database, its -wal, anything else), which is what SQLite hands the kernel;
- reads the daemon's `write_bytes` from /proc/PID/io before and after: the bytes of page cache it dirtied
  (counted in 4 KiB pages, once per page between two write-backs), which is close to what reaches the
  block device, and which also sees the -shm file SQLite writes through a memory map, not with write(2).

Then `stillroomctl stop`, a pause of 2 s, and the same for IDLE_SECONDS with the daemon idle (stopped,
nothing playing): an idle box should write nothing at all.

strace adds some microseconds to each traced call; the fsync itself (waiting for the disk) dominates.
"""
import argparse, json, os, re, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stillroom_bench import add_daemon_arguments, stillroomd

SYNCS = ("fsync", "fdatasync", "sync_file_range", "syncfs")
WRITES = ("write", "pwrite64", "pwritev", "pwritev2", "writev", "ftruncate")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def write_bytes(pid):
    """`write_bytes` of /proc/PID/io: page-cache bytes the process dirtied, to be written to storage."""
    with open(f"/proc/{pid}/io") as f:
        for line in f:
            if line.startswith("write_bytes:"):
                return int(line.split()[1])
    return 0


def sectors_written(device):
    """Sectors (512 bytes) the block device has written since boot (/sys/block/DEV/stat, field 7): what
    the file system sent the card, its journal and write-back included; None without a device."""
    if not device:
        return None
    with open(f"/sys/block/{device}/stat") as f:
        return int(f.read().split()[6])


def warm_write_ahead_log(database):
    """Leaves a -wal past the daemon's automatic checkpoint beside the database (about 1 MiB of frames,
    written with SQLite's shell, kept at close with persist_wal), so what is measured is a -wal at its
    working size, rewritten in place as on a box in use, rather than the growth of a new one."""
    subprocess.run(["sqlite3", database],
                   input=".filectrl persist_wal 1\n"
                         "PRAGMA wal_autocheckpoint = 0;\n"
                         "CREATE TABLE bench_warm(x);\n"
                         "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 900) "
                         "INSERT INTO bench_warm SELECT randomblob(900) FROM n;\n"
                         "DROP TABLE bench_warm;\n",
                   text=True, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["sync"], check=True)


def journal_commits(device):
    """ext4's journal commits on the device so far (all, and those an fsync asked for), or None."""
    try:
        with open(f"/proc/fs/jbd2/{device}-8/info") as f:
            match = re.match(r"(\d+) transactions \((\d+) requested\)", f.readline())
        return (int(match.group(1)), int(match.group(2))) if match else None
    except (OSError, TypeError):
        return None


def traced(pid, seconds, device=None):
    """strace's lines for `seconds` of the process's syncs and writes, paths shown (-y), no data (-s 0),
    the daemon's write_bytes over the same window, and the bytes the block device wrote (or None)."""
    before, sectors, journal_before = write_bytes(pid), sectors_written(device), journal_commits(device)
    trace = subprocess.run(["timeout", "-s", "INT", str(seconds), "strace", "-f", "-qq", "-T", "-ttt", "-y", "-s", "0",
                            "-e", "trace=" + ",".join(SYNCS + WRITES), "-p", str(pid)],
                           capture_output=True, text=True).stderr
    device_bytes = (sectors_written(device) - sectors) * 512 if device else None
    journal_after = journal_commits(device)
    if journal_before and journal_after:
        print("fsyncs.py: %d journal commits in the window (%d asked for by an fsync)"
              % (journal_after[0] - journal_before[0], journal_after[1] - journal_before[1]), file=sys.stderr)
    return trace, write_bytes(pid) - before, device_bytes


def file_kind(path, data):
    """What a path written is: a file of the data folder by its role, or something else."""
    if not path.startswith(data + "/"):
        return None  # sockets, pipes, /dev/null (the log here): not the card
    name = os.path.basename(path)
    for suffix in ("-wal", "-shm", "-journal"):
        if name.endswith(suffix):
            return "database" + suffix
    return "database" if name.endswith(".db") else "other: " + name


def analyse(trace, data, seconds):
    """Syncs (count, bursts, durations), bytes written per file of the data folder, and the 4 KiB pages of
    page cache those writes dirtied: the distinct pages each file's pwrites touched between two of its
    fsyncs (an fsync writes them back and cleans them, so the next write dirties them again). What
    /proc/PID/io counts beyond these is the memory-mapped -shm, which write(2) never touches."""
    calls = []  # (end time, seconds in the call)
    written = {}
    pending = {}  # path -> 4 KiB pages written since its last fsync
    pages = {}
    for line in trace.splitlines():
        match = re.search(r"(\d+\.\d+) (\w+)\((\d+)<([^>]*)>(.*)=\s*(-?\d+).*<([\d.]+)>\s*$", line)
        if not match:
            continue
        at, call, path, result, took = float(match.group(1)), match.group(2), match.group(4), int(match.group(6)), float(match.group(7))
        kind = file_kind(path, data)
        if call in SYNCS:
            calls.append((at, took))
            if kind:
                pages[kind] = pages.get(kind, 0) + len(pending.pop(path, set()))
        elif call != "ftruncate" and result > 0 and kind:
            written[kind] = written.get(kind, 0) + result
            offset = re.search(r",\s*(\d+)\)\s*=", line) if call.startswith("pwrite") else None
            if offset:
                start = int(offset.group(1))
                pending.setdefault(path, set()).update(range(start // 4096, (start + result - 1) // 4096 + 1))
    for path, touched in pending.items():
        kind = file_kind(path, data)
        pages[kind] = pages.get(kind, 0) + len(touched)
    bursts = []
    for at, took in calls:
        if bursts and at - bursts[-1]["last"] < 1.0:
            bursts[-1]["fsyncs"] += 1
            bursts[-1]["fsync_s"] += took
            bursts[-1]["last"] = at
        else:
            bursts.append({"fsyncs": 1, "fsync_s": took, "last": at})
    return calls, bursts, written, {kind: count * 4096 for kind, count in pages.items()}


def per_hour(value, seconds):
    return round(value * 3600 / seconds)


def main():
    parser = argparse.ArgumentParser()
    add_daemon_arguments(parser)
    parser.add_argument("--seconds", type=int, default=60, help="the window of playback traced")
    parser.add_argument("--idle-seconds", type=int, default=60, help="the idle window after it (0: none)")
    parser.add_argument("--directory", default="/var/tmp")
    parser.add_argument("--warm-wal", action="store_true",
                        help="grow the -wal past its working size first, as a box in use has it")
    parser.add_argument("--block-device", help="the device holding --directory (loop3): its written sectors too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-fsync-", dir=args.directory) as work:
        if args.warm_wal:  # a first start makes the database; the -wal is grown while nothing runs
            with stillroomd(args.stillroomd, work, args.content, "paced") as (_, sock):
                subprocess.run([args.stillroomctl, "--socket", sock, "status"], check=True, stdout=subprocess.DEVNULL)
            warm_write_ahead_log(os.path.join(work, "data", "stillroom.db"))
        with stillroomd(args.stillroomd, work, args.content, "paced") as (daemon, sock):
            measured = measure(args, work, daemon, sock)
    report(args, *measured)


def measure(args, work, daemon, sock):
    """Plays for the window, then idles for the other; returns what `report` needs."""
    data = os.path.realpath(os.path.join(work, "data"))
    ctl = [args.stillroomctl, "--socket", sock]
    subprocess.run(ctl + ["play", args.session], check=True, stdout=subprocess.DEVNULL)
    trace, dirtied, device_bytes = traced(daemon.pid, args.seconds, args.block_device)
    status = subprocess.run(ctl + ["--json", "status"], capture_output=True, text=True).stdout
    idle_trace, idle_dirtied, idle_device_bytes = "", 0, None
    if args.idle_seconds > 0:
        subprocess.run(ctl + ["stop"], check=True, stdout=subprocess.DEVNULL)
        time.sleep(2)  # the stop's own commit is done with
        idle_trace, idle_dirtied, idle_device_bytes = traced(daemon.pid, args.idle_seconds, args.block_device)
    return data, trace, dirtied, device_bytes, status, idle_trace, idle_dirtied, idle_device_bytes


def report(args, data, trace, dirtied, device_bytes, status, idle_trace, idle_dirtied, idle_device_bytes):
    """Prints the figures as JSON."""
    calls, bursts, written, paged = analyse(trace, data, args.seconds)
    idle_calls, _, idle_written, _ = analyse(idle_trace, data, max(1, args.idle_seconds))
    durations = [took for _, took in calls]
    result = {
        "seconds": args.seconds, "directory": args.directory,
        "state_at_end": json.loads(status).get("state") if status else None,
        "fsyncs": len(calls),
        "fsyncs_per_hour": per_hour(len(calls), args.seconds),
        "checkpoints": len(bursts),
        # The steadier figure: fsyncs per checkpoint × 360 checkpoints an hour (one every 10 s of playing).
        "fsyncs_per_hour_from_checkpoints": round(statistics.mean(b["fsyncs"] for b in bursts) * 360) if bursts else 0,
        "fsyncs_per_checkpoint": [burst["fsyncs"] for burst in bursts],
        "fsync_ms_p50": round(statistics.median(durations) * 1000, 2) if durations else None,
        "fsync_ms_p99": round(percentile(durations, 0.99) * 1000, 2) if durations else None,
        "checkpoint_fsync_ms": [round(burst["fsync_s"] * 1000, 2) for burst in bursts],
        # Bytes: what the daemon handed the kernel for files of the data folder (write/pwrite), and the page
        # cache it dirtied (/proc/PID/io write_bytes, which also counts the memory-mapped -shm).
        "written_bytes": sum(written.values()),
        "written_bytes_by_file": written,
        "written_bytes_per_hour": per_hour(sum(written.values()), args.seconds),
        "dirtied_by_writes_by_file": paged,  # 4 KiB pages the pwrites dirtied; the rest of dirtied_bytes: the -shm
        "dirtied_bytes": dirtied,
        "dirtied_bytes_per_hour": per_hour(dirtied, args.seconds),
        "idle_seconds": args.idle_seconds,
    }
    if args.block_device:
        # What the card would get: data, ext4's journal and the kernel's write-back of the mapped -shm.
        result.update({"block_device": args.block_device, "device_bytes": device_bytes,
                       "device_bytes_per_hour": per_hour(device_bytes, args.seconds)})
        if args.idle_seconds > 0:
            result.update({"idle_device_bytes": idle_device_bytes,
                           "idle_device_bytes_per_hour": per_hour(idle_device_bytes, args.idle_seconds)})
    if args.idle_seconds > 0:
        result.update({
            "idle_fsyncs": len(idle_calls),
            "idle_written_bytes": sum(idle_written.values()),
            "idle_written_bytes_by_file": idle_written,
            "idle_dirtied_bytes": idle_dirtied,
            "idle_dirtied_bytes_per_hour": per_hour(idle_dirtied, args.idle_seconds),
        })
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()

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


def traced(pid, seconds):
    """strace's lines for `seconds` of the process's syncs and writes, paths shown (-y), no data (-s 0),
    and the daemon's write_bytes over the same window."""
    before = write_bytes(pid)
    trace = subprocess.run(["timeout", "-s", "INT", str(seconds), "strace", "-f", "-qq", "-T", "-ttt", "-y", "-s", "0",
                            "-e", "trace=" + ",".join(SYNCS + WRITES), "-p", str(pid)],
                           capture_output=True, text=True).stderr
    return trace, write_bytes(pid) - before


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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-fsync-", dir=args.directory) as work, \
            stillroomd(args.stillroomd, work, args.content, "paced") as (daemon, sock):
        data = os.path.realpath(os.path.join(work, "data"))
        ctl = [args.stillroomctl, "--socket", sock]
        subprocess.run(ctl + ["play", args.session], check=True, stdout=subprocess.DEVNULL)
        trace, dirtied = traced(daemon.pid, args.seconds)
        status = subprocess.run(ctl + ["--json", "status"], capture_output=True, text=True).stdout
        idle_trace, idle_dirtied = "", 0
        if args.idle_seconds > 0:
            subprocess.run(ctl + ["stop"], check=True, stdout=subprocess.DEVNULL)
            time.sleep(2)  # the stop's own commit is done with
            idle_trace, idle_dirtied = traced(daemon.pid, args.idle_seconds)
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

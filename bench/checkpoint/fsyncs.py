#!/usr/bin/env python3
"""fsyncs per hour of playback: the real daemon playing in real time, its fsyncs counted and timed.

Starts stillroomd on the paced fake speaker (`--audio-device paced`, which consumes audio in real time:
checkpoints run on the loop's 10 s timer in real time, so a faster pace would not change the count per
hour of wall time but would per hour of audio) with its data directory on a disk (/var/tmp by default,
not tmpfs), plays the default bench session and, once playing, traces fsync/fdatasync for SECONDS with
`strace -f -T`. Counts them, scales to an hour, and groups them into checkpoints (bursts less than 1 s
apart) to show fsyncs per checkpoint and each checkpoint's time spent in fsync.
strace adds some microseconds to each traced call; the fsync itself (waiting for the disk) dominates.
"""
import argparse, json, os, re, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stillroom_bench import add_daemon_arguments, stillroomd


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main():
    parser = argparse.ArgumentParser()
    add_daemon_arguments(parser)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--directory", default="/var/tmp")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-fsync-", dir=args.directory) as work, \
            stillroomd(args.stillroomd, work, args.content, "paced") as (daemon, sock):
        subprocess.run([args.stillroomctl, "--socket", sock, "play", args.session], check=True, stdout=subprocess.DEVNULL)
        trace = subprocess.run(["timeout", "-s", "INT", str(args.seconds), "strace", "-f", "-qq", "-T", "-ttt",
                                "-e", "trace=fsync,fdatasync,sync_file_range,syncfs", "-p", str(daemon.pid)],
                               capture_output=True, text=True).stderr
        status = subprocess.run([args.stillroomctl, "--socket", sock, "--json", "status"], capture_output=True, text=True).stdout
    calls = []  # (end time, seconds in the call)
    for line in trace.splitlines():
        match = re.search(r"(\d+\.\d+) .*(fsync|fdatasync|sync_file_range|syncfs)\(.*=\s*-?\d+.*<([\d.]+)>", line)
        if match:
            calls.append((float(match.group(1)), float(match.group(3))))
    bursts = []
    for at, took in calls:
        if bursts and at - bursts[-1]["last"] < 1.0:
            bursts[-1]["fsyncs"] += 1
            bursts[-1]["fsync_s"] += took
            bursts[-1]["last"] = at
        else:
            bursts.append({"fsyncs": 1, "fsync_s": took, "last": at})
    durations = [took for _, took in calls]
    result = {
        "seconds": args.seconds, "directory": args.directory,
        "state_at_end": json.loads(status).get("state") if status else None,
        "fsyncs": len(calls),
        "fsyncs_per_hour": round(len(calls) * 3600 / args.seconds),
        "checkpoints": len(bursts),
        # The steadier figure: fsyncs per checkpoint × 360 checkpoints an hour (one every 10 s of playing).
        "fsyncs_per_hour_from_checkpoints": round(statistics.mean(b["fsyncs"] for b in bursts) * 360) if bursts else 0,
        "fsyncs_per_checkpoint": [burst["fsyncs"] for burst in bursts],
        "fsync_ms_p50": round(statistics.median(durations) * 1000, 2) if durations else None,
        "fsync_ms_p99": round(percentile(durations, 0.99) * 1000, 2) if durations else None,
        "checkpoint_fsync_ms": [round(burst["fsync_s"] * 1000, 2) for burst in bursts],
    }
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()

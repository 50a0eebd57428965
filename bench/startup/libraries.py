#!/usr/bin/env python3
"""Libraries at exec: the daemon as built (libcurl and libespeak-ng loaded on first use) against the same
binary with both loaded at exec (LD_PRELOAD, which maps them and their dependencies before main as DT_NEEDED
entries would: the daemon before 2026-12-03). Runs alternate, so a busy machine's load falls on both alike.

    python3 bench/startup/libraries.py --stillroomd BIN --content DIR [--runs N]

Each run starts the daemon headless on a data directory already made (a warm start), waits for READY=1 on
a notify socket, counts the shared objects mapped then (/proc/PID/maps), stops it and reads its own
"start:" line (StartTimeline: CLOCK_BOOTTIME from the kernel's exec, so the loader's work before main is
counted). Prints JSON: medians and minimums per variant.
"""
import argparse, json, os, socket, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stillroom_bench import start_line  # noqa: E402

PRELOAD = "libcurl.so.4:libespeak-ng.so.1"


def mapped_objects(pid):
    with open(f"/proc/{pid}/maps") as maps:
        return len({line.split()[-1] for line in maps if ".so" in line.rsplit("/", 1)[-1]})


def one_start(args, data, work, preload):
    path = os.path.join(work, "notify.sock")
    if os.path.exists(path):
        os.unlink(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(30)
    env = dict(os.environ, NOTIFY_SOCKET=path)
    if preload:
        env["LD_PRELOAD"] = PRELOAD
    command = [args.stillroomd, "--data-dir", data, "--content-dir", args.content, "--display", "none",
               "--input", "none", "--socket", os.path.join(work, "ctl.sock"), "--audio-device", "null"]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        while "READY=1" not in sock.recv(4096).decode(errors="replace").split("\n"):
            pass
        objects = mapped_objects(process.pid)
    finally:
        process.terminate()
        _, log = process.communicate()
        sock.close()
    parsed = start_line(log)
    if not parsed:
        raise SystemExit("no start line in the daemon's log:\n" + log)
    return {"ready_ms": parsed[0], "before_main_ms": parsed[1], "objects": objects}


def summary(runs):
    out = {}
    for key in ["ready_ms", "before_main_ms", "objects"]:
        values = [run[key] for run in runs]
        out[key] = {"median": statistics.median(values), "min": min(values)}
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stillroomd", required=True)
    parser.add_argument("--content", required=True)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    variants = {"on first use": [], "at exec (LD_PRELOAD)": []}
    with tempfile.TemporaryDirectory(prefix="stillroom-libraries-") as work:
        data = os.path.join(work, "data")
        one_start(args, data, work, preload=False)  # makes the database and measures the recordings once
        for _ in range(args.runs):
            variants["on first use"].append(one_start(args, data, work, preload=False))
            variants["at exec (LD_PRELOAD)"].append(one_start(args, data, work, preload=True))
    print(json.dumps({"runs": args.runs, "preload": PRELOAD,
                      "results": {name: summary(runs) for name, runs in variants.items()}}, indent=2))


if __name__ == "__main__":
    main()

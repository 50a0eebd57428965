#!/usr/bin/env python3
"""Idle wake-ups of stillroomd with the screen dark, and what woke it.

Starts stillroomd as systemd would for the appliance's unit (NOTIFY_SOCKET, WATCHDOG_USEC from the unit's
WatchdogSec=, so it pings WATCHDOG=1 every half of it), with an offscreen 800x480 screen, no input and the
ALSA null device. The screen is made to go dark quickly (settings dim-after 5, dark-after 10, stored, then the daemon is
restarted so its timers start with them). Once `status` says the screen is off, two windows of SECONDS:

1. untraced: every thread's context switches (/proc/PID/task/*/status; a voluntary switch is a sleep,
   so each one ends in a wake-up) and the WATCHDOG=1 datagrams received;
2. under strace: each return from epoll_wait is one wake-up of the loop; the ready descriptor in it
   (the loop packs the fd into the event's low 32 bits) says what woke it: a timerfd on CLOCK_MONOTONIC
   (loop timers: the watchdog's among them, known by the WATCHDOG=1 it then sends), one on
   CLOCK_REALTIME (wall-clock timers: the minute refresh, the reminder), a socket, a signalfd...

The target (issue 14): with the screen dark, only the watchdog's wake-ups.
"""
import argparse, collections, json, os, re, socket, subprocess, sys, tempfile, threading, time


def task_switches(pid):
    switches = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        fields = {}
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                for line in f:
                    key, _, value = line.partition(":")
                    fields[key] = value.strip()
        except OSError:
            continue
        switches[task] = (fields.get("Name", "?"), int(fields["voluntary_ctxt_switches"]),
                          int(fields["nonvoluntary_ctxt_switches"]))
    return switches


def describe_fd(pid, fd):
    try:
        target = os.readlink(f"/proc/{pid}/fd/{fd}")
    except OSError:
        return f"fd {fd} (closed)"
    if target == "anon_inode:[timerfd]":
        with open(f"/proc/{pid}/fdinfo/{fd}") as f:
            clock = re.search(r"clockid:\s*(\d+)", f.read())
        return {"0": "timerfd CLOCK_REALTIME (wall-clock timers)", "1": "timerfd CLOCK_MONOTONIC (loop timers)"}.get(
            clock.group(1) if clock else "", "timerfd")
    return f"{target} (fd {fd})"


class Watchdog:
    """Receives the daemon's notify datagrams and keeps the times of WATCHDOG=1."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.pings, self.ready = [], threading.Event()
        threading.Thread(target=self.receive, daemon=True).start()

    def receive(self):
        while True:
            lines = self.sock.recv(4096).decode(errors="replace").split("\n")
            if "READY=1" in lines:
                self.ready.set()
            if "WATCHDOG=1" in lines:
                self.pings.append(time.monotonic())


def ctl(args, sock, *command):
    return subprocess.run([args.stillroomctl, "--socket", sock, *command], check=True, capture_output=True, text=True).stdout


def start(args, work, watchdog_usec):
    notify = os.path.join(work, f"notify-{time.monotonic_ns()}.sock")
    watchdog = Watchdog(notify)
    env = dict(os.environ, NOTIFY_SOCKET=notify, WATCHDOG_USEC=str(watchdog_usec))
    command = [args.stillroomd, "--data-dir", os.path.join(work, "data"), "--content-dir", args.content,
               "--display", f"png@800x480:{work}/screen.png", "--preview", "off", "--input", "none",
               "--socket", os.path.join(work, "ctl.sock"), "--audio-device", "null"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "daemon.log"), "a"))
    if not watchdog.ready.wait(30):
        process.kill()
        raise RuntimeError("stillroomd never sent READY=1")
    return process, watchdog


def stop(process):
    process.terminate()
    process.wait()


def wake_ups_under_strace(pid, seconds):
    """strace's view: each epoll_wait return is a wake-up; the descriptors it reported ready say what woke
    the loop, and a WATCHDOG=1 written before the next epoll_wait marks the watchdog's own timer."""
    trace = subprocess.run(["timeout", "-s", "INT", str(seconds), "strace", "-f", "-tt", "-qq", "-e",
                            "trace=epoll_wait,epoll_pwait,write,sendto,sendmsg", "-p", str(pid)],
                           capture_output=True, text=True).stderr
    causes = collections.Counter()
    returns = 0
    current = None  # the cause of the wake-up being handled, until the next epoll_wait

    def settle():
        if current is not None:
            causes[current] += 1

    for line in trace.splitlines():
        if "WATCHDOG=1" in line and current is not None:
            current = "the watchdog's ping (" + current + ")"
            continue
        match = re.search(r"epoll_p?wait.*\)\s*=\s*(\d+)", line)
        if not match:
            continue
        settle()
        returns += 1
        fds = re.findall(r"u32=(\d+)", line)
        current = "epoll_wait timeout" if int(match.group(1)) == 0 else " + ".join(describe_fd(pid, int(fd)) for fd in fds)
    settle()
    return returns, causes


def unit_watchdog_usec():
    """WATCHDOG_USEC as systemd sets it from the appliance unit's WatchdogSec= (in seconds there)."""
    unit = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "board", "systemd", "stillroom.service")
    with open(unit) as f:
        seconds = re.search(r"^WatchdogSec=(\d+)s?$", f.read(), re.M)
    return int(seconds.group(1)) * 1_000_000 if seconds else 30_000_000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stillroomd", required=True)
    parser.add_argument("--stillroomctl", required=True)
    parser.add_argument("--content", required=True)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--watchdog-usec", type=int, default=unit_watchdog_usec(),
                        help="default: the appliance unit's WatchdogSec (board/systemd/stillroom.service)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-idle-", dir="/var/tmp") as work:
        sock = os.path.join(work, "ctl.sock")
        process, _ = start(args, work, args.watchdog_usec)
        ctl(args, sock, "settings", "set", "dim-after", "5")
        ctl(args, sock, "settings", "set", "dark-after", "10")
        stop(process)
        process, watchdog = start(args, work, args.watchdog_usec)
        try:
            deadline = time.monotonic() + 40
            while json.loads(ctl(args, sock, "--json", "status")).get("screen") != "off":
                if time.monotonic() > deadline:
                    raise RuntimeError("the screen never went dark")
                time.sleep(1)
            time.sleep(2)  # let the last status request and the dark frame settle
            before, pings_before, started = task_switches(process.pid), len(watchdog.pings), time.monotonic()
            time.sleep(args.seconds)
            after, elapsed = task_switches(process.pid), time.monotonic() - started
            pings = len(watchdog.pings) - pings_before
            per_minute = 60 / elapsed
            threads = []
            for task, (name, voluntary, involuntary) in after.items():
                old = before.get(task, (name, 0, 0))
                threads.append({"tid": int(task), "name": name, "voluntary_per_min": round((voluntary - old[1]) * per_minute, 1),
                                "involuntary_per_min": round((involuntary - old[2]) * per_minute, 1)})
            returns, causes = wake_ups_under_strace(process.pid, args.seconds)
            result = {
                "seconds": args.seconds, "watchdog_usec": args.watchdog_usec,
                "watchdog_pings_per_min": round(pings * per_minute, 1),
                # Each voluntary switch is a sleep ending in a wake-up; involuntary ones are preemptions while
                # awake (many on a busy machine), not wake-ups.
                "voluntary_switches_per_min": round(sum(t["voluntary_per_min"] for t in threads), 1),
                "involuntary_switches_per_min": round(sum(t["involuntary_per_min"] for t in threads), 1),
                "threads": threads,
                "epoll_returns_per_min": round(returns * 60 / args.seconds, 1),
                "woken_by_per_min": {cause: round(count * 60 / args.seconds, 1) for cause, count in causes.most_common()},
            }
        finally:
            stop(process)
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The daemon's own start in the amd64 twin, apart from the boot around it: cold and warm restarts.

    python3 bench/boot/restarts.py [--host-clock] IMAGE_DIR WORK_DIR ROUNDS

Boots the image twice (the first boot makes the data; the second is the daily boot), waits for the boot's
stragglers, then, ROUNDS times: stops the daemon, drops the guest's page cache and starts it (cold: its
binary and libraries are read from the disk again, as at boot), then restarts it (warm). After each start
it reads the daemon's own "start:" line (StartTimeline: from the kernel's exec, with the part before
main). Prints each start and, last, a JSON line of them all (guest milliseconds: [exec → READY, before
main]).

The twin runs as bench/boot/measure.py runs it: one vCPU on the instruction clock (QEMU's -icount
shift=0,sleep=off: 1 ns an instruction, so the host's load does not stretch guest time), or with
--host-clock on the emulator's real time, as before 2026-12-03.

To compare two images side by side, run two of these at once, one per image (each QEMU is one TCG
thread: on a two-core host each gets a core, and the host's load falls on both alike). docs/performance.md,
"Libraries at exec", has the 2026-12-03 run.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "image", "qemu"))
from qemubox import Box  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stillroom_bench import start_line  # noqa: E402


def latest_start(box):
    """(exec → READY, before main) in ms from the daemon's latest start line, or None."""
    return start_line(box.run("journalctl -u stillroom.service -o cat --no-pager | grep '^start: ' | tail -1",
                              timeout=120)[1])


def main():
    arguments = sys.argv[1:]
    host_clock = "--host-clock" in arguments
    arguments = [argument for argument in arguments if argument != "--host-clock"]
    if len(arguments) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    image, work, rounds = arguments[0], arguments[1], int(arguments[2])
    clock = {} if host_clock else {"cpus": 1, "icount_shift": 0}
    box = Box(image, work, log=lambda *_: None, **clock)
    box.fresh_disk()
    for _ in range(2):
        box.boot()
        box.wait_agent()
        box.wait_ready(timeout=900)
        if _ == 0:
            box.power_off()
    time.sleep(20)  # the boot's own late units (name resolution, the journal's flush) settle first
    starts = {"cold": [], "warm": []}
    for _ in range(rounds):
        # `systemctl start` and `restart` return once the unit is active: after READY=1 (Type=notify).
        box.run("systemctl stop stillroom; sync; echo 3 > /proc/sys/vm/drop_caches", timeout=300)
        box.run("systemctl start stillroom", timeout=600)
        time.sleep(2)  # the start line is logged just after READY
        starts["cold"].append(latest_start(box))
        print("cold", starts["cold"][-1], flush=True)
        box.run("systemctl restart stillroom", timeout=600)
        time.sleep(2)
        starts["warm"].append(latest_start(box))
        print("warm", starts["warm"][-1], flush=True)
    print(json.dumps(starts))
    box.power_off()
    return 0


if __name__ == "__main__":
    sys.exit(main())

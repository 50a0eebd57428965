#!/usr/bin/env python3
"""Boot → READY for the amd64 and arm64 twins, side by side in one run, against a baseline.

    bench/boot/measure.py [--rounds N] [--amd64 IMAGE_DIR] [--arm64 IMAGE_DIR] [--only amd64|arm64]
                          [--icount SHIFT | --host-clock] [--out FILE.json]

Each round, for each twin in turn (amd64, then arm64, so load on the host falls on both alike), on one
working copy of the disk:

  first     the box as flashed (a fresh copy of disk.img): the boot a box makes once;
  baseline  the same disk, kernel and root booted with nothing of ours: the kernel command line masks
            stillroom.service, stillroom-ssh-keys.service, stillroom-dns.path and the twin's
            stillroom-uinput.service, and turns off the initramfs's early mount of the data partition
            (stillroom.early-data=0: systemd's fstab entry mounts it, as on any system; the test agent
            still runs, to read the figures); measured to sysinit.target, which holds the root, udev and
            the journal: what any system on this kernel and root does before it can start a service;
  again     the box booted again on the same disk: the boot a box makes every day.

The guest's clock counts instructions (QEMU's -icount, 2^SHIFT ns each; default shift 0: a 1 GHz core
doing one instruction a cycle, about a Pi Zero 2 W's or Pi 3's core), and an idle guest's clock jumps to
its next timer (sleep=off). A busy host then no longer stretches guest seconds: the same boot measures the
same within a few percent whatever else the host runs, where the host's clock (--host-clock, the
emulator's real time as before 2026-12-03) moved the baseline between 64 and 122 s on one disk. The twin
then has one vCPU: a one-core machine, not the Pi's four, so whatever runs beside the daemon at boot
takes its time from the daemon's start, as on a Pi Zero's busiest core. Disk reads cost a jump to the
guest's next timer rather than their own time, so the first boot (a fresh copy of the disk, read cold)
moves more than the others.

Each boot waits for READY=1 (the daemon's unit active; for the baseline, the agent's answer, which comes
after sysinit.target), reads where the guest's time went from systemd and the kernel log, and powers off.
Every figure is guest time (CLOCK_MONOTONIC from the kernel's start): on the instruction clock, work counted
on a one-core 1 GHz machine, with every emulated device's cost in it; the split between stages and the
ratio to the baseline carry over to a Pi, not the absolutes. Prints a
table (medians), the 10 % criterion (READY of the box against the baseline's sysinit.target) and the
critical chain of the last box boot, and writes every boot's figures as JSON.
"""
import json
import os
import re
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "image", "qemu"))
from qemubox import Box  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stillroom_bench import start_line  # noqa: E402

# (label, what systemd reports it from): each is the moment a stage was done, in guest seconds.
STAGES = [
    ("initramfs started", None),  # from the kernel log: "Run /init as init process"
    ("root mounted, systemd started", ("-p UserspaceTimestampMonotonic", "")),
    ("data partition mounted by the initramfs", "kmsg"),  # its line "stillroom-data: checked ... and mounted"
    ("data partition mounted", ("-p ActiveEnterTimestampMonotonic", "var-lib-stillroom.mount")),
    ("sysinit.target", ("-p ActiveEnterTimestampMonotonic", "sysinit.target")),
    ("basic.target", ("-p ActiveEnterTimestampMonotonic", "basic.target")),
    ("twin's controls ready (uinput, twin only)", ("-p ActiveEnterTimestampMonotonic", "stillroom-uinput.service")),
    ("stillroom.service starts", ("-p InactiveExitTimestampMonotonic", "stillroom.service")),
    ("stillroomd exec", ("-p ExecMainStartTimestampMonotonic", "stillroom.service")),
    ("READY=1", ("-p ActiveEnterTimestampMonotonic", "stillroom.service")),
    ("first frame on the screen (PLAY accepted)", "journal"),  # the daemon's "screen: first frame shown"
    # The output open (PLAY sounds): at READY=1 when the sound card was usable by then, else when the daemon
    # found it so ("is back": a node udev gave its group, or the 2 s retry).
    ("audio output open (PLAY can sound)", "output"),
]
# From the daemon's own "start:" line (StartTimeline: CLOCK_BOOTTIME from the kernel's exec of it), in
# seconds: its whole start, and the part before its main (the loader mapping and relocating its libraries).
DAEMON_ROWS = ["daemon's start, exec → READY (its own count)", "… of which before main (loader, libraries)"]
OURS = ["stillroom.service", "stillroom-ssh-keys.service", "stillroom-dns.path", "stillroom-uinput.service"]
# The baseline's data partition is mounted by systemd's fstab entry, as on any system: the initramfs's
# early mount of it (image/configure-root) is ours, and is turned off.
BASELINE_APPEND = " ".join("systemd.mask=" + unit for unit in OURS) + " stillroom.early-data=0"
KINDS = ["first", "baseline", "again"]


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def one_boot(box, kind):
    box.boot(extra_append=BASELINE_APPEND if kind == "baseline" else "")
    try:
        box.wait_agent()
        if kind == "baseline":
            box.wait_until("sysinit.target active", lambda: box.run("systemctl is-active sysinit.target")[1].strip()
                           == "active", 120)
        else:
            box.wait_ready()
        figures = {}
        for label, source in STAGES:
            if source is None:
                line = box.out("dmesg | grep -m1 'Run /init as init process' || true")
                match = re.match(r"\[\s*([0-9.]+)\]", line)
                figures[label] = float(match.group(1)) if match else None
                continue
            if source == "kmsg":
                line = box.out("dmesg | grep -m1 'stillroom-data: checked' || true")
                match = re.match(r"\[\s*([0-9.]+)\]", line)
                figures[label] = float(match.group(1)) if match else None
                continue
            if source == "output":
                line = box.out("journalctl -b -u stillroom.service -o short-monotonic --no-pager "
                               "| grep -m1 -E 'audio output .* (open at|is back)' || true")
                match = re.match(r"\[\s*([0-9.]+)\]", line)
                figures[label] = float(match.group(1)) if match else None
                figures["audio output line"] = line
                continue
            if source == "journal":
                line = box.out("journalctl -b -u stillroom.service -o short-monotonic --no-pager "
                               "| grep -m1 'screen: first frame shown' || true")
                match = re.match(r"\[\s*([0-9.]+)\]", line)
                figures[label] = float(match.group(1)) if match else None
                continue
            prop, unit = source
            value = box.out("systemctl show %s --value %s" % (prop, unit)).strip()
            figures[label] = int(value) / 1e6 if value.isdigit() and int(value) > 0 else None
        if kind != "baseline":
            line = box.out("journalctl -b -u stillroom.service -o cat --no-pager | grep -m1 '^start: ' || true").strip()
            figures["daemon's start line"] = line
            parsed = start_line(line)
            figures.update(zip(DAEMON_ROWS, (parsed[0] / 1000, parsed[1] / 1000) if parsed else (None, None)))
        figures["systemd-analyze"] = box.out("systemd-analyze time 2>&1 | head -1")
        if kind != "baseline":
            figures["critical-chain"] = box.out("systemd-analyze critical-chain stillroom.service 2>&1 | tail -n +3")
        figures["blame"] = box.out("systemd-analyze blame 2>&1 | head -15")
        figures["load on the host"] = os.getloadavg()[0]
        return figures
    finally:
        box.power_off()


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main():
    rounds = int(option("--rounds", "1"))
    images = {"amd64": option("--amd64", ".build/image/amd64-qemu"),
              "arm64": option("--arm64", ".build/image/arm64-qemu")}
    only = option("--only", None)
    if only:
        images = {only: images[only]}
    out = option("--out", None)
    icount = None if "--host-clock" in sys.argv else int(option("--icount", "0"))
    boots = {arch: {kind: [] for kind in KINDS} for arch in images}
    with tempfile.TemporaryDirectory(prefix="stillroom-boot-") as scratch:
        for round_number in range(rounds):
            for arch, image_dir in images.items():
                # On the instruction clock, one vCPU: two would share the one emulator thread anyway, and
                # the guest kernel patching its code between two vCPUs crashed about one boot in twelve
                # (a double fault in the kernel while loading drm, 2026-12-03).
                box = Box(image_dir, os.path.join(scratch, "%s-%d" % (arch, round_number)), arch=arch,
                          log=lambda *_: None, icount_shift=icount, cpus=2 if icount is None else 1)
                box.fresh_disk()
                for kind in KINDS:
                    figures = one_boot(box, kind)
                    boots[arch][kind].append(figures)
                    end = figures["sysinit.target"] if kind == "baseline" else figures["READY=1"]
                    print("%s round %d, %s: %s at %.1f s guest time (host load %.1f)"
                          % (arch, round_number + 1, kind, "sysinit.target" if kind == "baseline" else "READY=1",
                             end, figures["load on the host"]), flush=True)
    columns = [(arch, kind) for arch in images for kind in KINDS]
    print("\nguest clock: %s" % ("the host's (real time)" if icount is None else "instructions (-icount shift=%d)" % icount))
    print("\n| stage (guest seconds, median of %d) | %s |" % (rounds, " | ".join("%s %s" % c for c in columns)))
    print("|---|" + "---:|" * len(columns))
    for label in [label for label, _ in STAGES] + DAEMON_ROWS:
        cells = []
        for arch, kind in columns:
            m = median([boot.get(label) for boot in boots[arch][kind]])
            cells.append("%.1f" % m if m is not None else "—")
        print("| %s | %s |" % (label, " | ".join(cells)))
    print()
    for arch in images:
        base = median([boot["sysinit.target"] for boot in boots[arch]["baseline"]])
        for kind in ("first", "again"):
            ready = median([boot["READY=1"] for boot in boots[arch][kind]])
            if base and ready:
                print("%s, %s boot: READY=1 %.1f s against the baseline's sysinit.target %.1f s: +%.1f s, +%.0f %%"
                      % (arch, kind, ready, base, ready - base, 100 * (ready - base) / base))
            # READY=1 with the output still closed (the sound card not usable yet) is not yet PLAY that sounds.
            sounds = median([max(boot["READY=1"], boot.get("audio output open (PLAY can sound)") or float("inf"))
                             for boot in boots[arch][kind]])
            if base and sounds not in (None, float("inf")):
                print("%s, %s boot: READY=1 with the output open %.1f s: +%.1f s, +%.0f %%"
                      % (arch, kind, sounds, sounds - base, 100 * (sounds - base) / base))
        last = boots[arch]["again"][-1]
        print("\n%s, last boot again: critical chain of stillroom.service\n%s\n" % (arch, last.get("critical-chain")))
    if out:
        with open(out, "w") as f:
            json.dump({"baseline kernel command line": BASELINE_APPEND, "icount shift": icount, "boots": boots}, f, indent=2)


if __name__ == "__main__":
    main()

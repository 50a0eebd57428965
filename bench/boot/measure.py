#!/usr/bin/env python3
"""Boot → READY for the amd64 and arm64 twins, side by side in one run.

    bench/boot/measure.py [--rounds N] [--amd64 IMAGE_DIR] [--arm64 IMAGE_DIR] [--out FILE.json]

Boots each image in turn (amd64, arm64, amd64, arm64, … for N rounds, so load on the host falls on
both alike), waits for the daemon's READY=1, reads where the guest's time went from systemd and the
kernel log, and powers off. Every figure is guest time (CLOCK_MONOTONIC from the kernel's start), which
QEMU's emulation (TCG) inflates; the ratio between the two machines and the split between stages are
what carry over, not the absolutes. Prints a table (medians) and writes every boot's figures as JSON.
"""
import json
import os
import re
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "image", "qemu"))
from qemubox import Box  # noqa: E402

# (label, what systemd reports it from): each is the moment a stage was done, in guest seconds.
STAGES = [
    ("initramfs started", None),  # from the kernel log: "Run /init as init process"
    ("root mounted, systemd started", ("-p UserspaceTimestampMonotonic", "")),
    ("data partition mounted", ("-p ActiveEnterTimestampMonotonic", "var-lib-stillroom.mount")),
    ("sysinit.target", ("-p ActiveEnterTimestampMonotonic", "sysinit.target")),
    ("stillroomd exec", ("-p ExecMainStartTimestampMonotonic", "stillroom.service")),
    ("READY=1", ("-p ActiveEnterTimestampMonotonic", "stillroom.service")),
]


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def one_boot(arch, image_dir, work_dir):
    box = Box(image_dir, work_dir, arch=arch, log=lambda *_: None)
    box.fresh_disk()
    box.boot()
    try:
        box.wait_agent()
        box.wait_ready()
        figures = {}
        for label, source in STAGES:
            if source is None:
                line = box.out("dmesg | grep -m1 'Run /init as init process' || true")
                match = re.match(r"\[\s*([0-9.]+)\]", line)
                figures[label] = float(match.group(1)) if match else None
                continue
            prop, unit = source
            value = box.out("systemctl show %s --value %s" % (prop, unit)).strip()
            figures[label] = int(value) / 1e6 if value.isdigit() and int(value) > 0 else None
        figures["systemd-analyze"] = box.out("systemd-analyze time 2>&1 | head -1")
        return figures
    finally:
        box.power_off()


def main():
    rounds = int(option("--rounds", "1"))
    images = {"amd64": option("--amd64", ".build/image/amd64-qemu"),
              "arm64": option("--arm64", ".build/image/arm64-qemu")}
    out = option("--out", None)
    boots = {arch: [] for arch in images}
    with tempfile.TemporaryDirectory(prefix="stillroom-boot-") as scratch:
        for round_number in range(rounds):
            for arch, image_dir in images.items():
                figures = one_boot(arch, image_dir, os.path.join(scratch, "%s-%d" % (arch, round_number)))
                boots[arch].append(figures)
                print("%s round %d: READY=1 at %.1f s guest time" % (arch, round_number + 1, figures["READY=1"]),
                      flush=True)
    print("\n| stage (guest seconds, median of %d) | %s | ratio |" % (rounds, " | ".join(images)))
    print("|---|" + "---|" * (len(images) + 1))
    for label, _ in STAGES:
        medians = []
        for arch in images:
            values = [boot[label] for boot in boots[arch] if boot[label] is not None]
            medians.append(statistics.median(values) if values else None)
        cells = ["%.1f" % m if m is not None else "—" for m in medians]
        ratio = "%.1f×" % (medians[1] / medians[0]) if None not in medians and medians[0] else "—"
        print("| %s | %s | %s |" % (label, " | ".join(cells), ratio))
    if out:
        with open(out, "w") as f:
            json.dump(boots, f, indent=2)


if __name__ == "__main__":
    main()

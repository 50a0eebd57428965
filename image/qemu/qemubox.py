"""The QEMU twin as a Python object: boot the appliance image, run commands in it through the test agent
(virtio-serial), drive its controls (uinput), record its sound (snd-aloop), look at its screen (QMP
screendump), and cut its power (SIGKILL to QEMU). Used by the system test and the power-cut bench.
Standard library only."""

import base64
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time

AGENT_PORT = "org.stillroom.agent"
UINPUT_FIFO = "/run/stillroom-uinput.fifo"
# The disk's partitions (image/build, section 5).
SELECTOR_PARTITION = 1
DATA_PARTITION = 7
MTOOLS_ENV = dict(os.environ, MTOOLS_SKIP_CHECK="1")


class BoxError(Exception):
    pass


class Box:
    """One QEMU machine on a working copy of the image. `disk` is written by the guest and survives
    power cuts; each `boot()` starts QEMU again on it."""

    instances = []

    def __init__(self, image_dir, work_dir, memory_mb=1024, cpus=2, log=print, arch="amd64", icount_shift=None):
        Box.instances.append(self)
        self.arch = arch
        # With a shift, the guest's clocks count the instructions it ran (QEMU's -icount: 2^shift ns each),
        # not the host's time, so a busy host no longer stretches the guest's figures (bench/boot).
        self.icount_shift = icount_shift
        # Guards against a hang scale with the machine: an emulated Cortex-A53 runs several times slower
        # than the emulated x86 (the figures are recorded, never asserted, either way).
        self.slowdown = 4 if arch == "arm64" else 1
        self.image_dir = image_dir
        self.work_dir = work_dir
        self.memory_mb = memory_mb
        self.cpus = cpus
        self.log = log
        self.disk = os.path.join(work_dir, "disk.img")
        self.process = None
        self.agent = None
        self.agent_buffer = b""
        self.boots = 0
        self.next_id = 0
        self.launched_at = None
        self.hello = None
        self.boot_dir = image_dir
        self.console = None
        self.power_was_cut = False
        self.boot_partition = None
        # Disks plugged in besides the card (raw images, read-only): a USB stick with update bundles.
        self.extra_drives = []
        # A card gone read-only (an SD card's controller locks itself so at the end of its life): the guest
        # sees a write-protected disk (virtio's read-only flag) and every write to it fails.
        self.card_read_only = False
        # QEMU user-network guestfwd options (a host service the guest reaches; the network stays restricted).
        self.guest_forwards = []
        # The guest's SSH port is forwarded here; the same port at every boot, so a client's known_hosts
        # entry ([127.0.0.1]:port) can tell whether the box's host key changed.
        self.ssh_port = free_port()
        os.makedirs(work_dir, exist_ok=True)

    # -- the disk -----------------------------------------------------------------------------------------

    def fresh_disk(self, larger_by_mib=0):
        """A new working copy of the image: the box as flashed, on a card `larger_by_mib` larger than the
        image (the data partition grows into the rest at the first boot)."""
        source = os.path.join(self.image_dir, "disk.img")
        subprocess.run(["cp", "--sparse=always", source, self.disk], check=True)
        self.grow_card(larger_by_mib)

    def grow_card(self, mib):
        """Makes the working disk `mib` MiB larger at its end (zeros, sparse), as a larger card would be;
        the box must be off."""
        if mib:
            subprocess.run(["truncate", "-s", "+%dM" % mib, self.disk], check=True)

    def put_boot_file(self, name, source):
        """Copies `source` onto the working disk's boot selector (FAT, the partition a computer shows when
        the card is put in it) as `name`, as an owner would."""
        offset, _ = self.partition(SELECTOR_PARTITION)
        subprocess.run(["mcopy", "-o", "-i", "%s@@%d" % (self.disk, offset), source, "::/" + name],
                       check=True, env=MTOOLS_ENV)

    def remove_boot_file(self, name):
        """Deletes `name` from the working disk's boot selector (the box must be off)."""
        offset, _ = self.partition(SELECTOR_PARTITION)
        subprocess.run(["mdel", "-i", "%s@@%d" % (self.disk, offset), "::/" + name],
                       check=True, env=MTOOLS_ENV)

    def read_fat_file(self, number, name):
        """The bytes of `name` on FAT partition `number` of the working disk, or None."""
        offset, _ = self.partition(number)
        result = subprocess.run(["mtype", "-i", "%s@@%d" % (self.disk, offset), "::/" + name],
                                capture_output=True, env=MTOOLS_ENV)
        return result.stdout if result.returncode == 0 else None

    def partition(self, number):
        """(offset, size) in bytes of partition `number` of the working disk."""
        table = json.loads(subprocess.run(["sfdisk", "--json", self.disk], check=True,
                                          capture_output=True, text=True).stdout)
        for part in table["partitiontable"]["partitions"]:
            if part["node"].endswith(str(number)) and not part["node"][:-len(str(number))][-1:].isdigit():
                return part["start"] * 512, part["size"] * 512
        raise BoxError("the disk has no partition %d" % number)

    # -- the firmware ----------------------------------------------------------------------------------------

    def firmware_boot_partition(self):
        """Which boot partition the emulated firmware starts, as the Raspberry Pi's does: the partition a
        reboot handed over for this one boot (`reboot N`: on the Pi a register the watchdog driver writes;
        here the kernel's "Restarting system with command 'N'" on the last boot's console), else the one
        autoboot.txt on the boot selector names. A power cut forgets the one-shot partition (the Pi's
        register loses it too)."""
        if not self.power_was_cut and self.console and os.path.exists(self.console):
            with open(self.console, errors="replace") as f:
                commands = re.findall(r"Restarting system with command '([^']*)'", f.read())
            if commands:
                words = commands[-1].split()
                if words and words[0].isdigit() and int(words[0]) in range(1, 5):
                    return int(words[0]), "one-shot (reboot %s)" % words[0]
        autoboot = self.read_fat_file(SELECTOR_PARTITION, "autoboot.txt")
        if autoboot is None:
            raise BoxError("the boot selector has no autoboot.txt: the firmware finds nothing to start")
        section, partition = "all", None
        for line in autoboot.decode(errors="replace").replace("\r", "").splitlines():
            line = line.strip()
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1]
            elif section == "all" and line.startswith("boot_partition="):
                partition = int(line.split("=", 1)[1])
        if partition is None:
            raise BoxError("autoboot.txt names no boot_partition")
        return partition, "autoboot.txt"

    def firmware_load(self, partition):
        """The kernel, initramfs and command line from boot partition `partition`, as the firmware reads
        them; into work_dir/boot-N."""
        folder = os.path.join(self.work_dir, "boot-%d" % partition)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        offset, _ = self.partition(partition)
        for name in ("vmlinuz", "initrd.img", "cmdline.txt"):
            result = subprocess.run(["mcopy", "-n", "-i", "%s@@%d" % (self.disk, offset), "::/" + name,
                                     os.path.join(folder, name)], capture_output=True, text=True, env=MTOOLS_ENV)
            if result.returncode != 0:
                raise BoxError("boot partition %d has no %s: the firmware cannot start it (%s)"
                               % (partition, name, result.stderr.strip()))
        return folder

    # -- power ---------------------------------------------------------------------------------------------

    def boot(self, extra_append=""):
        """Starts QEMU (the power comes on). Returns once QEMU runs; `wait_agent` waits for the guest."""
        if self.process is not None:
            raise BoxError("the box is already on")
        self.boots += 1
        n = self.boots
        agent_path = os.path.join(self.work_dir, "agent.sock")
        qmp_path = os.path.join(self.work_dir, "qmp.sock")
        for path in (agent_path, qmp_path):
            if os.path.exists(path):
                os.unlink(path)
        self.boot_partition, why = self.firmware_boot_partition()
        self.log("firmware: boot partition %d (%s)" % (self.boot_partition, why))
        self.power_was_cut = False
        self.boot_dir = self.firmware_load(self.boot_partition)
        with open(os.path.join(self.boot_dir, "cmdline.txt")) as f:
            append = f.read().strip()
        # systemd's progress on the serial console helps when a boot goes wrong (console-N.log).
        append += " systemd.show_status=1 " + extra_append
        self.console = os.path.join(self.work_dir, "console-%d.log" % n)
        if self.arch == "arm64":
            # The virt machine with the Pi's core (Cortex-A53), its devices on PCI like the twin's.
            machine = ["qemu-system-aarch64", "-accel", "tcg,thread=multi", "-machine", "virt", "-cpu", "cortex-a53"]
        else:
            # One TCG thread for both vCPUs: with a thread each (thread=multi), the guest kernel's live code
            # patching (int3 breakpoints while another vCPU runs the code) now and then hit an "Oops: int3" and
            # panicked early in boot on the loaded 2-core host, about one boot in fifteen (2026-12-02: seen
            # twice, in sched_clock_cpu right after "sched_clock: Marking stable"); an emulator race, not the box.
            machine = ["qemu-system-x86_64", "-accel", "tcg,thread=single", "-machine", "pc", "-vga", "none"]
        if self.icount_shift is not None:
            # One TCG thread (icount needs it); sleep=off: an idle guest's clock jumps to its next timer
            # instead of waiting for the host's, so guest time is the guest's work, whatever the host does.
            machine[2] = "tcg,thread=single"
            machine += ["-icount", "shift=%d,sleep=off" % self.icount_shift]
        command = ["nice", "-n", "5"] + machine + [
            "-smp", str(self.cpus), "-m", str(self.memory_mb),
            "-nodefaults", "-display", "none",
            # The screen: bochs DRM, the reference panel's size.
            "-device", "bochs-display,xres=800,yres=480",
            # The hardware watchdog: a reset ends QEMU (-no-reboot), which the test notices.
            "-device", "i6300esb", "-action", "watchdog=reset",
            "-drive", "file=%s,format=raw,if=virtio,cache=writeback%s" % (
                self.disk, ",readonly=on" if self.card_read_only else ""),
        ] + [argument for drive in self.extra_drives
             for argument in ("-drive", "file=%s,format=raw,if=virtio,readonly=on" % drive)] + [
            "-kernel", os.path.join(self.boot_dir, "vmlinuz"),
            "-initrd", os.path.join(self.boot_dir, "initrd.img"),
            "-append", append,
            "-serial", "file:" + self.console,
            "-device", "virtio-serial-pci",
            "-chardev", "socket,id=agent,path=%s,server=on,wait=off" % agent_path,
            "-device", "virtserialport,chardev=agent,name=" + AGENT_PORT,
            "-qmp", "unix:%s,server=on,wait=off" % qmp_path,
            # A wired network for SSH: DHCP from QEMU, the guest's port 22 on a host port. restrict=on
            # keeps the box off every other network, the host's included: the daemon must need none.
            "-netdev", ",".join(["user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:%d-:22" % self.ssh_port] + self.guest_forwards),
            "-device", "virtio-net-pci,netdev=net0",
            "-no-reboot",
        ]
        self.launched_at = time.monotonic()
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                        stdout=open(os.path.join(self.work_dir, "qemu-%d.log" % n), "w"),
                                        stderr=subprocess.STDOUT)
        self.qmp_path = qmp_path
        deadline = time.monotonic() + 30
        while not os.path.exists(agent_path):
            if self.process.poll() is not None:
                raise BoxError("QEMU exited at start: " + self._qemu_log())
            if time.monotonic() > deadline:
                raise BoxError("QEMU made no agent socket in 30 s")
            time.sleep(0.05)
        self.agent = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.agent.connect(agent_path)
        self.agent_buffer = b""
        self.hello = None

    def cut_power(self):
        """SIGKILL to QEMU: everything in the guest's memory is gone at once, as in a power cut. What the
        guest had handed to the virtual disk is in the host's page cache and stays (see docs/image.md)."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.power_was_cut = True
        self._closed()

    def power_off(self, timeout=120):
        """A clean shutdown through systemd, then QEMU exits (-no-reboot)."""
        if self.process is None:
            return
        try:
            self.run("systemctl start --no-block poweroff.target", timeout=30)
        except BoxError:
            pass
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.cut_power()
            return
        self._closed()

    def wait_off(self, timeout):
        """Waits for QEMU to end by itself (with -no-reboot, a reset or a power-off ends it). Returns
        True if it ended."""
        if self.process is None:
            return True
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return False
        self._closed()
        return True

    def running(self):
        return self.process is not None and self.process.poll() is None

    def _closed(self):
        if self.agent is not None:
            self.agent.close()
        self.agent = None
        self.process = None

    def why_ended(self):
        """What the console said last, for a QEMU that ended on its own (with -no-reboot, any reset ends
        it: the hardware watchdog, a panic, a reboot)."""
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "QEMU still runs"
        with open(self.console, errors="replace") as f:
            tail = [line.strip() for line in f.read().splitlines() if line.strip()][-3:]
        return "QEMU ended (status %s); the console's last lines: %s" % (self.process.returncode, " | ".join(tail))

    def _qemu_log(self):
        with open(os.path.join(self.work_dir, "qemu-%d.log" % self.boots)) as f:
            return f.read()[-2000:]

    # -- the agent -----------------------------------------------------------------------------------------

    def _read_line(self, deadline):
        while b"\n" not in self.agent_buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BoxError("no answer from the guest in time")
            if not self.running():
                raise BoxError("QEMU is not running (a reset ends it: watchdog or panic?)")
            self.agent.settimeout(min(remaining, 1.0))
            try:
                chunk = self.agent.recv(65536)
            except socket.timeout:
                continue
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                raise BoxError("the agent's socket closed: %s" % self.why_ended())
            self.agent_buffer += chunk
        line, self.agent_buffer = self.agent_buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def wait_agent(self, timeout=600):
        """Waits until the agent answers; returns host seconds since QEMU started. Its greeting is
        enough; if none comes, a harmless command is sent every 30 s, in case the greeting went out
        before the host was listening. Generous: TCG on a busy host boots slowly."""
        deadline = time.monotonic() + timeout
        probe_at = time.monotonic() + 30
        probes = set()
        while self.hello is None:
            try:
                line = self._read_line(min(deadline, probe_at))
            except BoxError:
                if time.monotonic() >= deadline or not self.running():
                    raise
                self.next_id += 1
                probes.add(str(self.next_id))
                self.agent.sendall(("RUN %d %s\n" % (self.next_id, base64.b64encode(b"true").decode())).encode())
                probe_at = time.monotonic() + 30
                continue
            parts = line.split()
            if parts and parts[0] == "HELLO":
                self.hello = parts[1:]
            elif len(parts) >= 2 and parts[0] == "RESULT" and parts[1] in probes:
                self.hello = ["(answered a probe)"]
        return time.monotonic() - self.launched_at

    def run(self, command, timeout=60, check=False):
        """Runs `command` with bash in the guest as root; returns (status, output)."""
        status, output = self._run_once(command, timeout, check)
        # journalctl skips a whole journal file it catches while journald is growing it ("… is truncated,
        # ignoring file."), and with the journal in RAM that is the only file: its lines are there a moment
        # later (seen once in CI: the grow-data unit's log read as that warning alone).
        tries = 0
        while "journalctl" in command and "is truncated, ignoring file" in output and tries < 10:
            tries += 1
            time.sleep(0.5)
            status, output = self._run_once(command, timeout, check)
        return status, output

    def _run_once(self, command, timeout, check):
        if self.agent is None:
            raise BoxError("the box is off")
        self.next_id += 1
        ident = str(self.next_id)
        payload = base64.b64encode(command.encode()).decode()
        self.agent.sendall(("RUN %s %s\n" % (ident, payload)).encode())
        deadline = time.monotonic() + timeout * self.slowdown
        while True:
            line = self._read_line(deadline)
            parts = line.split(" ", 3)
            if parts[0] == "HELLO":
                self.hello = parts[1:]
                continue
            if parts[0] != "RESULT" or parts[1] != ident:
                continue
            status = int(parts[2])
            output = base64.b64decode(parts[3]).decode("utf-8", "replace") if len(parts) > 3 else ""
            if check and status != 0:
                raise BoxError("in the guest, `%s` failed (%d): %s" % (command, status, output[-1500:]))
            return status, output

    def out(self, command, timeout=60):
        """The output of a command that must succeed."""
        return self.run(command, timeout=timeout, check=True)[1].strip()

    # -- SSH from the host ---------------------------------------------------------------------------------

    def ssh(self, command, key, known_hosts, new_host_key=False, options=(), timeout=60):
        """Runs `command` over real SSH as root, through the forwarded port; returns (status, stdout,
        stderr). The host key must match `known_hosts`, unless `new_host_key` lets a first one in."""
        arguments = [
            "ssh", "-F", "none", "-p", str(self.ssh_port), "-i", key,
            "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "BatchMode=yes",
            "-o", "UserKnownHostsFile=" + known_hosts,
            "-o", "StrictHostKeyChecking=" + ("accept-new" if new_host_key else "yes"),
            "-o", "ConnectTimeout=30", *options, "root@127.0.0.1", command,
        ]
        try:
            done = subprocess.run(arguments, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            raise BoxError("ssh `%s` did not finish in %d s" % (command, timeout))
        return done.returncode, done.stdout, done.stderr

    # -- the daemon ----------------------------------------------------------------------------------------

    def status(self):
        status, output = self.run("stillroomctl --json status")
        if status != 0:
            raise BoxError("stillroomctl status failed (%d): %s" % (status, output))
        return json.loads(output)

    def ctl(self, *arguments):
        return self.run("stillroomctl " + " ".join(arguments))

    def service(self):
        """The unit's state as systemd sees it."""
        props = "ActiveState,SubState,MainPID,NRestarts,ActiveEnterTimestampMonotonic,Result"
        text = self.out("systemctl show stillroom.service -p " + props)
        values = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
        return values

    def wait_until(self, what, predicate, timeout, interval=0.3):
        """Polls `predicate()` until it returns something true; returns it. Not a timing assertion: the
        timeout only stops a test that would otherwise hang."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            try:
                last = predicate()
            except BoxError:
                if not self.running():
                    raise
                last = None
            if last:
                return last
            if time.monotonic() > deadline + timeout * (self.slowdown - 1):
                raise BoxError("%s: not within %d s" % (what, timeout * self.slowdown))
            time.sleep(interval)

    def wait_ready(self, timeout=480):
        """Waits until systemd has the daemon active (Type=notify: after READY=1). Returns the unit's
        properties."""
        def ready():
            props = self.service()
            return props if props.get("ActiveState") == "active" else None
        return self.wait_until("stillroom.service active", ready, timeout, interval=0.5)

    def open_devices(self, pid):
        """The device nodes the daemon holds open."""
        text = self.run("ls -l /proc/%s/fd 2>/dev/null | sed -n 's/.*-> //p'" % pid)[1]
        return sorted(set(line for line in text.splitlines() if line.startswith("/dev/")))

    # -- the controls, the sound, the screen ------------------------------------------------------------

    def control(self, command):
        """A uinput command (tap play, turn 2, jack 0; image/qemu/stillroom-uinput.c)."""
        self.out("echo '%s' > %s" % (command, UINPUT_FIFO))

    def record(self, seconds):
        """Records `seconds` of what the daemon plays from the loopback's other end; returns (rms,
        frequency) of the 16-bit mono capture: the RMS level and a zero-crossing estimate of pitch."""
        script = (
            "arecord -q -D plughw:CARD=Loopback,DEV=1 -f S16_LE -c 1 -r 44100 -d %d -t raw /run/capture.raw"
            " && od -An -v -td2 -w2 /run/capture.raw | awk '"
            "{ s += $1 * $1; n++; if (n > 1 && (($1 >= 0) != (p >= 0))) z++; p = $1 }"
            " END { if (n == 0) n = 1; printf \"%%.1f %%.1f %%d\\n\", sqrt(s / n), z / 2 / (n / 44100), n }'"
            % seconds)
        rms, frequency, frames = self.out(script, timeout=seconds + 60).split()
        return float(rms), float(frequency), int(frames)

    def screendump(self, path):
        """QEMU's screendump of the bochs display, as a PPM file at `path`."""
        qmp = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        qmp.settimeout(30)
        qmp.connect(self.qmp_path)
        reader = qmp.makefile("rb")
        reader.readline()  # greeting

        def command(name, arguments=None):
            message = {"execute": name}
            if arguments:
                message["arguments"] = arguments
            qmp.sendall(json.dumps(message).encode() + b"\n")
            while True:
                reply = json.loads(reader.readline())
                if "return" in reply or "error" in reply:
                    return reply

        command("qmp_capabilities")
        reply = command("screendump", {"filename": path})
        qmp.close()
        if "error" in reply:
            raise BoxError("screendump: %s" % reply["error"])
        return path


def free_port():
    """A TCP port on the host's loopback that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def read_ppm(path):
    """(width, height, bytes RGB) of a binary PPM (P6, 8-bit)."""
    with open(path, "rb") as f:
        data = f.read()
    fields = []
    index = 0
    while len(fields) < 4:
        while data[index:index + 1].isspace():
            index += 1
        if data[index:index + 1] == b"#":
            index = data.index(b"\n", index) + 1
            continue
        end = index
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[index:end])
        index = end
    index += 1
    if fields[0] != b"P6" or fields[3] != b"255":
        raise BoxError("not an 8-bit P6 PPM: " + path)
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[index:index + width * height * 3]


def read_png(path):
    """(width, height, bytes RGB) of an 8-bit RGB or RGBA, non-interlaced PNG (what cairo writes)."""
    import struct
    import zlib
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise BoxError("not a PNG: " + path)
    index, chunks, header = 8, [], None
    while index < len(data):
        length, kind = struct.unpack(">I4s", data[index:index + 8])
        body = data[index + 8:index + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        index += 12 + length
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        raise BoxError("unsupported PNG (depth %d, colour type %d, interlace %d)" % (depth, color, interlace))
    channels = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous, index = [], bytearray(stride), 0
    for _ in range(height):
        kind = raw[index]
        line = bytearray(raw[index + 1:index + 1 + stride])
        index += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            upper_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - upper_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else upper_left)
                line[i] = (line[i] + predictor) & 255
        rows.append(bytes(line))
        previous = line
    pixels = b"".join(rows)
    if channels == 4:
        pixels = bytes(b for i, b in enumerate(pixels) if i % 4 != 3)
    return width, height, pixels


def mean_difference(a, b):
    """Mean absolute difference per channel (0–255) of two same-sized RGB byte strings."""
    if len(a) != len(b):
        raise BoxError("images differ in size")
    step = 7  # every 7th byte is plenty for a tolerance check and keeps it fast
    total = sum(abs(a[i] - b[i]) for i in range(0, len(a), step))
    return total / (len(a) // step)


def check_data_partition(box, scratch):
    """Offline, on the host, right after a power cut: copies the data partition out of the disk, lets
    e2fsck replay its journal (as the box's boot-time fsck would), checks it again read-only, then reads
    the database files out with debugfs and runs SQLite's quick_check on them. Returns a dict of findings."""
    offset, size = box.partition(DATA_PARTITION)
    copy = os.path.join(scratch, "data.ext4")
    subprocess.run(["dd", "if=" + box.disk, "of=" + copy, "bs=1M", "skip=%d" % (offset // 1048576),
                    "count=%d" % (size // 1048576), "status=none", "conv=sparse"], check=True)
    repair = subprocess.run(["e2fsck", "-fy", copy], capture_output=True, text=True)
    verify = subprocess.run(["e2fsck", "-fn", copy], capture_output=True, text=True)
    found = {
        "fsck_replay_status": repair.returncode,
        "fsck_replay_output": repair.stdout.strip().splitlines()[-3:],
        "fsck_verify_status": verify.returncode,
    }
    dump = os.path.join(scratch, "db")
    shutil.rmtree(dump, ignore_errors=True)
    os.makedirs(dump)
    # The daemon's folder on the partition (board/data/stillroom-data-layout).
    listing = subprocess.run(["debugfs", "-R", "ls -l /stillroomd", copy], capture_output=True, text=True).stdout
    for name in ("stillroom.db", "stillroom.db-wal"):
        if " %s" % name in listing:
            subprocess.run(["debugfs", "-R", "dump /stillroomd/%s %s/%s" % (name, dump, name), copy],
                           capture_output=True, check=True)
    database = os.path.join(dump, "stillroom.db")
    if os.path.exists(database):
        check = subprocess.run(["sqlite3", database, "PRAGMA quick_check"], capture_output=True, text=True)
        found["quick_check"] = (check.stdout.strip() or check.stderr.strip())
    else:
        found["quick_check"] = "no database on the partition"
    os.unlink(copy)
    return found

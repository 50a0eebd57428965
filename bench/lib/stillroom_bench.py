"""What the Python benches share: reading a process's CPU time and peak memory from /proc, starting
the real stillroomd in a scratch folder with its control socket ready, and reading its start line."""
import contextlib, os, re, signal, subprocess, time

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def add_daemon_arguments(parser, session_default="steady-breath"):
    """The options every bench that starts the real daemon takes: its binaries, the content, a session."""
    parser.add_argument("--stillroomd", required=True)
    parser.add_argument("--stillroomctl", required=True)
    parser.add_argument("--content", required=True)
    if session_default is None:
        parser.add_argument("--session", required=True)
    else:
        parser.add_argument("--session", default=session_default)


def cpu_seconds(pid):
    """CPU time of `pid`'s threads so far, in seconds: the scheduler's nanosecond count of time on a CPU
    (/proc/PID/task/*/schedstat), since the 10 ms ticks of /proc/PID/stat are too coarse for a daemon
    that uses half a percent of a core. Falls back to the ticks where schedstat is missing."""
    try:
        total = 0
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        return total / 1e9
    except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def peak_rss_kib(pid):
    """The most memory `pid` has held resident (VmHWM), in KiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


@contextlib.contextmanager
def stillroomd(binary, work, content, audio_device, display="none"):
    """Runs stillroomd with its data and socket under `work`; yields (process, socket path) once the socket
    exists, and stops it with SIGTERM afterwards."""
    sock = os.path.join(work, "ctl.sock")
    daemon = subprocess.Popen([binary, "--data-dir", os.path.join(work, "data"), "--content-dir", content,
                               "--display", display, "--input", "none", "--socket", sock, "--audio-device", audio_device],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if os.path.exists(sock):
                break
            time.sleep(0.05)
        yield daemon, sock
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait()


def start_line(text):
    """(exec → READY, before main) in milliseconds from the first of the daemon's "start: 3480 ms from exec
    to READY (before main 2200, …)" lines in `text` (StartTimeline), or None when there is none."""
    match = re.search(r"start: (\d+) ms from exec to READY \(before main (\d+)", text)
    return (int(match.group(1)), int(match.group(2))) if match else None

#!/usr/bin/env python3
"""Start-to-READY: stillroomd against mpd, each started under a fake systemd notify socket.

Each run execs the daemon with NOTIFY_SOCKET pointing at a datagram socket this script binds (as systemd
does for Type=notify) and times exec → READY=1. For mpd (Debian's build links libsystemd and sends
READY=1 too) it also times exec → the first "OK MPD" greeting on its TCP port, the moment a client can
talk to it. Alongside wall time it reads the process's CPU time at READY (sum of /proc/PID/task/*/schedstat,
nanoseconds on a CPU): on a shared, busy machine wall time includes waiting for a core, CPU time does not.

"cold-ish": a fresh, empty data directory every run (stillroomd creates and migrates its database and
measures the recordings; mpd creates its database and scans the music directory). "warm": the same data
directory again (the database exists). Neither drops the page cache (that would slow everyone else on a
shared machine); the binaries and libraries are in it after the first run.
"""
import argparse, json, os, socket, statistics, subprocess, sys, tempfile, time


def cpu_ns(pid):
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            pass  # a thread that just ended
    return total


def notify_socket(work):
    path = os.path.join(work, "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(30)
    return sock, path


def wait_ready(sock, process):
    """Blocks until a datagram with READY=1 arrives; returns (monotonic time, CPU ns of the process then)."""
    while True:
        message = sock.recv(4096).decode(errors="replace")
        if "READY=1" in message.split("\n"):
            return time.monotonic(), cpu_ns(process.pid)


def start_stillroomd(args, data, work, display):
    sock, path = notify_socket(work)
    command = [args.stillroomd, "--data-dir", data, "--content-dir", args.content, "--display", display,
               "--preview", "off", "--input", "none", "--socket", os.path.join(work, "ctl.sock"), "--audio-device", "null"]
    env = dict(os.environ, NOTIFY_SOCKET=path)
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        ready, cpu = wait_ready(sock, process)
        return {"ready_s": ready - started, "cpu_s": cpu / 1e9}
    finally:
        process.terminate()
        process.wait()
        sock.close()
        os.unlink(path)


def mpd_config(args, data, port):
    music = os.path.join(data, "music")
    if not os.path.isdir(music):
        os.makedirs(music)
        for session in sorted(os.listdir(os.path.join(args.content, "sessions"))):
            audio = os.path.join(args.content, "sessions", session, "audio.mp3")
            if os.path.exists(audio):
                os.symlink(os.path.abspath(audio), os.path.join(music, session + ".mp3"))
    conf = os.path.join(data, "mpd.conf")
    with open(conf, "w") as f:
        f.write(f'music_directory "{music}"\nplaylist_directory "{data}"\ndb_file "{data}/mpd.db"\n'
                f'state_file "{data}/state"\nbind_to_address "127.0.0.1"\nport "{port}"\n'
                'audio_output {\n  type "alsa"\n  name "null"\n  device "null"\n}\n')
    return conf


def first_greeting(port, deadline):
    """Polls the port until mpd accepts and greets; returns the monotonic time of the greeting."""
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as client:
                if client.recv(64).startswith(b"OK MPD"):
                    return time.monotonic()
        except OSError:
            time.sleep(0.002)
    raise TimeoutError("mpd never greeted")


def start_mpd(args, data, work):
    port = args.mpd_port
    conf = mpd_config(args, data, port)
    sock, path = notify_socket(work)
    env = dict(os.environ, NOTIFY_SOCKET=path)
    started = time.monotonic()
    process = subprocess.Popen(["mpd", "--no-daemon", conf], env=env, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        greeted = first_greeting(port, started + 30)
        ready, cpu = wait_ready(sock, process)
        return {"ready_s": ready - started, "cpu_s": cpu / 1e9, "greeting_s": greeted - started}
    finally:
        process.terminate()
        process.wait()
        sock.close()
        os.unlink(path)


def medians(runs):
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stillroomd", required=True)
    parser.add_argument("--content", required=True)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--mpd-port", type=int, default=6612)
    args = parser.parse_args()
    players = {
        "stillroomd": lambda data, work: start_stillroomd(args, data, work, "none"),
        "stillroomd+screen": lambda data, work: start_stillroomd(args, data, work, f"png@800x480:{work}/screen.png"),
        "mpd": lambda data, work: start_mpd(args, data, work),
    }
    results = {}
    for name, start in players.items():
        cold, warm = [], []
        with tempfile.TemporaryDirectory(prefix=f"bench-start-{name}-", dir="/var/tmp") as work:
            for index in range(args.runs):
                # Cold-ish: a new data directory each time. Warm: the same one, reused.
                fresh = os.path.join(work, f"fresh-{index}")
                cold.append(start(fresh, work))
                warm.append(start(os.path.join(work, "fresh-0"), work))
        results[name] = {"cold": medians(cold), "warm": medians(warm)}
    json.dump({"runs": args.runs, "results": results}, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()

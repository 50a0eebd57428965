#!/usr/bin/env python3
"""What the screen costs the running daemon: stillroomd playing the same recording on the same paced
device (ALSA `pulse` into a PulseAudio null sink), once with no display (audio alone) and once with the
player drawn and animating into memory (`--display memory@WxH`: the whole display path but the panel),
the screen kept lit. Reports CPU seconds per second of audio (user+system, /proc/PID/stat) and frames.
"""
import argparse, json, os, signal, subprocess, tempfile, time

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime + stime


def run(args, display):
    with tempfile.TemporaryDirectory(prefix="stillroom-display-cpu-") as work:
        data, sock = os.path.join(work, "data"), os.path.join(work, "ctl.sock")
        daemon = subprocess.Popen([args.stillroomd, "--data-dir", data, "--content-dir", args.content, "--display", display,
                                   "--input", "none", "--socket", sock, "--audio-device", "pulse"], stderr=subprocess.DEVNULL)
        ctl = lambda *words: subprocess.run([args.stillroomctl, "--socket", sock, *words], check=True,
                                            stdout=subprocess.PIPE, text=True).stdout
        try:
            for _ in range(200):
                if os.path.exists(sock):
                    break
                time.sleep(0.05)
            # The screen stays lit for the whole run (the longest the settings allow).
            ctl("settings", "set", "dim-after", "3600")
            ctl("settings", "set", "dark-after", "3600")
            ctl("play", args.session)
            time.sleep(args.warmup)
            start = cpu_seconds(daemon.pid)
            time.sleep(args.seconds)
            used = cpu_seconds(daemon.pid) - start
            status = json.loads(ctl("status", "--json"))
            return {"display": display, "cpuSecondsPerSecond": used / args.seconds, "state": status.get("state"),
                    "screen": status.get("screen")}
        finally:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stillroomd", required=True)
    parser.add_argument("--stillroomctl", required=True)
    parser.add_argument("--content", required=True)
    parser.add_argument("--session", default="steady-breath")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--sizes", default="800x480,480x320")
    args = parser.parse_args()
    results = [run(args, "none")]
    for size in args.sizes.split(","):
        results.append(run(args, f"memory@{size}"))
    alone = results[0]["cpuSecondsPerSecond"]
    for result in results:
        result["ratioToAudioAlone"] = result["cpuSecondsPerSecond"] / alone if alone > 0 else None
    print(json.dumps({"seconds": args.seconds, "session": args.session, "results": results}, indent=2))


if __name__ == "__main__":
    main()

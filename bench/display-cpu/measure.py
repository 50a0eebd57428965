#!/usr/bin/env python3
"""What the screen costs the running daemon: stillroomd playing the same recording on the same paced
device (ALSA `pulse` into a PulseAudio null sink), once with no display (audio alone) and once with the
player drawn and animating into memory (`--display memory@WxH`: the whole display path but the panel),
the screen kept lit. Reports CPU seconds per second of audio (user+system, /proc/PID/stat) and frames.
"""
import argparse, json, os, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stillroom_bench import add_daemon_arguments, cpu_seconds, stillroomd


def run(args, display):
    with tempfile.TemporaryDirectory(prefix="stillroom-display-cpu-") as work, \
            stillroomd(args.stillroomd, work, args.content, args.audio_device, display=display) as (daemon, sock):
        ctl = lambda *words: subprocess.run([args.stillroomctl, "--socket", sock, *words], check=True,
                                            stdout=subprocess.PIPE, text=True).stdout
        # The screen stays lit for the whole run (the longest the settings allow).
        ctl("settings", "set", "dim-after", "3600")
        ctl("settings", "set", "dark-after", "3600")
        ctl("play", args.session)
        # Into the guided breathing (the session's breath cues run from 0:46 to 4:21), where the circle moves.
        ctl("seek", args.seek)
        time.sleep(args.warmup)
        start = cpu_seconds(daemon.pid)
        time.sleep(args.seconds)
        used = cpu_seconds(daemon.pid) - start
        status = json.loads(ctl("status", "--json"))
        return {"display": display, "cpuSecondsPerSecond": used / args.seconds, "state": status.get("state"),
                "page": status.get("page"), "screen": status.get("screen"), "position": status.get("position")}


def main():
    parser = argparse.ArgumentParser()
    add_daemon_arguments(parser)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--seek", default="1:00", help="where to measure from (MM:SS)")
    parser.add_argument("--sizes", default="800x480,480x320")
    parser.add_argument("--displays", help="the displays to measure against none, instead of memory@ each of --sizes "
                        "(on a Pi: drm)")
    parser.add_argument("--audio-device", default="pulse",
                        help="the ALSA device the daemon plays on (on a Pi: the DAC's, e.g. hw:CARD=sndrpihifiberry)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="runs of each display, interleaved; the median is reported (this VM's noise is ±10 %%)")
    args = parser.parse_args()
    displays = ["none"] + (args.displays.split(",") if args.displays else [f"memory@{size}" for size in args.sizes.split(",")])
    runs = {display: [] for display in displays}
    for _ in range(args.rounds):
        for display in displays:
            runs[display].append(run(args, display))
    results = []
    for display in displays:
        ordered = sorted(runs[display], key=lambda r: r["cpuSecondsPerSecond"])
        median = dict(ordered[len(ordered) // 2])
        median["allRounds"] = [r["cpuSecondsPerSecond"] for r in runs[display]]
        results.append(median)
    alone = results[0]["cpuSecondsPerSecond"]
    for result in results:
        result["ratioToAudioAlone"] = result["cpuSecondsPerSecond"] / alone if alone > 0 else None
    print(json.dumps({"seconds": args.seconds, "rounds": args.rounds, "session": args.session, "results": results}, indent=2))


if __name__ == "__main__":
    main()

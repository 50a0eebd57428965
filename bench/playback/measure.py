#!/usr/bin/env python3
"""CPU and memory of three players on the same recording and the same paced device, side by side.

stillroomd (through stillroomctl), mpg123 -o alsa, and mpd (alsa output), each playing FILE for SECONDS
through ALSA's `pulse` device into a PulseAudio null sink, which consumes audio in real time. Reports CPU
seconds per second of audio (user+system from /proc/PID/stat) and peak RSS (VmHWM). Timing is the
players' own; this script only starts, waits and reads /proc.
"""
import argparse, json, os, shutil, signal, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stillroom_bench import add_daemon_arguments, cpu_seconds, peak_rss_kib, stillroomd


def sample(pid, seconds):
    start = cpu_seconds(pid)
    time.sleep(seconds)
    return cpu_seconds(pid) - start, peak_rss_kib(pid)


def bench_stillroomd(args, work):
    with stillroomd(args.stillroomd, work, args.content, "pulse") as (daemon, sock):
        subprocess.run([args.stillroomctl, "--socket", sock, "play", args.session], check=True, stdout=subprocess.DEVNULL)
        time.sleep(args.warmup)
        return sample(daemon.pid, args.seconds)


def bench_mpg123(args, work):
    player = subprocess.Popen(["mpg123", "-q", "-o", "alsa", "-a", "pulse", args.file], stderr=subprocess.DEVNULL)
    try:
        time.sleep(args.warmup)
        return sample(player.pid, args.seconds)
    finally:
        player.terminate()
        player.wait()


def bench_mpd(args, work):
    music = os.path.join(work, "music")
    os.makedirs(music)
    shutil.copy(args.file, os.path.join(music, "session.mp3"))
    port = "6611"
    conf = os.path.join(work, "mpd.conf")
    with open(conf, "w") as f:
        f.write(f'music_directory "{music}"\nplaylist_directory "{work}"\ndb_file "{work}/mpd.db"\n'
                f'state_file "{work}/state"\nbind_to_address "127.0.0.1"\nport "{port}"\n'
                'audio_output {\n  type "alsa"\n  name "pulse"\n  device "pulse"\n}\n')
    mpd = subprocess.Popen(["mpd", "--no-daemon", conf], stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        mpc = ["mpc", "-q", "-p", port]
        for _ in range(100):
            if subprocess.run(mpc + ["status"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
                break
            time.sleep(0.05)
        subprocess.run(mpc + ["update", "--wait"], check=True)
        subprocess.run(mpc + ["add", "session.mp3"], check=True)
        subprocess.run(mpc + ["play"], check=True)
        time.sleep(args.warmup)
        return sample(mpd.pid, args.seconds)
    finally:
        mpd.terminate()
        mpd.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--file", required=True)
    add_daemon_arguments(parser, session_default=None)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    results = {}
    for name, run in [("stillroomd", bench_stillroomd), ("mpg123", bench_mpg123), ("mpd", bench_mpd)]:
        cpu_total, rss = 0.0, 0
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory(prefix=f"bench-{name}-") as work:
                cpu, peak = run(args, work)
            cpu_total += cpu
            rss = max(rss, peak)
        results[name] = {"cpu_seconds_per_audio_second": cpu_total / (args.seconds * args.rounds), "peak_rss_kib": rss}
    json.dump({"seconds": args.seconds, "rounds": args.rounds, "results": results}, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()

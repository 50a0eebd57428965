/// stillroomctl's help: `--help`, `COMMAND --help`, and its manual page (`ManualPage`), from this one text.
public enum CommandLineHelp {
    public static let text = """
        Usage: stillroomctl [--socket PATH] [--data-dir PATH] [--content-dir PATH] [--wifi-control PATH] [--wait SECONDS] [--json] COMMAND [ARGS]

        Look after a Stillroom box over SSH. Talks to stillroomd through its control socket; when the
        daemon is down, read-only commands answer from the database and the content folder.

        Playback:
          status                      what the box is doing (works with the daemon down)
          play [ID]                   play a session; without ID: take the resume offer, resume, or
                                      start the first-boot session
          pause | resume | toggle | stop
          seek +S | -S | MM:SS        move forward or back S seconds, or to a time
          volume N                    set the volume, 0 to 100
          dismiss [--notice N]        dismiss the resume offer, or notice N

        Library:
          sessions [--theme T] [--favorites] [--offline]
                                      the sessions (works with the daemon down)
          show ID                     one session in full
          transcript ID               the session's transcript, with times (bundled or downloaded;
                                      from the content folder when the daemon is down)
          favorite add|remove ID

        Downloads:
          downloads                   what is downloading, on the box or failed, and the sources
          download ID                 fetch a session from a download source
          download cancel ID          stop fetching it (a previous copy stays)
          download remove ID --yes    remove a downloaded recording from the box

        Practice history:
          history [--month YYYY-MM]   minutes per practice day, totals, streak (works with the daemon down)
          history recent              the latest sessions: when, minutes heard, completed or not
          history export --format json|csv
          history delete --run ID     delete one run (numbers from history recent)
          history delete --all --yes  delete the whole history, for good

        Breathing timer (no recording; the circle paces the breath):
          timer start [--minutes 3|5|10|N] [--pattern 4-4|4-7-8|box|4-6]
          timer stop | timer

        Reminder (off until you opt in):
          reminder                    the reminder and when it is next due
          reminder set HH:MM [--days mon,tue,…|weekdays|weekends] [--style chime|glow] [--quiet HH:MM-HH:MM]
          reminder off

        Settings:
          settings                    every setting with its value and what it takes
          settings set KEY VALUE      change one (for example: settings set night-cap 35)

        Maintenance:
          doctor                      database, content, audio output, disk space, clock, network:
                                      ok or what to do
          network                     interfaces, addresses, Wi-Fi and its signal, download hosts' lookup
          say TEXT                    speak TEXT through the box (checks the speech path)
          screenshot FILE.png         save what the screen shows now
          update install FILE|URL     install a signed update bundle (a .raucb, or an https URL on the
                                      download hosts), then restart into it; refused while playing
                                      and when not newer than the running version
          update status               the running version and slot, the other slot, the last result

        Options:
          --socket PATH      the control socket        [/run/stillroom/control.sock]
          --data-dir PATH    the daemon's data folder   [/var/lib/stillroom/stillroomd]
          --content-dir PATH the bundled content       [/usr/share/stillroom/content]
          --wifi-control PATH the Wi-Fi relay's sockets         [/run/stillroom-wifi]
          --wait SECONDS     how long to wait for the daemon's answer (1 to 3600)  [30]
          --json             print the result as one JSON object
          --help             this text; `stillroomctl COMMAND --help` for one command

        Exit status: 0 ok, 1 failed, 2 wrong command line, 3 daemon not reachable,
                     4 no such session/run/notice, 5 permission denied.
        """

    public static let commands: [String: String] = [
        "status": "Usage: stillroomctl status [--json]\nShows state, session, position, duration, output, volume, resume offer, last checkpoint and notices.",
        "play": "Usage: stillroomctl play [ID]\nPlays session ID from the start; without ID takes the resume offer, resumes, or starts the first-boot session.",
        "pause": "Usage: stillroomctl pause\nPauses with a short fade; the place is saved.",
        "resume": "Usage: stillroomctl resume\nResumes a paused session.",
        "toggle": "Usage: stillroomctl toggle\nPlays or pauses, like the PLAY button.",
        "stop": "Usage: stillroomctl stop\nStops; the place is saved and offered after a restart.",
        "seek": "Usage: stillroomctl seek +S | -S | MM:SS\nMoves S seconds forward or back, or to MM:SS from the start.",
        "volume": "Usage: stillroomctl volume N\nSets the volume, 0 to 100 (caps for headphones and night still apply).",
        "dismiss": "Usage: stillroomctl dismiss [--notice N]\nDismisses the resume offer, or notice N (see status).",
        "sessions": "Usage: stillroomctl sessions [--theme breathe|focus|unwind] [--favorites] [--offline]\nLists sessions; --offline: only those on the box.",
        "show": "Usage: stillroomctl show ID\nShows one session: description, length, licence, whether it is on the box.",
        "transcript": "Usage: stillroomctl transcript ID [--json]\nPrints the transcript with the time of each line, as the daemon has it (bundled or downloaded).\nWith the daemon down, a bundled session's transcript is read from the content folder, and stillroomctl says so.",
        "doctor": "Usage: stillroomctl doctor [--essential] [--json]\nChecks the database, storage (written, and kept across power-offs), content, audio output, disk space,\nclock and network; each ok or what to do.\nExit status 1 when a check fails.\n--essential: only what PLAY needs (database, content, audio output), from the running daemon\n(the update's slot check uses it).",
        "downloads": "Usage: stillroomctl downloads [--json]\nEach download's state (queued, downloading N%, verifying, on this box, failed with the reason and what to do).",
        "download": "Usage: stillroomctl download ID | download cancel ID | download remove ID --yes",
        "history": "Usage: stillroomctl history [month [--month YYYY-MM] | recent | export --format json|csv | delete --run ID | delete --all --yes]\nMinutes are what was really heard; a practice day runs from the day-boundary setting (04:00).",
        "reminder": "Usage: stillroomctl reminder [set HH:MM [--days …] [--style chime|glow] [--quiet HH:MM-HH:MM] | off]\nA reminder never interrupts a session; when it may not sound (quiet hours, muted, night, no output) it is a silent card.",
        "timer": "Usage: stillroomctl timer [start [--minutes N] [--pattern 4-4|4-7-8|box|4-6] | stop]\nA silent breathing timer with a soft cue at the start and the end; its minutes count as silent practice (setting timer-counts).",
        "settings": "Usage: stillroomctl settings [set KEY VALUE]\nLists the settings, or changes one; a wrong value says what the key takes.",
        "screenshot": "Usage: stillroomctl screenshot FILE.png\nSaves what the screen shows now: the daemon writes it into its own screenshot folder, and stillroomctl copies it to FILE.png as the user who runs it.",
        "say": "Usage: stillroomctl say TEXT\nSpeaks TEXT through the box with the on-box voice, over the recording (ducked) or alone.",
        "update": "Usage: stillroomctl update install FILE.raucb|https://HOST/FILE.raucb [--yes] [--allow-downgrade] [--no-wait] | update status [--json]\nInstalls a signed RAUC bundle into the other slot, with its progress, then the box restarts into it and keeps it\nonly if it starts well (else it goes back by itself). Refused while a session plays. --no-wait: return once it has begun.\n--yes: confirms the install when not run as root. Versions only go forward: a bundle not newer than the running\none is refused unless root gives --allow-downgrade (root only; for this one install, within the hour).\nstatus: the running version and slot, the other slot's version, a pending install, the last update's result.",
        "network": "Usage: stillroomctl network [--json]\nEach network interface (wired, Wi-Fi): link, addresses, the Wi-Fi network joined and its signal, or why\nit could not join; then whether the download hosts resolve (known from the running daemon).\nExit status 1 when the box has no usable network. Works with the daemon down.",
        "favorite": "Usage: stillroomctl favorite add|remove ID\nMarks or unmarks a favourite.",
    ]
}

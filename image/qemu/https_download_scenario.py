"""A real HTTPS download in the twin (docs/downloads.md; docs/security.md, "Signed lists").

The daemon is given two lists of sessions over TLS: one from the update test's server, whose CA the guest
trusts (bundle_server), signed with the development key the twin's image trusts; one from a stranger's
server whose certificate comes from a CA the guest does not know. The first list is taken and its session
downloads over TLS and verifies; the second is refused at the handshake, before a byte of HTTP. The
session's files are flat (the bundle server serves names, not paths).
"""

import hashlib
import json
import os
import subprocess

import bundle_server

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STRANGER_HOST = "stranger.stillroom.test"
STRANGER_ADDRESS = "10.0.2.101"
SESSION = "tls-sweep"
TRUSTED_LIST = "https://%s/manifest.json" % bundle_server.HOST
STRANGER_LIST = "https://%s/manifest.json" % STRANGER_HOST


def make_content(folder):
    """Writes the session's files and its signed list into `folder`; returns the recording's SHA-256."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(REPO, "Tests", "Fixtures", "audio", "sweep-20s-44k-mono.mp3"), "rb") as f:
        audio = f.read()
    files = {
        SESSION + ".mp3": audio,
        SESSION + ".vtt": b"WEBVTT\n\n00:00.000 --> 00:20.000\nA sweep that came over TLS.\n",
        SESSION + ".provenance.json": b'{"made": "by the system test from a test fixture"}',
    }
    digest = hashlib.sha256(audio).hexdigest()
    listing = {"schema": 1, "version": 1, "sessions": [{
        "id": SESSION, "title": "TLS sweep", "theme": "unwind", "description": "A sweep downloaded over HTTPS.",
        "durationSeconds": 20.0, "remote": {"url": SESSION + ".mp3", "bytes": len(audio), "sha256": digest},
        "transcript": SESSION + ".vtt", "provenance": SESSION + ".provenance.json",
        "sideFileSha256": {role: hashlib.sha256(files[SESSION + suffix]).hexdigest()
                           for role, suffix in (("transcript", ".vtt"), ("provenance", ".provenance.json"))},
        "license": {"name": "CC0 1.0", "attribution": "Stillroom project"}}]}
    files["manifest.json"] = json.dumps(listing, indent=1).encode()
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    subprocess.run(["openssl", "pkeyutl", "-sign", "-rawin", "-inkey",
                    os.path.join(REPO, "board", "keys", "development-content.key"),
                    "-in", os.path.join(folder, "manifest.json"), "-out", os.path.join(folder, "manifest.json.sig")],
                   check=True, capture_output=True)
    return digest


def start_stranger(work_dir, folder):
    """The same files over TLS with a certificate from a CA the guest does not trust; returns the server and
    its QEMU forward (STRANGER_ADDRESS:443)."""
    certificates = bundle_server.make_certificates(os.path.join(work_dir, "stranger-certificates"), host=STRANGER_HOST)
    server = bundle_server.start(folder, certificates)
    return server, bundle_server.guest_forward(server, STRANGER_ADDRESS)


def scenario(box, report, check, state, trust, needs_running_box):
    """The scenario's function. `trust(box)` makes the guest trust the update test's server (idempotent)."""

    def https_download():
        needs_running_box()
        if "content_digest" not in state:
            check(False, "the HTTPS servers were not started (the refusals scenario sets them up)")
        trust(box)
        box.out("grep -q ' %s$' /etc/hosts || echo '%s %s' >> /etc/hosts" % (STRANGER_HOST, STRANGER_ADDRESS, STRANGER_HOST))
        # The daemon's options as a maintainer would set them, in the test's copy of the file (bind-mounted over
        # the read-only root's by `trust`); put back afterwards.
        box.out("cp /run/test-env /run/test-env.before && sed 's|^STILLROOMD_OPTIONS=.*|& --manifest %s --manifest %s|' "
                "/run/test-env.before > /run/test-env.new && cat /run/test-env.new > /run/test-env && systemctl restart stillroom"
                % (TRUSTED_LIST, STRANGER_LIST))
        box.wait_ready(timeout=300)
        try:
            def both_lists():
                sources = {s["url"]: s for s in json.loads(box.out("stillroomctl --json downloads"))["sources"]}
                settled = len(sources) == 2 and all(s["state"] in ("loaded", "failed") for s in sources.values())
                return sources if settled else None
            sources = box.wait_until("both lists fetched", both_lists, 180, interval=1.0)
            trusted, stranger = sources[TRUSTED_LIST], sources[STRANGER_LIST]
            report.figure("https.trusted_source", trusted["summary"])
            report.figure("https.stranger_source", (stranger.get("failure") or {}).get("reason"))
            check(trusted["state"] == "loaded" and trusted.get("sessions") == 1, "the trusted list: %s" % trusted)
            check(stranger["state"] == "failed" and (stranger.get("failure") or {}).get("code") == "tls",
                  "the stranger's list was not refused at the TLS handshake: %s" % stranger)
            check(state["stranger"].bytes_sent == 0, "the stranger's server sent %d bytes of HTTP" % state["stranger"].bytes_sent)

            box.out("stillroomctl download %s" % SESSION)

            def on_box():
                downloads = json.loads(box.out("stillroomctl --json downloads"))["downloads"]
                mine = [d for d in downloads if d["session"] == SESSION]
                return mine[0] if mine and mine[0]["state"] in ("on_this_box", "failed") else None
            download = box.wait_until("the download over TLS", on_box, 300, interval=1.0)
            check(download["state"] == "on_this_box", "the download: %s" % download)
            copy = box.out("sha256sum /var/lib/stillroom/stillroomd/downloads/%s.mp3" % SESSION).split()[0]
            check(copy == state["content_digest"], "the copy on the box is %s, the list says %s" % (copy, state["content_digest"]))
            report.figure("https.downloaded_bytes", download.get("bytesTotal"))
        finally:
            box.run("stillroomctl download remove %s --yes" % SESSION)
            box.run("cat /run/test-env.before > /run/test-env && systemctl restart stillroom")
            box.wait_ready(timeout=300)
        return ("%s over TLS from a server with a trusted test CA: listed, downloaded and verified (sha256 %s…); "
                "%s refused at the handshake (%s)" % (SESSION, copy[:12], STRANGER_HOST,
                                                      (stranger.get("failure") or {}).get("reason", "")[:120]))

    return https_download

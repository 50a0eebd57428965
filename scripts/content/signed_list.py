"""Writes Content/remote/manifest.json as a publisher must (docs/security.md, "Signed lists"): each session
with the SHA-256 of its side files (`sideFileSha256`), a `version` one above the list's before whenever the
sessions changed, and the list signed with the development key (scripts/sign-list)."""

import hashlib
import json
import os
import subprocess

SIDE_FILES = ("transcript", "breathCues", "provenance")


def write_remote_list(content, sessions):
    folder = os.path.join(content, "remote")
    path = os.path.join(folder, "manifest.json")
    for entry in sessions:
        digests = {}
        for name in SIDE_FILES:
            if name in entry:
                with open(os.path.join(folder, entry[name]), "rb") as f:
                    digests[name] = hashlib.sha256(f.read()).hexdigest()
        entry["sideFileSha256"] = digests
    old = {}
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            old = json.load(f)
    version = old.get("version", 0)
    if old.get("sessions") != sessions:
        version += 1
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"schema": 1, "version": max(1, version), "sessions": sessions}, f, indent=2, ensure_ascii=False)
        f.write("\n")
    root = os.path.dirname(os.path.abspath(content))
    subprocess.run([os.path.join(root, "scripts", "sign-list"), path], check=True)

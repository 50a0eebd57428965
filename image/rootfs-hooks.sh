#!/bin/sh
# mmdebstrap customize hook for the cached Debian root file system ($1 is the root). Only what does not
# depend on the Stillroom files: those are added per image by image/configure-root.
set -eu
root="$1"

# An empty machine-id: not a first boot (no preset-all on every start), and systemd makes a transient id
# at boot on the read-only root.
: > "$root/etc/machine-id"
rm -f "$root/var/lib/dbus/machine-id"

# logind's state directory must exist on a read-only root, or logind fails and shutdown stalls.
mkdir -p "$root/var/lib/systemd/linger"

# No package lists in the image (apt is not used on the box; updates are whole images).
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin

# openssh-server's installation made host keys: every box flashed from this image would share them.
# Each box makes its own at its first boot, on the data partition (stillroom-ssh-keys.service).
rm -f "$root"/etc/ssh/ssh_host_*

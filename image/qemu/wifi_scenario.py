"""The QEMU twin's Wi-Fi scenario (issue 23): real kernel radios, no Wi-Fi hardware.

Before the first boot the owner's wifi.txt goes onto the boot partition (CRLF line ends, as Notepad saves
it); stillroom-wifi-config.service takes it at that boot. Then, on the running box, mac80211_hwsim makes
two radios; the second's phy goes into a network namespace `ap` where hostapd (WPA2-PSK) and dnsmasq
(DHCP only) make an access point. The box's own units do the rest: udev starts stillroom-wifi@<interface>,
wpa_supplicant joins, systemd-networkd takes a DHCP lease, systemd-resolved answers stillroom.local by
multicast DNS. Checked from the access point's side, as a computer on the owner's network would see it:
the lease, the name (stillroom-mdns-query), SSH to that address with the test's key. Then a wrong
passphrase: written to the boot partition from the box, the units restarted; the box is not joined,
wpa_supplicant says WRONG_KEY, and the daemon plays on. The radios and the namespace are removed after.
docs/image.md, "Wi-Fi", says what this shows and what only a real Pi can.
"""
import os
import re
import shlex
import time

from qemubox import BoxError

SSID = 'Stillroom test "AP" #2'     # a space, quotes and a '#': written in hex in the box's configuration
PASSPHRASE = "quiet room 2026"
WRONG_PASSPHRASE = "not the password"
COUNTRY = "GB"
AP_ADDRESS = "192.168.77.1"
AP_PREFIX = "192.168.77."
TOOLS = "/usr/local/lib/stillroom-test"
STATE = "/var/lib/stillroom/.wifi"
JOIN_BUDGET = 150  # s from the radios' creation to a DHCP address on the box's interface (TCG, loaded host)


def wifi_txt(passphrase):
    return ('# Stillroom Wi-Fi\r\nssid = "%s"\r\npassphrase = "%s"\r\ncountry = %s\r\n'
            % (SSID, passphrase, COUNTRY.lower()))


def provision(box, work_dir):
    """The owner's wifi.txt on the working disk's boot partition, before the first boot."""
    path = os.path.join(work_dir, "wifi.txt")
    with open(path, "w", newline="") as f:
        f.write(wifi_txt(PASSPHRASE))
    box.put_boot_file("wifi.txt", path)


def scenarios(box, report, check, Skip, ssh_key, state):
    def q(text):
        return shlex.quote(text)

    # The image has no iproute2: util-linux's unshare and nsenter make and enter the namespace (bound at
    # /run/netns/ap, where iw's "netns name" looks), busybox's ifconfig sets addresses.
    def in_ap(command):
        return "nsenter --net=/run/netns/ap " + command

    def box_interface():
        return state.get("wifi_interface", "wlan0")

    def address_of(interface):
        out = box.run("busybox ifconfig %s 2>/dev/null" % interface)[1]
        match = re.search(r"inet (?:addr:)?(\d+\.\d+\.\d+\.\d+)", out)
        return match.group(1) if match else None

    def taken_at_boot_and_joined():
        # 1. At boot: the file taken, the configuration on the data partition, root's, 0600; off the card.
        said = box.run("journalctl -b -u stillroom-wifi-config.service -o cat")[1]
        check("took the Wi-Fi network" in said, "stillroom-wifi-config said: %s" % said.strip())
        mode = box.out("stat -c '%%U %%a' %s %s/wpa_supplicant.conf" % (STATE, STATE)).split("\n")
        check(mode == ["root 700", "root 600"], "the configuration's directory and file: %s" % mode)
        mount = box.out("findmnt -n -o TARGET -T %s" % STATE)
        check(mount == "/var/lib/stillroom", "the configuration is on %s, not the data partition" % mount)
        config = box.out("cat %s/wpa_supplicant.conf" % STATE)
        check("ssid=%s" % SSID.encode().hex() in config and "country=%s" % COUNTRY in config and
              PASSPHRASE not in config and "ctrl_interface=DIR=/run/wpa_supplicant GROUP=stillroom-wifi\n" in config,
              "the configuration: %s" % config)
        on_card = box.run("d=$(mktemp -d) && mount -t vfat -o ro LABEL=STILLBOOT $d && ls $d; umount $d; rmdir $d")[1]
        check("wifi" not in on_card.lower(), "still on the boot partition: %s" % on_card)
        daemon_reads = box.run("setpriv --reuid stillroom --regid stillroom --clear-groups "
                               "cat %s/wpa_supplicant.conf" % STATE)[0]
        check(daemon_reads != 0, "the daemon's user can read the Wi-Fi configuration")

        # 2. The radios: the box's and the access point's, the latter in its own namespace.
        started = time.monotonic()
        box.run("modprobe mac80211_hwsim radios=2", check=True)
        box.wait_until("two hwsim interfaces", lambda: len(box.run(
            "ls -d /sys/class/net/*/phy80211 2>/dev/null")[1].split()) >= 2, 60, interval=0.5)
        pairs = box.out("for d in /sys/class/net/*/phy80211; do i=${d%/phy80211}; "
                        "echo ${i##*/} $(cat $d/name); done").split("\n")
        pairs = sorted(line.split() for line in pairs if line.strip())
        (own, _), (ap_interface, ap_phy) = pairs[0], pairs[-1]
        state["wifi_interface"] = own
        box.run("mkdir -p /run/netns && mount --bind /run/netns /run/netns && mount --make-private /run/netns && "
                "touch /run/netns/ap && unshare --net=/run/netns/ap true && iw phy %s set netns name ap && %s && %s" % (
                    ap_phy, in_ap("busybox ifconfig lo up"),
                    in_ap("busybox ifconfig %s %s netmask 255.255.255.0 up" % (ap_interface, AP_ADDRESS))),
                check=True)
        hostapd = "\n".join([
            "interface=" + ap_interface, "driver=nl80211", "ssid=" + SSID, "hw_mode=g", "channel=6", "country_code=" + COUNTRY,
            "wpa=2", "wpa_key_mgmt=WPA-PSK", "rsn_pairwise=CCMP", "wpa_passphrase=" + PASSPHRASE, ""])
        box.run("printf '%%s' %s > /run/ap-hostapd.conf" % q(hostapd), check=True)
        box.run(in_ap("hostapd -B -P /run/ap-hostapd.pid -f /run/ap-hostapd.log /run/ap-hostapd.conf"),
                check=True, timeout=60)
        box.run(in_ap("dnsmasq --port=0 --interface=%s --bind-interfaces --dhcp-authoritative "
                      "--dhcp-range=%s50,%s99,1h --dhcp-leasefile=/run/ap-dnsmasq.leases "
                      "--pid-file=/run/ap-dnsmasq.pid --user=root --group=root --log-dhcp "
                      "--log-facility=/run/ap-dnsmasq.log" % (ap_interface, AP_PREFIX, AP_PREFIX)), check=True)

        # 3. The box joins by itself: udev → stillroom-wifi@, wpa_supplicant, networkd's DHCP.
        try:
            address = box.wait_until("a DHCP address on %s" % own, lambda: (
                lambda a: a if a and a.startswith(AP_PREFIX) else None)(address_of(own)), JOIN_BUDGET, interval=1.0)
        except BoxError:
            raise AssertionError("not joined: %s; %s; hostapd: %s" % (
                box.run("systemctl status --no-pager -n 20 stillroom-wifi@%s.service" % own)[1][-1500:],
                box.run("networkctl status %s --no-pager" % own)[1][-600:],
                box.run("tail -n 15 /run/ap-hostapd.log")[1]))
        joined_after = time.monotonic() - started
        report.figure("wifi.join_seconds", round(joined_after, 1))
        report.figure("wifi.address", address)
        leases = box.out("cat /run/ap-dnsmasq.leases")
        check(address in leases, "the access point's DHCP server did not hand out %s: %s" % (address, leases))
        # The daemon's side of the contract: its user reaches the Wi-Fi relay's socket (STATUS), never
        # wpa_supplicant's, and the relay passes on nothing that changes the Wi-Fi (docs/security.md, "Wi-Fi").
        # wpa_cli binds its reply socket in /tmp, which wpa_supplicant and the relay, without CAP_DAC_OVERRIDE,
        # may answer only when that socket is writable to others (umask 0); the daemon's own reply socket is
        # an abstract one, with no file to be refused.
        as_daemon = "cd /tmp && umask 0 && setpriv --reuid stillroom --regid stillroom --init-groups "
        socket_mode = box.out("stat -c '%%G %%a' /run/wpa_supplicant/%s" % own)
        check(socket_mode.split()[0] == "stillroom-wifi", "wpa_supplicant's control socket: %s" % socket_mode)
        relay_mode = box.out("stat -c '%%G %%a' /run/stillroom-wifi/%s" % own)
        check(relay_mode == "stillroom 660", "the relay's socket: %s" % relay_mode)
        status = box.run(as_daemon + "wpa_cli -p /run/stillroom-wifi -i %s status" % own)[1]
        # (wpa_cli prints the SSID with its quotes escaped.)
        check("wpa_state=COMPLETED" in status and "ssid=Stillroom test" in status,
              "STATUS as the daemon's user, through the relay: %s" % status)
        direct = box.run(as_daemon + "wpa_cli -p /run/wpa_supplicant -i %s status" % own)
        check("wpa_state" not in direct[1], "wpa_supplicant's own socket answered the daemon's user: %s" % (direct,))
        report.figure("wifi.direct_socket_as_daemon", direct[1].strip().splitlines()[-1:] )
        networks_before = box.out("wpa_cli -p /run/wpa_supplicant -i %s list_networks | wc -l" % own)
        added = box.run(as_daemon + "wpa_cli -p /run/stillroom-wifi -i %s add_network" % own)[1].strip()
        reconfigured = box.run(as_daemon + "wpa_cli -p /run/stillroom-wifi -i %s reconfigure" % own)[1].strip()
        networks_after = box.out("wpa_cli -p /run/wpa_supplicant -i %s list_networks | wc -l" % own)
        check(added.endswith("FAIL") and reconfigured.endswith("FAIL") and networks_after == networks_before,
              "the relay passed on a change: add_network %r, reconfigure %r, networks %s → %s"
              % (added, reconfigured, networks_before, networks_after))
        report.figure("wifi.relay_refused", [added.splitlines()[-1], reconfigured.splitlines()[-1]])
        # The Wi-Fi lease starts systemd-resolved too (stillroom-dns.path watches every lease).
        index = box.out("cat /sys/class/net/%s/ifindex" % own)
        check(box.run("test -s /run/systemd/netif/leases/%s" % index)[0] == 0, "no networkd lease file for %s" % own)
        box.wait_until("systemd-resolved active", lambda: box.run(
            "systemctl is-active systemd-resolved.service")[1].strip() == "active", 60, interval=1.0)

        # 4. The name, asked by multicast DNS from the access point's side.
        def answered():
            out = box.run(in_ap("%s/stillroom-mdns-query stillroom.local 5 %s" % (TOOLS, ap_interface)),
                          timeout=30)[1]
            state["mdns"] = out.strip()
            return out if address in out else None
        try:
            named = box.wait_until("stillroom.local answered over Wi-Fi", answered, 60, interval=1.0)
        except BoxError:
            raise AssertionError("stillroom.local not answered with %s: %s; resolvectl: %s" % (
                address, state.get("mdns"), box.run("resolvectl status %s --no-pager" % own)[1][-800:]))
        report.figure("wifi.mdns_answer", named.strip())

        # 5. SSH over Wi-Fi, from the access point's side, with the key from the boot partition.
        with open(ssh_key) as f:
            box.run("umask 077 && printf '%%s\\n' %s > /run/ap-ssh-key" % q(f.read().strip()), check=True)
        ssh = box.run(in_ap("ssh -i /run/ap-ssh-key -o BatchMode=yes -o StrictHostKeyChecking=no "
                            "-o UserKnownHostsFile=/dev/null -o ConnectTimeout=20 root@%s stillroomctl status" % address),
                      timeout=90)
        check(ssh[0] == 0, "ssh root@%s (Wi-Fi) stillroomctl status: %d %s" % (address, ssh[0], ssh[1]))

        # 6. What the owner's helper reads: `stillroomctl network` shows the network joined, its address and
        #    signal (hwsim reports a fixed level); doctor's wi-fi line (the daemon attached to wpa_supplicant's
        #    socket when it appeared) is ok; no Wi-Fi notice stands.
        network = box.ctl("network")[1]
        joined_line = [l for l in network.splitlines() if l.startswith(own + " (Wi-Fi): joined")]
        check(joined_line and address in joined_line[0] and "signal " in joined_line[0],
              "stillroomctl network: %s" % network)
        doctor = box.ctl("doctor")[1]
        check(re.search(r"^ok\s+wi-fi\s+joined", doctor, re.M) is not None, "doctor's wi-fi line: %s" % doctor)
        kinds = [n["kind"] for n in box.status().get("notices", [])]
        check("wifi-not-joined" not in kinds, "a Wi-Fi notice while joined: %s" % kinds)
        report.figure("wifi.network_line", joined_line[0] if joined_line else network)
        return ("wifi.txt taken at boot (0600 on the data partition, off the card); joined %r in %.1f s; %s from "
                "the access point's DHCP; %s; ssh over Wi-Fi ran stillroomctl status; the daemon's user got "
                "STATUS through the relay's /run/stillroom-wifi/%s, was refused wpa_supplicant's own socket, and "
                "add_network and reconfigure through the relay" % (SSID, joined_after, address, named.strip(), own))

    def wrong_passphrase():
        if "wifi_interface" not in state:
            raise Skip("the access point was not set up")
        own = box_interface()
        box.run("d=$(mktemp -d) && mount -t vfat -o rw LABEL=STILLBOOT $d && printf '%%s' %s > $d/wifi.txt && "
                "umount $d && rmdir $d" % q(wifi_txt(WRONG_PASSPHRASE)), check=True)
        since = box.out("date '+%Y-%m-%d %H:%M:%S'")
        started = time.monotonic()
        box.run("systemctl restart stillroom-wifi-config.service && systemctl restart stillroom-wifi@%s.service" % own,
                check=True, timeout=60)
        try:
            said = box.wait_until("WRONG_KEY in the journal", lambda: (lambda out: out if "reason=WRONG_KEY" in out else None)(
                box.run("journalctl -u stillroom-wifi@%s.service --since %s -o cat" % (own, q(since)))[1]),
                JOIN_BUDGET, interval=2.0)
        except BoxError:
            raise AssertionError("no WRONG_KEY: %s" % box.run(
                "journalctl -u stillroom-wifi@%s.service --since %s -o cat | tail -n 20" % (own, q(since)))[1])
        report.figure("wifi.wrong_key_seconds", round(time.monotonic() - started, 1))
        status = box.run("wpa_cli -p /run/wpa_supplicant -i %s status" % own)[1]
        check("wpa_state=COMPLETED" not in status, "joined with the wrong passphrase: %s" % status)
        check(box.run("systemctl is-active stillroom-wifi@%s.service" % own)[1].strip() == "active",
              "wpa_supplicant gave up instead of retrying")
        ctl_status, out = box.ctl("status")
        check(ctl_status == 0 and box.run("systemctl is-active stillroom.service")[1].strip() == "active",
              "the daemon: %d %s" % (ctl_status, out))
        # The daemon heard it from wpa_supplicant (attached anew to the restarted one's socket): a quiet notice
        # on the screen naming the network, doctor's wi-fi line, `stillroomctl network`; and it plays.
        def notice():
            found = [n for n in box.status().get("notices", []) if n["kind"] == "wifi-not-joined"]
            return found[0] if found else None
        try:
            shown = box.wait_until("the Wi-Fi notice", notice, 60, interval=1.0)
        except BoxError:
            raise AssertionError("no Wi-Fi notice: %s; daemon log: %s" % (box.status().get("notices"), box.run(
                "journalctl -u stillroom.service -b -o cat | grep wi-fi | tail -n 5")[1]))
        check("did not accept the passphrase" in shown["message"] and "Stillroom test" in shown["message"],
              "the notice: %s" % shown["message"])
        doctor = box.ctl("doctor")[1]
        check(re.search(r"^FAIL\s+wi-fi\s+Wi-Fi .* refused the passphrase", doctor, re.M) is not None,
              "doctor's wi-fi line: %s" % doctor)
        network = box.ctl("network")[1]
        check("refused the passphrase; write wifi.txt again" in network, "stillroomctl network: %s" % network)
        # (Stopped and the resume offer dismissed after: the scenarios after these start from the library.)
        played = box.ctl("play")[0] == 0 and box.wait_until(
            "playing", lambda: box.status()["state"] == "playing", 60, interval=0.5)
        box.ctl("stop")
        box.ctl("dismiss")
        check(played, "the daemon did not play with the Wi-Fi refused")
        line = [l for l in said.splitlines() if "WRONG_KEY" in l][0]
        return "not joined (%s); the journal: %s; the screen's notice: %s; doctor and network say so; PLAY plays" % (
            re.search(r"wpa_state=(\S+)", status).group(0) if "wpa_state=" in status else "no state", line.strip(),
            shown["message"])

    def cleanup():
        box.run("kill $(cat /run/ap-hostapd.pid /run/ap-dnsmasq.pid 2>/dev/null) 2>/dev/null; "
                "systemctl stop 'stillroom-wifi@*.service'; umount /run/netns/ap 2>/dev/null; rm -f /run/netns/ap; sleep 1; "
                "rmmod mac80211_hwsim 2>/dev/null; rm -f /run/ap-ssh-key; true", timeout=60)

    return [
        ("Wi-Fi: wifi.txt taken at boot; joins a WPA2 access point (mac80211_hwsim), DHCP, stillroom.local by mDNS, "
         "SSH over Wi-Fi", taken_at_boot_and_joined),
        ("Wi-Fi: a wrong passphrase is not joined, the journal says WRONG_KEY, the daemon plays on", wrong_passphrase),
    ], cleanup

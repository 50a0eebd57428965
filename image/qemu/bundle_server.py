"""An HTTPS server for update bundles on the host, for the twin's update scenarios (docs/updates.md).

RAUC streams a verity bundle by HTTP range requests and checks the server's certificate, so this serves
ranges (206 with Content-Range, a suffix range, 416 past the end) over TLS, with a certificate for
`HOST` signed by a throwaway test CA the guest is told to trust. The guest reaches it at
10.0.2.100:443 through QEMU's guestfwd (socat to the port here): the twin's network stays `restrict=on`.
"""

import http.server
import os
import ssl
import subprocess
import threading

HOST = "updates.stillroom.test"
GUEST_ADDRESS = "10.0.2.100"


def make_certificates(folder, host=HOST):
    """A CA and a server certificate for `host` signed by it; returns (ca.pem, cert.pem, key.pem)."""
    os.makedirs(folder, exist_ok=True)
    ca_key, ca, key, request, cert = (os.path.join(folder, n) for n in ("ca.key", "ca.pem", "server.key", "server.csr", "server.pem"))
    quiet = dict(check=True, capture_output=True)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", "30", "-subj", "/CN=Stillroom update test CA", "-keyout", ca_key, "-out", ca], **quiet)
    subprocess.run(["openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-subj", "/CN=" + host, "-keyout", key, "-out", request], **quiet)
    extensions = os.path.join(folder, "san.cnf")
    with open(extensions, "w") as f:
        f.write("subjectAltName=DNS:%s\nextendedKeyUsage=serverAuth\n" % host)
    subprocess.run(["openssl", "x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
                    "-days", "30", "-extfile", extensions, "-out", cert], **quiet)
    return ca, cert, key


class RangeHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def do_HEAD(self):
        self.answer(body=False)

    def do_GET(self):
        self.answer(body=True)

    def answer(self, body):
        name = os.path.basename(self.path.split("?", 1)[0])
        path = os.path.join(self.server.folder, name)
        if not name or not os.path.isfile(path):
            self.send_error(404)
            return
        size = os.path.getsize(path)
        start, end, status = 0, size - 1, 200
        wanted = self.headers.get("Range", "")
        if wanted.startswith("bytes="):
            first, _, last = wanted[len("bytes="):].split(",", 1)[0].strip().partition("-")
            if first == "":
                start = max(0, size - int(last or 0))
            else:
                start = int(first)
                end = min(size - 1, int(last)) if last else size - 1
            if start > end:
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % size)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            status = 206
        self.server.ranges += 1 if status == 206 else 0
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(end - start + 1))
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        self.end_headers()
        if not body:
            return
        with open(path, "rb") as f:
            f.seek(start)
            left = end - start + 1
            while left > 0:
                chunk = f.read(min(left, 1 << 16))
                if not chunk:
                    break
                self.wfile.write(chunk)
                left -= len(chunk)
        self.server.bytes_sent += end - start + 1


def start(folder, certificates):
    """Serves `folder` over TLS on a free port of 127.0.0.1; returns the server (.server_address, .ranges,
    .bytes_sent; .shutdown() to stop)."""
    _, cert, key = certificates
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RangeHandler)
    server.daemon_threads = True
    server.folder = folder
    server.ranges = 0
    server.bytes_sent = 0
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def guest_forward(server, address=GUEST_ADDRESS):
    """QEMU's -netdev user option that takes the guest's `address`:443 to the server."""
    return "guestfwd=tcp:%s:443-cmd:socat - TCP:127.0.0.1:%d" % (address, server.server_address[1])

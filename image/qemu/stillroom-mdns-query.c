// The QEMU twin's multicast DNS question (test tool only, never in the Pi image): asks the link, as a computer
// on the box's network would, for the IPv4 address of a name such as stillroom.local, and prints each
// address answered. Run where no resolver helps, e.g. in the Wi-Fi scenario's access-point namespace:
//
//     stillroom-mdns-query stillroom.local [SECONDS [INTERFACE]]
//
// INTERFACE names the link to ask on; needed where there is no route to 224.0.0.251 (a namespace with no
// default route: joining the group "on any interface" fails there with ENODEV).
// Sends a standard mDNS query (RFC 6762) from port 5353 to 224.0.0.251 once a second and reads the multicast
// answers until SECONDS (5 by default) have passed. Exit 0 when an address was answered, 1 when none was.
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

// Reads the (possibly compressed) name at *offset into out ("a.b.c"); advances *offset past it.
static int read_name(const unsigned char *packet, int length, int *offset, char *out, int capacity) {
    int position = *offset, jumped = 0, written = 0, hops = 0;
    while (position < length) {
        int label = packet[position];
        if (label == 0) {
            if (!jumped) *offset = position + 1;
            out[written] = 0;
            return 0;
        }
        if ((label & 0xC0) == 0xC0) {
            if (position + 1 >= length || ++hops > 16) return -1;
            if (!jumped) *offset = position + 2;
            jumped = 1;
            position = ((label & 0x3F) << 8) | packet[position + 1];
            continue;
        }
        if (position + 1 + label > length || written + label + 2 > capacity) return -1;
        if (written) out[written++] = '.';
        memcpy(out + written, packet + position + 1, label);
        written += label;
        position += 1 + label;
    }
    return -1;
}

static int build_query(const char *name, unsigned char *packet) {
    memset(packet, 0, 12);
    packet[5] = 1;  // one question
    int at = 12;
    const char *label = name;
    while (*label) {
        const char *dot = strchr(label, '.');
        int size = dot ? (int)(dot - label) : (int)strlen(label);
        if (size == 0 || size > 63 || at + size + 6 > 512) return -1;
        packet[at++] = (unsigned char)size;
        memcpy(packet + at, label, size);
        at += size;
        label += size + (dot ? 1 : 0);
    }
    packet[at++] = 0;
    packet[at++] = 0; packet[at++] = 1;  // type A
    packet[at++] = 0; packet[at++] = 1;  // class IN
    return at;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: stillroom-mdns-query NAME [SECONDS [INTERFACE]]\n");
        return 2;
    }
    const char *name = argv[1];
    double seconds = argc > 2 ? atof(argv[2]) : 5.0;
    unsigned char query[512];
    int query_length = build_query(name, query);
    if (query_length < 0) { fprintf(stderr, "stillroom-mdns-query: bad name %s\n", name); return 2; }

    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    struct sockaddr_in local = {.sin_family = AF_INET, .sin_port = htons(5353), .sin_addr.s_addr = htonl(INADDR_ANY)};
    if (bind(fd, (struct sockaddr *)&local, sizeof local) != 0) { perror("stillroom-mdns-query: bind 5353"); return 2; }
    int interface = 0;
    if (argc > 3) {
        interface = (int)if_nametoindex(argv[3]);
        if (interface == 0) { perror("stillroom-mdns-query: interface"); return 2; }
    }
    struct ip_mreqn group = {.imr_multiaddr.s_addr = inet_addr("224.0.0.251"), .imr_ifindex = interface};
    if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &group, sizeof group) != 0) { perror("stillroom-mdns-query: join 224.0.0.251"); return 2; }
    if (interface) {
        struct ip_mreqn out = {.imr_ifindex = interface};
        if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &out, sizeof out) != 0) { perror("stillroom-mdns-query: IP_MULTICAST_IF"); return 2; }
    }
    unsigned char ttl = 255;
    setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof ttl);
    struct sockaddr_in mdns = {.sin_family = AF_INET, .sin_port = htons(5353), .sin_addr.s_addr = inet_addr("224.0.0.251")};

    double end = now() + seconds, next_query = 0;
    int found = 0;
    while (!found && now() < end) {
        if (now() >= next_query) {
            sendto(fd, query, query_length, 0, (struct sockaddr *)&mdns, sizeof mdns);
            next_query = now() + 1.0;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 200) <= 0) continue;
        unsigned char packet[9000];
        struct sockaddr_in from;
        socklen_t from_length = sizeof from;
        int length = (int)recvfrom(fd, packet, sizeof packet, 0, (struct sockaddr *)&from, &from_length);
        if (length < 12 || !(packet[2] & 0x80)) continue;  // only responses
        int questions = (packet[4] << 8) | packet[5];
        int records = ((packet[6] << 8) | packet[7]) + ((packet[8] << 8) | packet[9]) + ((packet[10] << 8) | packet[11]);
        int at = 12;
        char owner[256];
        for (int i = 0; i < questions && at < length; i++) {
            if (read_name(packet, length, &at, owner, sizeof owner) != 0) goto next;
            at += 4;
        }
        for (int i = 0; i < records && at + 10 <= length; i++) {
            if (read_name(packet, length, &at, owner, sizeof owner) != 0 || at + 10 > length) break;
            int type = (packet[at] << 8) | packet[at + 1];
            int data_length = (packet[at + 8] << 8) | packet[at + 9];
            at += 10;
            if (at + data_length > length) break;
            if (type == 1 && data_length == 4 && strcasecmp(owner, name) == 0) {
                char address[INET_ADDRSTRLEN];
                inet_ntop(AF_INET, packet + at, address, sizeof address);
                char sender[INET_ADDRSTRLEN];
                inet_ntop(AF_INET, &from.sin_addr, sender, sizeof sender);
                printf("%s %s (answered by %s)\n", owner, address, sender);
                found = 1;
            }
            at += data_length;
        }
    next:;
    }
    close(fd);
    return found ? 0 : 1;
}

// The GNU extensions behind CLinuxShims.h, compiled here with _GNU_SOURCE so the header stays plain.
#define _GNU_SOURCE
#include <sys/socket.h>
#include "CLinuxShims.h"

int stillroom_accept_nonblocking(int listener) {
    return accept4(listener, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int stillroom_peer_credentials(int fd, int *pid, unsigned *uid, unsigned *gid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

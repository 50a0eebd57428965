// stillroom-uinput: the QEMU twin's controls. Creates three uinput devices that look like the box's
// kernel drivers (gpio-keys buttons, a rotary encoder on REL_X, a headphone-jack switch), then reads
// commands, one a line, from a FIFO and turns them into input events. Test tool only: it is installed in
// the QEMU image, never in the Pi image.
//
//   stillroom-uinput FIFO        creates the devices and the FIFO, waits until udev has made their nodes,
//                                then detaches (systemd Type=forking) and serves commands
//
// Commands:
//   tap play|back|knob [MS]      press, hold MS milliseconds (default 80), release
//   press play|back|knob         press only          release play|back|knob   release only
//   turn N [MS]                  N detents (negative: the other way), MS between them (default 60)
//   jack 0|1                     headphones out / in
//
// Every command is logged to stderr (the journal). The buttons' and the knob's names match
// board/qemu.conf.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/uinput.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fputs("stillroom-uinput: ", stderr);
    vfprintf(stderr, format, args);
    fprintf(stderr, ": %s\n", strerror(errno));
    va_end(args);
    exit(1);
}

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

static void emit(int fd, int type, int code, int value) {
    struct input_event event;
    memset(&event, 0, sizeof event);
    event.type = (unsigned short)type;
    event.code = (unsigned short)code;
    event.value = value;
    if (write(fd, &event, sizeof event) != (ssize_t)sizeof event) die("write event");
    memset(&event, 0, sizeof event);
    event.type = EV_SYN;
    event.code = SYN_REPORT;
    if (write(fd, &event, sizeof event) != (ssize_t)sizeof event) die("write SYN_REPORT");
}

// Creates one device; `setup` enables its events before UI_DEV_CREATE.
static int create_device(const char *name, void (*setup)(int)) {
    int fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
    if (fd < 0) die("open /dev/uinput");
    setup(fd);
    struct uinput_setup info;
    memset(&info, 0, sizeof info);
    info.id.bustype = BUS_VIRTUAL;
    info.id.vendor = 0x5711;
    info.id.product = 0x0001;
    snprintf(info.name, UINPUT_MAX_NAME_SIZE, "%s", name);
    if (ioctl(fd, UI_DEV_SETUP, &info) < 0) die("UI_DEV_SETUP %s", name);
    if (ioctl(fd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE %s", name);
    return fd;
}

static void setup_buttons(int fd) {
    if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0) die("UI_SET_EVBIT EV_KEY");
    int keys[] = {KEY_PLAYPAUSE, KEY_BACK, KEY_ENTER};
    for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (ioctl(fd, UI_SET_KEYBIT, keys[i]) < 0) die("UI_SET_KEYBIT");
}

static void setup_knob(int fd) {
    if (ioctl(fd, UI_SET_EVBIT, EV_REL) < 0) die("UI_SET_EVBIT EV_REL");
    if (ioctl(fd, UI_SET_RELBIT, REL_X) < 0) die("UI_SET_RELBIT REL_X");
}

static void setup_jack(int fd) {
    if (ioctl(fd, UI_SET_EVBIT, EV_SW) < 0) die("UI_SET_EVBIT EV_SW");
    if (ioctl(fd, UI_SET_SWBIT, SW_HEADPHONE_INSERT) < 0) die("UI_SET_SWBIT");
}

// Waits (up to 10 s) until udev has made the device's /dev/input/event* node and given it to group input,
// so the daemon, started after this service, can open it.
static void wait_for_node(int fd, const char *name) {
    char sysname[64] = {0};
    if (ioctl(fd, UI_GET_SYSNAME(sizeof sysname), sysname) < 0) die("UI_GET_SYSNAME %s", name);
    struct group *input = getgrnam("input");
    for (int attempt = 0; attempt < 200; attempt++) {
        char folder[160];
        snprintf(folder, sizeof folder, "/sys/devices/virtual/input/%s", sysname);
        // The event node's name: the one "eventN" entry in the input device's sysfs folder.
        char event[256] = {0};
        DIR *directory = opendir(folder);
        if (directory) {
            struct dirent *entry;
            while ((entry = readdir(directory)))
                if (strncmp(entry->d_name, "event", 5) == 0) snprintf(event, sizeof event, "%s", entry->d_name);
            closedir(directory);
        }
        if (event[0]) {
            char node[300];
            snprintf(node, sizeof node, "/dev/input/%s", event);
            struct stat info;
            if (stat(node, &info) == 0 && (!input || info.st_gid == input->gr_gid)) {
                fprintf(stderr, "stillroom-uinput: %s is %s\n", name, node);
                return;
            }
        }
        sleep_ms(50);
    }
    fprintf(stderr, "stillroom-uinput: %s: no /dev/input node for group input after 10 s\n", name);
}

static int key_for(const char *name) {
    if (strcmp(name, "play") == 0) return KEY_PLAYPAUSE;
    if (strcmp(name, "back") == 0) return KEY_BACK;
    if (strcmp(name, "knob") == 0) return KEY_ENTER;
    return -1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: stillroom-uinput FIFO\n");
        return 2;
    }
    const char *fifo = argv[1];
    int buttons = create_device("stillroom-qemu-buttons", setup_buttons);
    int knob = create_device("stillroom-qemu-knob", setup_knob);
    int jack = create_device("stillroom-qemu-jack", setup_jack);
    // Headphones in at start, so the test can pull them out while playing.
    emit(jack, EV_SW, SW_HEADPHONE_INSERT, 1);
    wait_for_node(buttons, "stillroom-qemu-buttons");
    wait_for_node(knob, "stillroom-qemu-knob");
    wait_for_node(jack, "stillroom-qemu-jack");

    unlink(fifo);
    if (mkfifo(fifo, 0600) != 0) die("mkfifo %s", fifo);
    // Open read-write: the FIFO never reports end-of-file between writers.
    FILE *commands = fopen(fifo, "r+");
    if (!commands) die("open %s", fifo);

    pid_t child = fork();
    if (child < 0) die("fork");
    if (child > 0) return 0; // systemd Type=forking: the devices exist once the parent has exited
    setsid();

    char line[256];
    while (fgets(line, sizeof line, commands)) {
        line[strcspn(line, "\n")] = 0;
        char verb[16] = {0}, what[16] = {0};
        long number = 0, ms = -1;
        int fields = sscanf(line, "%15s %15s %ld", verb, what, &ms);
        fprintf(stderr, "stillroom-uinput: %s\n", line);
        if (strcmp(verb, "tap") == 0 || strcmp(verb, "press") == 0 || strcmp(verb, "release") == 0) {
            int key = fields >= 2 ? key_for(what) : -1;
            if (key < 0) { fprintf(stderr, "stillroom-uinput: unknown button \"%s\"\n", what); continue; }
            if (strcmp(verb, "release") != 0) emit(buttons, EV_KEY, key, 1);
            if (strcmp(verb, "tap") == 0) sleep_ms(fields == 3 && ms >= 0 ? ms : 80);
            if (strcmp(verb, "press") != 0) emit(buttons, EV_KEY, key, 0);
        } else if (strcmp(verb, "turn") == 0 && fields >= 2) {
            number = strtol(what, NULL, 10);
            long gap = fields == 3 && ms >= 0 ? ms : 60;
            for (long i = 0; i < labs(number); i++) {
                if (i > 0) sleep_ms(gap);
                emit(knob, EV_REL, REL_X, number > 0 ? 1 : -1);
            }
        } else if (strcmp(verb, "jack") == 0 && fields >= 2) {
            emit(jack, EV_SW, SW_HEADPHONE_INSERT, strcmp(what, "0") != 0);
        } else if (verb[0]) {
            fprintf(stderr, "stillroom-uinput: unknown command \"%s\"\n", line);
        }
    }
    return 0;
}

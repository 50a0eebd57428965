// The API of stillroom_gpio.h over libgpiod v1 (Debian 12's 1.6). Compiled only against a v1 header.
#define _GNU_SOURCE  /* versionsort */
#include <gpiod.h>
#ifdef GPIOD_LINE_BULK_MAX_LINES  /* v1 only: v2 has no line bulks */

#include "stillroom_gpio.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct srg_chip { struct gpiod_chip *chip; };
struct srg_line { struct gpiod_line *line; };

const char *srg_library(void) { return "libgpiod v1"; }

static srg_chip *wrap(struct gpiod_chip *chip) {
    if (!chip) return NULL;
    srg_chip *made = malloc(sizeof *made);
    if (!made) { gpiod_chip_close(chip); errno = ENOMEM; return NULL; }
    made->chip = chip;
    return made;
}

srg_chip *srg_chip_open_by_label(const char *label) { return wrap(gpiod_chip_open_by_label(label)); }

srg_chip *srg_chip_open_by_line_name(const char *name, unsigned int *offset) {
    struct gpiod_line *line = gpiod_line_find(name);
    if (!line) return NULL;
    *offset = gpiod_line_offset(line);
    return wrap(gpiod_line_get_chip(line));
}

void srg_chip_close(srg_chip *chip) {
    if (!chip) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

const char *srg_chip_name(srg_chip *chip) { return gpiod_chip_name(chip->chip); }
const char *srg_chip_label(srg_chip *chip) { return gpiod_chip_label(chip->chip); }
unsigned int srg_chip_num_lines(srg_chip *chip) { return gpiod_chip_num_lines(chip->chip); }

int srg_chip_line_offset(srg_chip *chip, const char *name) {
    struct gpiod_line *line = gpiod_chip_find_line(chip->chip, name);
    return line ? (int)gpiod_line_offset(line) : -1;
}

void srg_chip_line_consumer(srg_chip *chip, unsigned int offset, char *buffer, size_t size) {
    if (size == 0) return;
    buffer[0] = 0;
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (!line) return;
    gpiod_line_update(line);
    const char *consumer = gpiod_line_consumer(line);
    if (consumer) { strncpy(buffer, consumer, size - 1); buffer[size - 1] = 0; }
}

void srg_each_chip(void (*each)(const char *, const char *, void *), void *context) {
    struct gpiod_chip_iter *iterator = gpiod_chip_iter_new();
    if (!iterator) return;
    struct gpiod_chip *chip;
    gpiod_foreach_chip(iterator, chip) { each(gpiod_chip_name(chip), gpiod_chip_label(chip), context); }
    gpiod_chip_iter_free(iterator);
}

srg_line *srg_line_request(srg_chip *chip, unsigned int offset, const char *consumer, int active_low, enum srg_bias bias) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (!line) return NULL;
    int flags = active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
    switch (bias) {
    case SRG_BIAS_PULL_UP: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP; break;
    case SRG_BIAS_PULL_DOWN: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN; break;
    case SRG_BIAS_DISABLED: flags |= GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE; break;
    case SRG_BIAS_AS_IS: break;
    }
    if (gpiod_line_request_both_edges_events_flags(line, consumer, flags) != 0) return NULL;
    srg_line *made = malloc(sizeof *made);
    if (!made) { gpiod_line_release(line); errno = ENOMEM; return NULL; }
    made->line = line;
    return made;
}

void srg_line_release(srg_line *line) {
    if (!line) return;
    gpiod_line_release(line->line);
    free(line);
}

int srg_line_fd(srg_line *line) { return gpiod_line_event_get_fd(line->line); }

int srg_line_value(srg_line *line) { return gpiod_line_get_value(line->line); }

int srg_line_read_edges(srg_line *line, srg_edge *edges, int capacity) {
    struct gpiod_line_event events[16];
    if (capacity > 16) capacity = 16;
    int count = gpiod_line_event_read_fd_multiple(gpiod_line_event_get_fd(line->line), events, (unsigned int)capacity);
    if (count < 0) return errno == EAGAIN ? 0 : -1;
    for (int i = 0; i < count; i++) {
        edges[i].active = events[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
        edges[i].seconds = events[i].ts.tv_sec;
        edges[i].nanoseconds = events[i].ts.tv_nsec;
    }
    return count;
}

#endif

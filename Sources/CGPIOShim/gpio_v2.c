// The API of stillroom_gpio.h over libgpiod v2 (Debian 13's 2.x). Compiled only against a v2 header.
#define _GNU_SOURCE  /* versionsort */
#include <gpiod.h>
#ifndef GPIOD_LINE_BULK_MAX_LINES  /* v1 only: its absence means v2 */

#include "stillroom_gpio.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct srg_chip {
    struct gpiod_chip *chip;
    char name[64];
    char label[64];
    unsigned int lines;
};

struct srg_line {
    struct gpiod_line_request *request;
    unsigned int offset;
    struct gpiod_edge_event_buffer *buffer;
};

const char *srg_library(void) { return "libgpiod v2"; }

/// Opens /dev/<name> and reads its name, label and line count.
static srg_chip *open_chip(const char *device) {
    char path[300];
    snprintf(path, sizeof path, "/dev/%s", device);
    struct gpiod_chip *chip = gpiod_chip_open(path);
    if (!chip) return NULL;
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    if (!info) { int saved = errno; gpiod_chip_close(chip); errno = saved; return NULL; }
    srg_chip *made = calloc(1, sizeof *made);
    if (!made) { gpiod_chip_info_free(info); gpiod_chip_close(chip); errno = ENOMEM; return NULL; }
    made->chip = chip;
    snprintf(made->name, sizeof made->name, "%s", gpiod_chip_info_get_name(info));
    snprintf(made->label, sizeof made->label, "%s", gpiod_chip_info_get_label(info));
    made->lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    return made;
}

/// Every gpiochip device in /dev, in name order (gpiochip0, gpiochip1, ...), as opened chips: `each`
/// returns nonzero to keep the chip (the walk stops), zero to close it and go on.
static srg_chip *walk(int (*each)(srg_chip *, void *), void *context) {
    struct dirent **names = NULL;
    int count = scandir("/dev", &names, NULL, versionsort);
    if (count < 0) return NULL;
    srg_chip *kept = NULL;
    int denied = 0;
    for (int i = 0; i < count; i++) {
        if (!kept && strncmp(names[i]->d_name, "gpiochip", 8) == 0) {
            char path[300];
            snprintf(path, sizeof path, "/dev/%s", names[i]->d_name);
            if (gpiod_is_gpiochip_device(path)) {
                srg_chip *chip = open_chip(names[i]->d_name);
                if (!chip && (errno == EACCES || errno == EPERM)) denied = 1;
                if (chip && each(chip, context)) kept = chip;
                else if (chip) srg_chip_close(chip);
            }
        }
        free(names[i]);
    }
    free(names);
    if (!kept) errno = denied ? EACCES : ENOENT;
    return kept;
}

static int has_label(srg_chip *chip, void *label) { return strcmp(chip->label, (const char *)label) == 0; }

srg_chip *srg_chip_open_by_label(const char *label) { return walk(has_label, (void *)label); }

struct line_search { const char *name; int offset; };

static int has_line(srg_chip *chip, void *context) {
    struct line_search *search = context;
    search->offset = gpiod_chip_get_line_offset_from_name(chip->chip, search->name);
    return search->offset >= 0;
}

srg_chip *srg_chip_open_by_line_name(const char *name, unsigned int *offset) {
    struct line_search search = { name, -1 };
    srg_chip *chip = walk(has_line, &search);
    if (chip) *offset = (unsigned int)search.offset;
    return chip;
}

void srg_chip_close(srg_chip *chip) {
    if (!chip) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

const char *srg_chip_name(srg_chip *chip) { return chip->name; }
const char *srg_chip_label(srg_chip *chip) { return chip->label; }
unsigned int srg_chip_num_lines(srg_chip *chip) { return chip->lines; }

int srg_chip_line_offset(srg_chip *chip, const char *name) {
    return gpiod_chip_get_line_offset_from_name(chip->chip, name);
}

void srg_chip_line_consumer(srg_chip *chip, unsigned int offset, char *buffer, size_t size) {
    if (size == 0) return;
    buffer[0] = 0;
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (!info) return;
    const char *consumer = gpiod_line_info_get_consumer(info);
    if (consumer) snprintf(buffer, size, "%s", consumer);
    gpiod_line_info_free(info);
}

struct each_context { void (*each)(const char *, const char *, void *); void *context; };

static int report(srg_chip *chip, void *context) {
    struct each_context *outer = context;
    outer->each(chip->name, chip->label, outer->context);
    return 0;
}

void srg_each_chip(void (*each)(const char *, const char *, void *), void *context) {
    struct each_context outer = { each, context };
    walk(report, &outer);
}

srg_line *srg_line_request(srg_chip *chip, unsigned int offset, const char *consumer, int active_low, enum srg_bias bias) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    struct gpiod_line_config *config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    struct gpiod_line_request *request = NULL;
    int saved = ENOMEM;
    if (settings && config && request_config) {
        gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
        gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH);
        gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC);
        gpiod_line_settings_set_active_low(settings, active_low != 0);
        enum gpiod_line_bias wanted = GPIOD_LINE_BIAS_AS_IS;
        switch (bias) {
        case SRG_BIAS_PULL_UP: wanted = GPIOD_LINE_BIAS_PULL_UP; break;
        case SRG_BIAS_PULL_DOWN: wanted = GPIOD_LINE_BIAS_PULL_DOWN; break;
        case SRG_BIAS_DISABLED: wanted = GPIOD_LINE_BIAS_DISABLED; break;
        case SRG_BIAS_AS_IS: break;
        }
        gpiod_line_settings_set_bias(settings, wanted);
        gpiod_request_config_set_consumer(request_config, consumer);
        if (gpiod_line_config_add_line_settings(config, &offset, 1, settings) == 0) {
            request = gpiod_chip_request_lines(chip->chip, request_config, config);
        }
        saved = errno;
    }
    gpiod_line_settings_free(settings);
    gpiod_line_config_free(config);
    gpiod_request_config_free(request_config);
    if (!request) { errno = saved; return NULL; }
    srg_line *made = calloc(1, sizeof *made);
    struct gpiod_edge_event_buffer *buffer = gpiod_edge_event_buffer_new(16);
    if (!made || !buffer) {
        free(made);
        gpiod_edge_event_buffer_free(buffer);
        gpiod_line_request_release(request);
        errno = ENOMEM;
        return NULL;
    }
    made->request = request;
    made->offset = offset;
    made->buffer = buffer;
    return made;
}

void srg_line_release(srg_line *line) {
    if (!line) return;
    gpiod_line_request_release(line->request);
    gpiod_edge_event_buffer_free(line->buffer);
    free(line);
}

int srg_line_fd(srg_line *line) { return gpiod_line_request_get_fd(line->request); }

int srg_line_value(srg_line *line) {
    enum gpiod_line_value value = gpiod_line_request_get_value(line->request, line->offset);
    return value == GPIOD_LINE_VALUE_ERROR ? -1 : value == GPIOD_LINE_VALUE_ACTIVE;
}

int srg_line_read_edges(srg_line *line, srg_edge *edges, int capacity) {
    if (capacity > 16) capacity = 16;
    int count = gpiod_line_request_read_edge_events(line->request, line->buffer, (size_t)capacity);
    if (count < 0) return errno == EAGAIN ? 0 : -1;
    for (int i = 0; i < count; i++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(line->buffer, (unsigned long)i);
        uint64_t at = gpiod_edge_event_get_timestamp_ns(event);
        edges[i].active = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
        edges[i].seconds = (int64_t)(at / 1000000000u);
        edges[i].nanoseconds = (int64_t)(at % 1000000000u);
    }
    return count;
}

#endif

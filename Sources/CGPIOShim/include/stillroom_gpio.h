// One small GPIO API over libgpiod, whichever major version the system has: v1 (Debian 12) or v2
// (Debian 13 and the Pi image). gpio_v1.c and gpio_v2.c each implement it, one compiled to nothing
// depending on the header found. Only GPIODInput imports this module; C types stay inside it.
#ifndef STILLROOM_GPIO_H
#define STILLROOM_GPIO_H

#include <stddef.h>
#include <stdint.h>

typedef struct srg_chip srg_chip;
typedef struct srg_line srg_line;

/// Line bias, as the board file names it.
enum srg_bias { SRG_BIAS_AS_IS = 0, SRG_BIAS_DISABLED = 1, SRG_BIAS_PULL_UP = 2, SRG_BIAS_PULL_DOWN = 3 };

/// One edge: active (rising, with the active level applied) and the kernel's CLOCK_MONOTONIC time.
typedef struct {
    int active;
    int64_t seconds;
    int64_t nanoseconds;
} srg_edge;

/// "libgpiod v1" or "libgpiod v2".
const char *srg_library(void);

/// The first chip whose label is `label`, or NULL (errno says why: ENOENT when none has it).
srg_chip *srg_chip_open_by_label(const char *label);
/// The chip holding a line named `name`, and its offset there; NULL when no chip has it.
srg_chip *srg_chip_open_by_line_name(const char *name, unsigned int *offset);
void srg_chip_close(srg_chip *chip);
const char *srg_chip_name(srg_chip *chip);
const char *srg_chip_label(srg_chip *chip);
unsigned int srg_chip_num_lines(srg_chip *chip);
/// The offset of the line named `name` on `chip`, or -1.
int srg_chip_line_offset(srg_chip *chip, const char *name);
/// Who holds line `offset` (into `buffer`), or an empty string.
void srg_chip_line_consumer(srg_chip *chip, unsigned int offset, char *buffer, size_t size);

/// Calls `each` with every chip's name and label.
void srg_each_chip(void (*each)(const char *name, const char *label, void *context), void *context);

/// Requests line `offset` as an input reporting both edges, with the bias and active level given;
/// NULL with errno set on failure (EBUSY: held by another consumer).
srg_line *srg_line_request(srg_chip *chip, unsigned int offset, const char *consumer, int active_low, enum srg_bias bias);
void srg_line_release(srg_line *line);
/// The descriptor that becomes readable when edges are queued.
int srg_line_fd(srg_line *line);
/// The level now with the active level applied (1 active, 0 inactive), or -1.
int srg_line_value(srg_line *line);
/// Reads up to `capacity` queued edges without blocking (the fd is non-blocking); the count, 0 when none,
/// -1 with errno on failure.
int srg_line_read_edges(srg_line *line, srg_edge *edges, int capacity);

#endif

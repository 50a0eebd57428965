#ifndef STILLROOM_HEAP_USAGE_H
#define STILLROOM_HEAP_USAGE_H
#include <stddef.h>

/// Bytes malloc has handed out and not had back (mallinfo2's uordblks): what a leak grows, unlike the
/// resident size, which also counts memory freed but kept by the allocator for reuse. Swift's Glibc
/// module does not export <malloc.h>.
size_t stillroom_heap_in_use(void);

#endif

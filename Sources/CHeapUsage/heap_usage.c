#include "heap_usage.h"
#include <malloc.h>

size_t stillroom_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks;
}

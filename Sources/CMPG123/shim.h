// libmpg123. Its header renames functions with macros (mpg123_param -> mpg123_param2 ...),
// which Swift cannot see; call the *2 names directly.
#include <sys/types.h>
#include <mpg123.h>

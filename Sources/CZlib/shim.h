// The system's zlib (zlib1g-dev): inflating a PNG's image data to check it decodes.
#include <zlib.h>

// inflateInit is a macro Swift cannot import: the version and stream size it passes.
static inline int czlib_inflate_init(z_streamp stream) { return inflateInit(stream); }

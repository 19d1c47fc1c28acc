#include <zlib.h>

/// deflateInit2 is a macro; Swift cannot call it directly.
static inline int prelude_deflateInit2(z_streamp strm, int level, int method, int windowBits, int memLevel, int strategy) {
    return deflateInit2(strm, level, method, windowBits, memLevel, strategy);
}

/// inflateInit2 is a macro; Swift cannot call it directly.
static inline int prelude_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}

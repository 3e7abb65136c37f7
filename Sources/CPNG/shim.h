// libpng 1.6 (Debian: libpng-dev; macOS: brew install libpng).
// StrokeKit uses only the simplified API (png_image_*), which reports errors by
// status and message instead of longjmp, so no libpng error can cross Swift frames.
#include <png.h>

// OpenBLAS's CBLAS interface (Debian: libopenblas-dev; macOS: brew install openblas).
#include <cblas.h>

// The plain C path: one float per "vector", for any CPU and any channel count.

typedef float vec;
#define VW 1
#define MR 4
#define MNV 4
#define VLOAD(p) (*(p))
#define VSTORE(p, v) (*(p) = (v))
#define VSET1(x) (x)
#define VZERO() 0.0f
#define VADD(a, b) ((a) + (b))
#define VSUB(a, b) ((a) - (b))
#define VMAX(a, b) ((a) > (b) ? (a) : (b))
#define VFMA(a, b, c) ((a) * (b) + (c))
#define VSUM(v) (v)
#define SK_TARGET
#define SK_NAME(x) x##_generic

#define VSTORE_PARTIAL(p, v, n) ((void)(n), *(p) = (v))
#define VLOAD_PARTIAL(p, n) ((void)(n), *(p))

#include "kernel_template.h"

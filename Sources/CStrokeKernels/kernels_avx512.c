// The AVX-512 path (16 floats per vector; AVX-512F only).
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

typedef __m512 vec;
#define VW 16
#define MR 6
#define MNV 4
#define VLOAD(p) _mm512_loadu_ps(p)
#define VSTORE(p, v) _mm512_storeu_ps((p), (v))
#define VSET1(x) _mm512_set1_ps(x)
#define VZERO() _mm512_setzero_ps()
#define VADD(a, b) _mm512_add_ps((a), (b))
#define VSUB(a, b) _mm512_sub_ps((a), (b))
#define VMAX(a, b) _mm512_max_ps((a), (b))
#define VFMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define VSUM(v) _mm512_reduce_add_ps(v)
#define SK_TARGET __attribute__((target("avx512f,avx2,fma")))
#define SK_NAME(x) x##_avx512

#define VSTORE_PARTIAL(p, v, n) _mm512_mask_storeu_ps((p), (__mmask16)((1u << (n)) - 1), (v))
#define VLOAD_PARTIAL(p, n) _mm512_maskz_loadu_ps((__mmask16)((1u << (n)) - 1), (p))

#include "kernel_template.h"
#endif

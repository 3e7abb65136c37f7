// The AVX2 + FMA path (8 floats per vector).
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

typedef __m256 vec;
#define VW 8
#define MR 6
#define MNV 2
#define VLOAD(p) _mm256_loadu_ps(p)
#define VSTORE(p, v) _mm256_storeu_ps((p), (v))
#define VSET1(x) _mm256_set1_ps(x)
#define VZERO() _mm256_setzero_ps()
#define VADD(a, b) _mm256_add_ps((a), (b))
#define VSUB(a, b) _mm256_sub_ps((a), (b))
#define VMAX(a, b) _mm256_max_ps((a), (b))
#define VFMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define SK_TARGET __attribute__((target("avx2,fma")))
#define SK_NAME(x) x##_avx2

SK_TARGET static inline float sk_sum_avx2(__m256 v) {
    __m128 half = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    half = _mm_add_ps(half, _mm_movehl_ps(half, half));
    half = _mm_add_ss(half, _mm_shuffle_ps(half, half, 1));
    return _mm_cvtss_f32(half);
}
#define VSUM(v) sk_sum_avx2(v)

SK_TARGET static inline __m256i sk_mask_avx2(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
#define VSTORE_PARTIAL(p, v, n) _mm256_maskstore_ps((p), sk_mask_avx2(n), (v))
#define VLOAD_PARTIAL(p, n) _mm256_maskload_ps((p), sk_mask_avx2(n))

#include "kernel_template.h"
#endif

// Run-time choice of a kernel's path: the one asked for if this CPU runs it and its vector
// width divides the channel counts, else the next narrower one, down to plain C.
#include "CStrokeKernels.h"

#define SK_DECLARE(suffix)                                                                                   \
    void sk_conv3x3_c1_pool_##suffix(const float *, ptrdiff_t, ptrdiff_t, const float *, const float *, int, \
                                     int, int, int, float *, ptrdiff_t, ptrdiff_t, int);                     \
    void sk_winograd_pool_##suffix(const float *, ptrdiff_t, ptrdiff_t, int, const float *, const float *,   \
                                   int, int, int, int, float *, ptrdiff_t, ptrdiff_t, int, float *);         \
    void sk_dense_##suffix(const float *, ptrdiff_t, int, int, const float *, const float *, const float *,  \
                           int, float *, ptrdiff_t, int);                                                   \
    void sk_conv3x3_c1_forward_##suffix(const float *, int, int, int, const float *, const float *, int,     \
                                        float *, float *);                                                  \
    void sk_conv3x3_c1_weight_gradient_##suffix(const float *, int, int, int, const float *, int, float *,   \
                                                float *, float *);

SK_DECLARE(generic)
#if defined(__x86_64__) || defined(__i386__)
#define SK_X86 1
SK_DECLARE(avx2)
SK_DECLARE(avx512)
#else
#define SK_X86 0
#endif

int sk_kernels_supported(int path) {
    switch (path) {
    case SK_KERNELS_GENERIC: return 1;
#if SK_X86
    case SK_KERNELS_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case SK_KERNELS_AVX512:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    default: return 0;
    }
}

/// The widest path, at most `path`, that this CPU runs and whose vector width divides
/// every count in `counts`.
static int sk_path_for(int path, int count_a, int count_b) {
    if (path >= SK_KERNELS_AVX512 && count_a % 16 == 0 && count_b % 16 == 0 && sk_kernels_supported(SK_KERNELS_AVX512))
        return SK_KERNELS_AVX512;
    if (path >= SK_KERNELS_AVX2 && count_a % 8 == 0 && count_b % 8 == 0 && sk_kernels_supported(SK_KERNELS_AVX2))
        return SK_KERNELS_AVX2;
    return SK_KERNELS_GENERIC;
}

void sk_conv3x3_c1_pool(int path, const float *input, ptrdiff_t input_row, ptrdiff_t input_image,
                        const float *weight, const float *bias, int oc,
                        int pooled_height, int pooled_width, int count,
                        float *output, ptrdiff_t output_row, ptrdiff_t output_image, int relu) {
    switch (sk_path_for(path, oc, oc)) {
#if SK_X86
    case SK_KERNELS_AVX512:
        sk_conv3x3_c1_pool_avx512(input, input_row, input_image, weight, bias, oc, pooled_height, pooled_width,
                                  count, output, output_row, output_image, relu);
        return;
    case SK_KERNELS_AVX2:
        sk_conv3x3_c1_pool_avx2(input, input_row, input_image, weight, bias, oc, pooled_height, pooled_width,
                                count, output, output_row, output_image, relu);
        return;
#endif
    default:
        sk_conv3x3_c1_pool_generic(input, input_row, input_image, weight, bias, oc, pooled_height, pooled_width,
                                   count, output, output_row, output_image, relu);
    }
}

size_t sk_winograd_scratch_floats(int channels, int oc) {
    return (size_t)16 * 24 * (size_t)(channels + oc);   // 24: SK_TILE_BLOCK in kernel_template.h
}

void sk_winograd_pool(int path, const float *input, ptrdiff_t input_row, ptrdiff_t input_image, int channels,
                      const float *transformed_weight, const float *bias, int oc,
                      int tile_rows, int tile_columns, int count,
                      float *output, ptrdiff_t output_row, ptrdiff_t output_image, int relu, float *scratch) {
    switch (sk_path_for(path, channels, oc)) {
#if SK_X86
    case SK_KERNELS_AVX512:
        sk_winograd_pool_avx512(input, input_row, input_image, channels, transformed_weight, bias, oc, tile_rows,
                                tile_columns, count, output, output_row, output_image, relu, scratch);
        return;
    case SK_KERNELS_AVX2:
        sk_winograd_pool_avx2(input, input_row, input_image, channels, transformed_weight, bias, oc, tile_rows,
                              tile_columns, count, output, output_row, output_image, relu, scratch);
        return;
#endif
    default:
        sk_winograd_pool_generic(input, input_row, input_image, channels, transformed_weight, bias, oc, tile_rows,
                                 tile_columns, count, output, output_row, output_image, relu, scratch);
    }
}

void sk_dense(int path, const float *x, ptrdiff_t x_stride, int rows, int in,
              const float *weight_transposed, const float *weight, const float *bias, int out,
              float *y, ptrdiff_t y_stride, int relu) {
    // Any width: the columns past the last full vector are dot products.
    switch (sk_path_for(path, 16, 16)) {
#if SK_X86
    case SK_KERNELS_AVX512:
        sk_dense_avx512(x, x_stride, rows, in, weight_transposed, weight, bias, out, y, y_stride, relu);
        return;
    case SK_KERNELS_AVX2:
        sk_dense_avx2(x, x_stride, rows, in, weight_transposed, weight, bias, out, y, y_stride, relu);
        return;
#endif
    default:
        sk_dense_generic(x, x_stride, rows, in, weight_transposed, weight, bias, out, y, y_stride, relu);
    }
}

size_t sk_conv3x3_c1_scratch_floats(int height, int width, int oc) {
    return (size_t)(height + 2) * (size_t)(width + 2 + 16) + (size_t)oc * 10 * 16;   // 16: the widest vector
}

void sk_conv3x3_c1_forward(int path, const float *input, int count, int height, int width,
                           const float *weight, const float *bias, int oc, float *output, float *scratch) {
    switch (sk_path_for(path, 16, 16)) {
#if SK_X86
    case SK_KERNELS_AVX512:
        sk_conv3x3_c1_forward_avx512(input, count, height, width, weight, bias, oc, output, scratch);
        return;
    case SK_KERNELS_AVX2:
        sk_conv3x3_c1_forward_avx2(input, count, height, width, weight, bias, oc, output, scratch);
        return;
#endif
    default:
        sk_conv3x3_c1_forward_generic(input, count, height, width, weight, bias, oc, output, scratch);
    }
}

void sk_conv3x3_c1_weight_gradient(int path, const float *input, int count, int height, int width,
                                   const float *output_gradient, int oc,
                                   float *weight_gradient, float *bias_gradient, float *scratch) {
    switch (sk_path_for(path, 16, 16)) {
#if SK_X86
    case SK_KERNELS_AVX512:
        sk_conv3x3_c1_weight_gradient_avx512(input, count, height, width, output_gradient, oc, weight_gradient,
                                             bias_gradient, scratch);
        return;
    case SK_KERNELS_AVX2:
        sk_conv3x3_c1_weight_gradient_avx2(input, count, height, width, output_gradient, oc, weight_gradient,
                                           bias_gradient, scratch);
        return;
#endif
    default:
        sk_conv3x3_c1_weight_gradient_generic(input, count, height, width, output_gradient, oc, weight_gradient,
                                              bias_gradient, scratch);
    }
}

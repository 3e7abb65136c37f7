// Hand-written CPU kernels of StrokeKit's inference engine (and the parts of training that
// use them): the thesis network's small convolutions fused with their 2x2 max pool, bias
// and ReLU, and the dense layers fused with bias and ReLU. Each kernel exists three times:
// AVX-512 and AVX2+FMA (per-function target attributes, no global build flags, so the
// package stays consumable by version) and plain C; the caller names the path, and
// sk_kernels_supported() says which paths this CPU runs (CPUID, at run time).
//
// Maps are channels-last (N, H, W, C) with a zero border, as StrokeNN's FeatureMap: a
// "row stride" is the floats from one stored row to the next, an "image size" the floats
// per image, border included.
#ifndef CSTROKEKERNELS_H
#define CSTROKEKERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The kernel paths. SK_KERNELS_GENERIC is plain C (any CPU).
enum {
    SK_KERNELS_GENERIC = 0,
    SK_KERNELS_AVX2 = 1,
    SK_KERNELS_AVX512 = 2,
};

/// 1 when this CPU (and operating system) can run `path`'s instructions, else 0.
int sk_kernels_supported(int path);

/// A 3x3 'same' convolution of a one-channel map followed by a 2x2 max pool, bias and
/// optional ReLU, for `count` images.
/// input: stored pixel (0, 0) of image 0 (the map's pixel (-1, -1): border 1), one float
///   per pixel; `input_row` floats per stored row, `input_image` per image.
/// weight: (9, oc), row ky*3+kx; bias: oc.
/// output: pixel (0, 0) of image 0's interior, oc floats per pixel, `output_row` floats per
///   stored row, `output_image` per image; pooled_height x pooled_width pixels are written.
void sk_conv3x3_c1_pool(int path, const float *input, ptrdiff_t input_row, ptrdiff_t input_image,
                        const float *weight, const float *bias, int oc,
                        int pooled_height, int pooled_width, int count,
                        float *output, ptrdiff_t output_row, ptrdiff_t output_image, int relu);

/// Floats of scratch memory sk_winograd_pool needs for `channels` -> `oc`.
size_t sk_winograd_scratch_floats(int channels, int oc);

/// A 3x3 'same' convolution followed by a 2x2 max pool, bias and optional ReLU, by
/// Winograd's F(2x2, 3x3): one 4x4 input tile per pooled pixel, its 16 transformed values
/// multiplied by the 16 transformed kernels, transformed back and pooled.
/// input: stored pixel (0, 0) of image 0 (border 1), `channels` floats per pixel.
/// transformed_weight: 16 matrices (channels, oc), as StrokeNN's winogradKernels.
/// output: pixel (0, 0) of image 0's interior, oc floats per pixel; tile_rows x tile_columns
///   pixels per image. scratch: sk_winograd_scratch_floats(channels, oc) floats.
void sk_winograd_pool(int path, const float *input, ptrdiff_t input_row, ptrdiff_t input_image, int channels,
                      const float *transformed_weight, const float *bias, int oc,
                      int tile_rows, int tile_columns, int count,
                      float *output, ptrdiff_t output_row, ptrdiff_t output_image, int relu, float *scratch);

/// y(rows, out) = x(rows, in) · W + bias, then optional ReLU. weight_transposed is W as
/// (in, out); weight is (out, in) (used for the columns left over by the vector width).
/// x rows `x_stride` floats apart, y rows `y_stride` apart.
void sk_dense(int path, const float *x, ptrdiff_t x_stride, int rows, int in,
              const float *weight_transposed, const float *weight, const float *bias, int out,
              float *y, ptrdiff_t y_stride, int relu);

/// Training's first convolution: a 3x3 'same' convolution of one-channel images stored as
/// `count` planes of height x width (StrokeNN's (C = 1, N, H, W)), weight (oc, 9) as Conv2D
/// stores it; output (oc, count, height, width) = bias + correlation. No im2col.
void sk_conv3x3_c1_forward(int path, const float *input, int count, int height, int width,
                           const float *weight, const float *bias, int oc, float *output, float *scratch);

/// Its weight and bias gradients from the output gradient (oc, count, height, width):
/// weight_gradient (oc, 9) and bias_gradient (oc) are overwritten. No im2col.
void sk_conv3x3_c1_weight_gradient(int path, const float *input, int count, int height, int width,
                                   const float *output_gradient, int oc,
                                   float *weight_gradient, float *bias_gradient, float *scratch);

/// Floats of scratch memory the two functions above need.
size_t sk_conv3x3_c1_scratch_floats(int height, int width, int oc);

#ifdef __cplusplus
}
#endif

#endif

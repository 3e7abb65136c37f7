// The kernels' one implementation, included once per path (kernels_avx512.c,
// kernels_avx2.c, kernels_generic.c) after defining:
//   vec, VW (floats per vector), VLOAD, VSTORE, VSET1, VZERO, VADD, VSUB, VMAX, VFMA(a, b, c) = a·b + c,
//   VSUM (horizontal sum), VSTORE_PARTIAL(p, v, n) / VLOAD_PARTIAL(p, n) (the first n < VW lanes;
//   the others not written / read as 0), SK_TARGET (the function attribute), SK_NAME(x) (x with the path's suffix),
//   MR (rows of a product block), MNV (vectors of a product block's row, at most 4).
// Channel counts that are not multiples of VW are not handled here: kernels.c sends those
// to the generic path (VW = 1).
#include <math.h>
#include <stddef.h>

#define SK_INLINE static inline __attribute__((always_inline)) SK_TARGET
/// Loops over a block's rows and vectors are unrolled whatever the optimisation level asks
/// (at -Os the accumulators would otherwise live in memory).
#define SK_UNROLL _Pragma("clang loop unroll(full)")

/// C(r x nv·VW) = init + A(r x k) · B(k x nv·VW), then optionally max(·, 0); A rows `lda`
/// apart, B and C rows `ldb` and `ldc` apart; init is a row of nv·VW floats or NULL for 0.
/// r ≤ MR and nv ≤ MNV (nv ≤ 2·MNV for one row, whose accumulators would otherwise be too
/// few to hide the multiply-add latency) are constants after inlining, so the accumulators
/// live in registers.
SK_INLINE void SK_NAME(block)(const int r, const int nv, const float *a, ptrdiff_t lda,
                              const float *b, ptrdiff_t ldb, int k, const float *init,
                              float *c, ptrdiff_t ldc, int relu) {
    vec acc[MR][8];
    SK_UNROLL
    for (int i = 0; i < r; i++)
        SK_UNROLL
        for (int j = 0; j < nv; j++) acc[i][j] = init ? VLOAD(init + j * VW) : VZERO();
    for (int p = 0; p < k; p++) {
        vec row[8];
        SK_UNROLL
        for (int j = 0; j < nv; j++) row[j] = VLOAD(b + p * ldb + j * VW);
        SK_UNROLL
        for (int i = 0; i < r; i++) {
            vec left = VSET1(a[i * lda + p]);
            SK_UNROLL
        for (int j = 0; j < nv; j++) acc[i][j] = VFMA(left, row[j], acc[i][j]);
        }
    }
    if (relu) {
        SK_UNROLL
    for (int i = 0; i < r; i++)
            SK_UNROLL
        for (int j = 0; j < nv; j++) acc[i][j] = VMAX(acc[i][j], VZERO());
    }
    SK_UNROLL
    for (int i = 0; i < r; i++)
        SK_UNROLL
        for (int j = 0; j < nv; j++) VSTORE(c + i * ldc + j * VW, acc[i][j]);
}

#define SK_BLOCK_NV(R)                                                                    \
    switch (nv) {                                                                         \
    case 1: SK_NAME(block)(R, 1, a, lda, b, ldb, k, init, c, ldc, relu); break;           \
    case 2: SK_NAME(block)(R, 2 < MNV ? 2 : MNV, a, lda, b, ldb, k, init, c, ldc, relu); break; \
    case 3: SK_NAME(block)(R, 3 < MNV ? 3 : MNV, a, lda, b, ldb, k, init, c, ldc, relu); break; \
    default: SK_NAME(block)(R, MNV, a, lda, b, ldb, k, init, c, ldc, relu); break;        \
    }

/// One block with r and nv as constants (r ≤ MR, nv ≤ MNV).
SK_TARGET static void SK_NAME(block_dispatch)(int r, int nv, const float *a, ptrdiff_t lda,
                                              const float *b, ptrdiff_t ldb, int k, const float *init,
                                              float *c, ptrdiff_t ldc, int relu) {
    switch (r) {
    case 1:
        switch (nv) {
        case 1: SK_NAME(block)(1, 1, a, lda, b, ldb, k, init, c, ldc, relu); break;
        case 2: SK_NAME(block)(1, 2, a, lda, b, ldb, k, init, c, ldc, relu); break;
        case 3: SK_NAME(block)(1, 3, a, lda, b, ldb, k, init, c, ldc, relu); break;
        case 4: SK_NAME(block)(1, 4, a, lda, b, ldb, k, init, c, ldc, relu); break;
        case 5: SK_NAME(block)(1, 5 < 2 * MNV ? 5 : 2 * MNV, a, lda, b, ldb, k, init, c, ldc, relu); break;
        case 6: SK_NAME(block)(1, 6 < 2 * MNV ? 6 : 2 * MNV, a, lda, b, ldb, k, init, c, ldc, relu); break;
        case 7: SK_NAME(block)(1, 7 < 2 * MNV ? 7 : 2 * MNV, a, lda, b, ldb, k, init, c, ldc, relu); break;
        default: SK_NAME(block)(1, 2 * MNV, a, lda, b, ldb, k, init, c, ldc, relu); break;
        }
        break;
#if MR >= 2
    case 2: SK_BLOCK_NV(2) break;
#endif
#if MR >= 3
    case 3: SK_BLOCK_NV(3) break;
#endif
#if MR >= 4
    case 4: SK_BLOCK_NV(4) break;
#endif
#if MR >= 5
    case 5: SK_BLOCK_NV(5) break;
#endif
#if MR >= 6
    case 6: SK_BLOCK_NV(6) break;
#endif
    default: break;
    }
}

/// C(m x n) = init + A(m x k) · B(k x n), n a multiple of VW, optionally clamped at 0; init
/// one row of n floats (the same for every row) or NULL.
SK_TARGET static void SK_NAME(product)(int m, int n, int k, const float *a, ptrdiff_t lda,
                                       const float *b, ptrdiff_t ldb, const float *init,
                                       float *c, ptrdiff_t ldc, int relu) {
    const int widest = m == 1 ? 2 * MNV : MNV;
    for (int j0 = 0; j0 < n; j0 += widest * VW) {
        int nv = (n - j0) / VW;
        if (nv > widest) nv = widest;
        for (int i0 = 0; i0 < m; i0 += MR) {
            int r = m - i0 < MR ? m - i0 : MR;
            SK_NAME(block_dispatch)(r, nv, a + i0 * lda, lda, b + j0, ldb, k, init ? init + j0 : NULL,
                                    c + i0 * ldc + j0, ldc, relu);
        }
    }
}

SK_TARGET void SK_NAME(sk_conv3x3_c1_pool)(const float *input, ptrdiff_t input_row, ptrdiff_t input_image,
                                           const float *weight, const float *bias, int oc,
                                           int pooled_height, int pooled_width, int count,
                                           float *output, ptrdiff_t output_row, ptrdiff_t output_image, int relu) {
    const vec floor = VSET1(relu ? 0.0f : -INFINITY);
    for (int o0 = 0; o0 < oc; o0 += VW) {
        vec w[9];
        for (int j = 0; j < 9; j++) w[j] = VLOAD(weight + j * oc + o0);
        const vec b = VLOAD(bias + o0);
        for (int n = 0; n < count; n++) {
            const float *image = input + n * input_image;
            float *target = output + n * output_image + o0;
            for (int y = 0; y < pooled_height; y++) {
                for (int x = 0; x < pooled_width; x++) {
                    // The 4x4 input patch of the pool window's four outputs.
                    const float *corner = image + 2 * y * input_row + 2 * x;
                    vec a00 = VZERO(), a01 = VZERO(), a10 = VZERO(), a11 = VZERO();
                    for (int ky = 0; ky < 3; ky++) {
                        const float *top = corner + ky * input_row, *bottom = top + input_row;
                        for (int kx = 0; kx < 3; kx++) {
                            const vec wk = w[ky * 3 + kx];
                            a00 = VFMA(VSET1(top[kx]), wk, a00);
                            a01 = VFMA(VSET1(top[kx + 1]), wk, a01);
                            a10 = VFMA(VSET1(bottom[kx]), wk, a10);
                            a11 = VFMA(VSET1(bottom[kx + 1]), wk, a11);
                        }
                    }
                    const vec top = VMAX(VMAX(a00, a01), VMAX(a10, a11));
                    VSTORE(target + y * output_row + x * oc, VMAX(VADD(top, b), floor));
                }
            }
        }
    }
}

/// Tiles transformed, multiplied and transformed back at a time (their 16 transformed
/// values and products stay in the L2 cache).
#define SK_TILE_BLOCK 24

SK_TARGET void SK_NAME(sk_winograd_pool)(const float *input, ptrdiff_t input_row, ptrdiff_t input_image, int channels,
                                         const float *u, const float *bias, int oc,
                                         int tile_rows, int tile_columns, int count,
                                         float *output, ptrdiff_t output_row, ptrdiff_t output_image, int relu,
                                         float *scratch) {
    const int per_image = tile_rows * tile_columns, total = count * per_image;
    float *v = scratch, *m = scratch + 16 * SK_TILE_BLOCK * channels;
    const ptrdiff_t v_plane = (ptrdiff_t)SK_TILE_BLOCK * channels, m_plane = (ptrdiff_t)SK_TILE_BLOCK * oc;
    const vec floor = VSET1(relu ? 0.0f : -INFINITY);
    for (int t0 = 0; t0 < total; t0 += SK_TILE_BLOCK) {
        const int tiles = total - t0 < SK_TILE_BLOCK ? total - t0 : SK_TILE_BLOCK;
        // Bᵀ d B for each tile: rows t = d B, then columns Bᵀ t (0 and ±1 only).
        for (int i = 0; i < tiles; i++) {
            const int t = t0 + i, n = t / per_image, ty = (t % per_image) / tile_columns, tx = t % tile_columns;
            const float *corner = input + n * input_image + 2 * ty * input_row + 2 * tx * channels;
            float *target = v + i * channels;
            for (int c = 0; c < channels; c += VW) {
                vec r[4][4];
                for (int row = 0; row < 4; row++) {
                    const float *start = corner + row * input_row + c;
                    const vec d0 = VLOAD(start), d1 = VLOAD(start + channels), d2 = VLOAD(start + 2 * channels),
                              d3 = VLOAD(start + 3 * channels);
                    r[row][0] = VSUB(d0, d2);
                    r[row][1] = VADD(d1, d2);
                    r[row][2] = VSUB(d2, d1);
                    r[row][3] = VSUB(d1, d3);
                }
                for (int j = 0; j < 4; j++) {
                    VSTORE(target + (0 + j) * v_plane + c, VSUB(r[0][j], r[2][j]));
                    VSTORE(target + (4 + j) * v_plane + c, VADD(r[1][j], r[2][j]));
                    VSTORE(target + (8 + j) * v_plane + c, VSUB(r[2][j], r[1][j]));
                    VSTORE(target + (12 + j) * v_plane + c, VSUB(r[1][j], r[3][j]));
                }
            }
        }
        // The 16 products (tiles x channels) · (channels x oc).
        for (int e = 0; e < 16; e++) {
            SK_NAME(product)(tiles, oc, channels, v + e * v_plane, channels, u + (ptrdiff_t)e * channels * oc, oc,
                             NULL, m + e * m_plane, oc, 0);
        }
        // Aᵀ m A for each tile, the maximum of its 2x2 outputs, bias, ReLU.
        for (int i = 0; i < tiles; i++) {
            const int t = t0 + i, n = t / per_image, ty = (t % per_image) / tile_columns, tx = t % tile_columns;
            const float *source = m + i * oc;
            float *target = output + n * output_image + ty * output_row + tx * oc;
            for (int c = 0; c < oc; c += VW) {
                vec s[4][2];
                for (int row = 0; row < 4; row++) {
                    const float *start = source + 4 * row * m_plane + c;
                    const vec a = VLOAD(start), b = VLOAD(start + m_plane), e = VLOAD(start + 2 * m_plane),
                              f = VLOAD(start + 3 * m_plane);
                    s[row][0] = VADD(VADD(a, b), e);
                    s[row][1] = VSUB(VSUB(b, e), f);
                }
                const vec y00 = VADD(VADD(s[0][0], s[1][0]), s[2][0]), y01 = VADD(VADD(s[0][1], s[1][1]), s[2][1]);
                const vec y10 = VSUB(VSUB(s[1][0], s[2][0]), s[3][0]), y11 = VSUB(VSUB(s[1][1], s[2][1]), s[3][1]);
                const vec top = VMAX(VMAX(y00, y01), VMAX(y10, y11));
                VSTORE(target + c, VMAX(VADD(top, VLOAD(bias + c)), floor));
            }
        }
    }
}

SK_TARGET void SK_NAME(sk_dense)(const float *x, ptrdiff_t x_stride, int rows, int in,
                                 const float *weight_transposed, const float *weight, const float *bias, int out,
                                 float *y, ptrdiff_t y_stride, int relu) {
    const int vector_columns = out / VW * VW;
    if (vector_columns > 0) {
        SK_NAME(product)(rows, vector_columns, in, x, x_stride, weight_transposed, out, bias, y, y_stride, relu);
    }
    // Columns past the last full vector: dot products of x's rows with W's rows.
    for (int o = vector_columns; o < out; o++) {
        const float *w = weight + (ptrdiff_t)o * in;
        for (int n = 0; n < rows; n++) {
            const float *row = x + n * x_stride;
            vec sum = VZERO();
            int p = 0;
            for (; p + VW <= in; p += VW) sum = VFMA(VLOAD(row + p), VLOAD(w + p), sum);
            float total = VSUM(sum) + bias[o];
            for (; p < in; p++) total += row[p] * w[p];
            y[n * y_stride + o] = relu && total < 0 ? 0 : total;
        }
    }
}

/// One image's plane (height x width) copied into `padded` with a zero border of one pixel
/// and `VW` zeros more on the right, rows `stride` = width + 2 + VW floats apart, so that
/// every shifted vector load of a row stays inside the copy.
SK_INLINE void SK_NAME(pad_plane)(const float *plane, int height, int width, float *padded, ptrdiff_t stride) {
    for (ptrdiff_t i = 0; i < (height + 2) * stride; i++) padded[i] = 0;
    for (int y = 0; y < height; y++) {
        const float *source = plane + (ptrdiff_t)y * width;
        float *target = padded + (y + 1) * stride + 1;
        for (int x = 0; x < width; x++) target[x] = source[x];
    }
}

SK_TARGET void SK_NAME(sk_conv3x3_c1_forward)(const float *input, int count, int height, int width,
                                              const float *weight, const float *bias, int oc,
                                              float *output, float *scratch) {
    const ptrdiff_t stride = width + 2 + VW, plane = (ptrdiff_t)height * width;
    for (int n = 0; n < count; n++) {
        SK_NAME(pad_plane)(input + n * plane, height, width, scratch, stride);
        for (int y = 0; y < height; y++) {
            for (int x0 = 0; x0 < width; x0 += VW) {
                const int valid = width - x0 < VW ? width - x0 : VW;
                vec shifted[9];
                for (int ky = 0; ky < 3; ky++)
                    for (int kx = 0; kx < 3; kx++) shifted[ky * 3 + kx] = VLOAD(scratch + (y + ky) * stride + x0 + kx);
                for (int o = 0; o < oc; o++) {
                    const float *w = weight + o * 9;
                    vec sum = VSET1(bias[o]);
                    for (int k = 0; k < 9; k++) sum = VFMA(VSET1(w[k]), shifted[k], sum);
                    VSTORE_PARTIAL(output + ((ptrdiff_t)o * count + n) * plane + (ptrdiff_t)y * width + x0, sum, valid);
                }
            }
        }
    }
}

SK_TARGET void SK_NAME(sk_conv3x3_c1_weight_gradient)(const float *input, int count, int height, int width,
                                                      const float *output_gradient, int oc,
                                                      float *weight_gradient, float *bias_gradient, float *scratch) {
    const ptrdiff_t stride = width + 2 + VW, plane = (ptrdiff_t)height * width;
    float *padded = scratch, *sums = scratch + (height + 2) * stride;   // sums: oc x 10 vectors
    for (int i = 0; i < oc * 10 * VW; i++) sums[i] = 0;
    for (int n = 0; n < count; n++) {
        SK_NAME(pad_plane)(input + n * plane, height, width, padded, stride);
        for (int o = 0; o < oc; o++) {
            vec acc[10];
            for (int k = 0; k < 10; k++) acc[k] = VLOAD(sums + (o * 10 + k) * VW);
            const float *gradient = output_gradient + ((ptrdiff_t)o * count + n) * plane;
            for (int y = 0; y < height; y++) {
                for (int x0 = 0; x0 < width; x0 += VW) {
                    const int valid = width - x0 < VW ? width - x0 : VW;
                    const vec d = VLOAD_PARTIAL(gradient + (ptrdiff_t)y * width + x0, valid);
                    for (int ky = 0; ky < 3; ky++)
                        for (int kx = 0; kx < 3; kx++)
                            acc[ky * 3 + kx] = VFMA(d, VLOAD(padded + (y + ky) * stride + x0 + kx), acc[ky * 3 + kx]);
                    acc[9] = VADD(acc[9], d);
                }
            }
            for (int k = 0; k < 10; k++) VSTORE(sums + (o * 10 + k) * VW, acc[k]);
        }
    }
    for (int o = 0; o < oc; o++) {
        for (int k = 0; k < 9; k++) weight_gradient[o * 9 + k] = VSUM(VLOAD(sums + (o * 10 + k) * VW));
        bias_gradient[o] = VSUM(VLOAD(sums + (o * 10 + 9) * VW));
    }
}

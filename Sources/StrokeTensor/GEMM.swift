import CBLAS

/// Thin, typed wrappers over OpenBLAS's CBLAS. Every matrix product in StrokeKit
/// (convolutions via im2col, dense layers, their backward passes) goes through
/// `gemm`, which is where almost all training and inference time is spent.
public enum BLAS {
    /// C(m×n) = alpha · op(A) · op(B) + beta · C, all row-major.
    /// `op(A)` is m×k and `op(B)` is k×n; `lda`, `ldb`, `ldc` are the row strides of
    /// A, B and C as stored (before transposition).
    @inlinable
    public static func gemm(
        transposeA: Bool = false, transposeB: Bool = false,
        m: Int, n: Int, k: Int,
        alpha: Float = 1,
        a: UnsafePointer<Float>, lda: Int,
        b: UnsafePointer<Float>, ldb: Int,
        beta: Float = 0,
        c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        cblas_sgemm(
            CblasRowMajor,
            transposeA ? CblasTrans : CblasNoTrans,
            transposeB ? CblasTrans : CblasNoTrans,
            blasint(m), blasint(n), blasint(k),
            alpha, a, blasint(lda), b, blasint(ldb),
            beta, c, blasint(ldc))
    }

    /// y(m) = alpha · A(m×n) · x(n) + beta · y, A row-major with row stride `lda`.
    /// For a single example a dense layer is this product; as a GEMM with one row, OpenBLAS
    /// would first copy (pack) the whole weight matrix, which costs more than the product.
    @inlinable
    public static func gemv(
        m: Int, n: Int, alpha: Float = 1,
        a: UnsafePointer<Float>, lda: Int,
        x: UnsafePointer<Float>,
        beta: Float = 0,
        y: UnsafeMutablePointer<Float>
    ) {
        cblas_sgemv(CblasRowMajor, CblasNoTrans, blasint(m), blasint(n), alpha, a, blasint(lda), x, 1, beta, y, 1)
    }

    /// The number of threads OpenBLAS uses for one call.
    public static var threadCount: Int {
        get { Int(openblas_get_num_threads()) }
        set { openblas_set_num_threads(Int32(max(1, newValue))) }
    }
}

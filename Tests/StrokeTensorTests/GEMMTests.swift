import Testing
import StrokeTensor

@Suite struct GEMMTests {
    @Test func gemmMatchesPlainLoopProduct() {
        // A (2x3) · B (3x2), computed by hand-written loops as the independent reference.
        let a: [Float] = [1, 2, 3, 4, 5, 6]
        let b: [Float] = [7, 8, 9, 10, 11, 12]
        var c = [Float](repeating: 0, count: 4)
        BLAS.gemm(m: 2, n: 2, k: 3, a: a, lda: 3, b: b, ldb: 2, c: &c, ldc: 2)
        var expected = [Float](repeating: 0, count: 4)
        for i in 0..<2 { for j in 0..<2 { for p in 0..<3 { expected[i * 2 + j] += a[i * 3 + p] * b[p * 2 + j] } } }
        #expect(c == expected)
    }
}

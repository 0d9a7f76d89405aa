## The package's shared object computes on an optimised BLAS, not GSL's or
## netlib's reference CBLAS (read off the loader by the library itself,
## src/core/blas_info.c): R's own libblas.so.3 can win inside R's process,
## and on Debian it is the system's alternative (OpenBLAS here).
test_that("cblas_dsyrk binds to an optimised BLAS inside R", {
    b <- basel_version()$blas
    expect_type(b, "character")
    expect_match(b, "^optimised: ")
})

test_that("the version is the library's", {
    expect_equal(basel_version()$library, as.character(utils::packageVersion("basel")))
})

## The repository (for the BAS reference and the basel command): BASEL_SRC_DIR,
## else the directories above the tests (r/tests/testthat in the repository).
repo_root <- function() {
    cands <- c(Sys.getenv("BASEL_SRC_DIR"), file.path(getwd(), "..", "..", ".."))
    for (d in cands[nzchar(cands)])
        if (file.exists(file.path(d, "data", "linear", "bas_uscrime.json"))) return(normalizePath(d))
    NULL
}
repo_file <- function(...) {
    root <- repo_root()
    if (is.null(root)) testthat::skip("the basel repository is not found (set BASEL_SRC_DIR)")
    file.path(root, ...)
}
basel_cli <- function() {
    cli <- Sys.getenv("BASEL_CLI", repo_file("build", "basel"))
    if (!file.exists(cli)) testthat::skip(paste("no basel command at", cli, "(tools/build.sh builds it)"))
    cli
}
## UScrime logged as in data/linear/README.md (BAS's vignette)
uscrime <- function() {
    testthat::skip_if_not_installed("MASS")
    u <- get(utils::data("UScrime", package = "MASS", envir = environment()))
    u[, -2] <- log(u[, -2])
    u
}

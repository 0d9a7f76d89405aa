/*
 * test_fuzz_corpus.c: replays every file in tests/fuzz/corpus/csv/ (seeds
 * and inputs the fuzzer once crashed on) through basel_data_read_buffer, as
 * the CSV fuzz target does, so the ordinary test run keeps those bugs fixed.
 * Each must give BASEL_OK or BASEL_EPARSE. Run from the repository root.
 */
#include "check.h"
#include "io/io.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define CORPUS "tests/fuzz/corpus/csv"

/* The whole file in a buffer of exactly its size (no terminating NUL, so
 * ASan sees any read past the end). */
static char *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    char *buf = NULL;
    size_t n = 0;
    if (fseek(fp, 0, SEEK_END) == 0) {
        long size = ftell(fp);
        rewind(fp);
        if (size >= 0 && (buf = malloc(size ? (size_t)size : 1)))
            n = fread(buf, 1, (size_t)size, fp);
    }
    fclose(fp);
    *len = n;
    return buf;
}

static void replay(const char *name, const char *text, size_t len)
{
    basel_data *d = NULL;
    basel_error err;
    int rc = basel_data_read_buffer(&d, name, text, len, NULL, &err);
    CHECK(rc == BASEL_OK || rc == BASEL_EPARSE, "%s: status %s (%s)", name,
          basel_status_str(rc), err.message);
    if (rc == BASEL_OK && d) {
        for (size_t j = 0; j < d->p; j++) {
            int c = bsl_data_check_numeric(d, j, "input", &err);
            CHECK(c == BASEL_OK || c == BASEL_EPARSE, "%s: column %zu check", name, j);
        }
        /* the last column as labels must parse too */
        basel_data *l = NULL;
        rc = basel_data_read_buffer(&l, name, text, len, d->names[d->p - 1], &err);
        CHECK(rc == BASEL_OK, "%s: with labels (%s)", name, err.message);
        basel_data_free(l);
    }
    basel_data_free(d);
}

int main(void)
{
    DIR *dir = opendir(CORPUS);
    CHECK(dir != NULL, "cannot open %s (run from the repository root)", CORPUS);
    if (!dir) return check_report("test_fuzz_corpus");
    size_t files = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", CORPUS, e->d_name);
        size_t len = 0;
        char *text = read_all(path, &len);
        CHECK(text != NULL, "%s: readable", path);
        if (!text) continue;
        replay(e->d_name, text, len);
        free(text);
        files++;
    }
    closedir(dir);
    CHECK(files >= 10, "corpus has %zu files", files);
    return check_report("test_fuzz_corpus");
}

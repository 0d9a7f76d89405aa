/*
 * test_csv.c: unit tests of the CSV reader (src/io/csv.c, csv_guard.c) and
 * the data handle (data.c): the format it accepts, every parse error with
 * its exact line and column, the bad-cell records and bsl_data_check_numeric's messages,
 * subsets, and agreement with strtod to the last bit.
 * Run from the repository root.
 */
#include "check.h"
#include "io/io.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------ helpers */

static int parse_n(basel_data **d, const char *text, size_t len, const char *label,
                   basel_error *err)
{
    return basel_data_read_buffer(d, "t.csv", text, len, label, err);
}

static int parse(basel_data **d, const char *text, const char *label, basel_error *err)
{
    return parse_n(d, text, strlen(text), label, err);
}

/* Parse text that must fail with code at line:column, its message holding
 * want (may be NULL). */
static void expect_error(const char *label_text, const char *text, size_t len, int code,
                         size_t line, size_t column, const char *want)
{
    basel_data *d = NULL;
    basel_error err;
    int rc = parse_n(&d, text, len, NULL, &err);
    CHECK(rc == code, "%s: code %d, want %d (%s)", label_text, rc, code, err.message);
    CHECK(d == NULL, "%s: no data on failure", label_text);
    CHECK(err.code == code, "%s: err.code %d", label_text, err.code);
    CHECK(strcmp(err.file, "t.csv") == 0, "%s: file '%s'", label_text, err.file);
    CHECK(err.line == line && err.column == column, "%s: at %zu:%zu, want %zu:%zu (%s)",
          label_text, err.line, err.column, line, column, err.message);
    if (want)
        CHECK(strstr(err.message, want) != NULL, "%s: message '%s' lacks '%s'", label_text,
              err.message, want);
    basel_data_free(d);
}

static void expect_error_s(const char *label_text, const char *text, int code, size_t line,
                           size_t column, const char *want)
{
    expect_error(label_text, text, strlen(text), code, line, column, want);
}

static int same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* --------------------------------------------------------------- format */

static void test_basic(void)
{
    basel_data *d = NULL;
    basel_error err;
    int rc = parse(&d, "a,b,c\n1,2,3\n4.5,-6e2,7\n", NULL, &err);
    CHECK(rc == BASEL_OK, "basic: parses (%s)", err.message);
    if (rc) return;
    CHECK(err.code == BASEL_OK, "basic: err cleared on success");
    CHECK(basel_data_rows(d) == 2 && basel_data_cols(d) == 3, "basic: 2 x 3");
    CHECK(strcmp(basel_data_name(d, 0), "a") == 0 && strcmp(basel_data_name(d, 2), "c") == 0,
          "basic: names");
    CHECK(basel_data_name(d, 3) == NULL, "basic: name out of range is NULL");
    CHECK(basel_data_value(d, 0, 0) == 1 && basel_data_value(d, 1, 1) == -600 &&
              basel_data_value(d, 1, 0) == 4.5 && basel_data_value(d, 1, 2) == 7,
          "basic: values");
    CHECK(isnan(basel_data_value(d, 2, 0)) && isnan(basel_data_value(d, 0, 3)),
          "basic: value out of range is NaN");
    CHECK(bsl_data_col(d, 1)[0] == 2 && bsl_data_col(d, 1)[1] == -600, "basic: column-major");
    CHECK(d->line_of_row[0] == 2 && d->line_of_row[1] == 3, "basic: line_of_row");
    CHECK(d->label_col == -1 && d->labels == NULL, "basic: no labels");
    CHECK(strcmp(d->source, "t.csv") == 0, "basic: source");
    for (size_t j = 0; j < 3; j++) {
        CHECK(d->bad[j].line == 0, "basic: column %zu clean", j);
        CHECK(bsl_data_check_numeric(d, j, "input", &err) == BASEL_OK, "basic: numeric %zu", j);
    }
    CHECK(bsl_data_check_numeric(d, 3, "input", &err) == BASEL_EINVAL, "basic: bad index");
    basel_data_free(d);

    rc = parse(&d, "x , y\n 1 , 2\t\n\t3,4", NULL, &err);
    CHECK(rc == BASEL_OK, "spaces: parses (%s)", err.message);
    if (rc) return;
    CHECK(strcmp(basel_data_name(d, 0), "x") == 0 && strcmp(basel_data_name(d, 1), "y") == 0,
          "spaces: unquoted names trimmed");
    CHECK(basel_data_value(d, 0, 0) == 1 && basel_data_value(d, 0, 1) == 2 &&
              basel_data_value(d, 1, 0) == 3 && basel_data_value(d, 1, 1) == 4,
          "spaces: numbers with blanks around them, no final newline");
    CHECK(d->bad[0].line == 0 && d->bad[1].line == 0, "spaces: clean");
    basel_data_free(d);

    rc = parse(&d, "v\n1\n", NULL, &err);
    CHECK(rc == BASEL_OK && basel_data_rows(d) == 1 && basel_data_cols(d) == 1,
          "one cell: 1 x 1");
    basel_data_free(d);
}

static void test_quoted(void)
{
    basel_data *d = NULL;
    basel_error err;
    const char *text = "\"x,1\",\"say \"\"hi\"\"\", z ,\" sp \"\n"
                       "\"1.5\",\" 2 \",3,\"-4\"\n"
                       "5,\"6\" ,7,8\n";
    int rc = parse(&d, text, NULL, &err);
    CHECK(rc == BASEL_OK, "quoted: parses (%s)", err.message);
    if (rc) return;
    CHECK(basel_data_cols(d) == 4 && basel_data_rows(d) == 2, "quoted: 2 x 4");
    CHECK(strcmp(basel_data_name(d, 0), "x,1") == 0, "quoted: comma inside a name");
    CHECK(strcmp(basel_data_name(d, 1), "say \"hi\"") == 0, "quoted: doubled quotes");
    CHECK(strcmp(basel_data_name(d, 2), "z") == 0, "quoted: unquoted name trimmed");
    CHECK(strcmp(basel_data_name(d, 3), " sp ") == 0, "quoted: quoted name kept as written");
    CHECK(basel_data_value(d, 0, 0) == 1.5 && basel_data_value(d, 0, 1) == 2 &&
              basel_data_value(d, 0, 3) == -4 && basel_data_value(d, 1, 1) == 6,
          "quoted: quoted numbers, blanks inside and after the quotes");
    for (size_t j = 0; j < 4; j++) CHECK(d->bad[j].line == 0, "quoted: column %zu clean", j);
    basel_data_free(d);

    /* a quoted newline makes a record span lines; line numbers follow */
    rc = parse(&d, "id,note\n1,\"two\nlines\"\n2,\"a,b\"\n3,\"\"\"\"\n", "note", &err);
    CHECK(rc == BASEL_OK, "multiline: parses (%s)", err.message);
    if (rc) return;
    CHECK(basel_data_rows(d) == 3, "multiline: 3 rows");
    CHECK(strcmp(d->labels[0], "two\nlines") == 0, "multiline: newline kept in label");
    CHECK(strcmp(d->labels[1], "a,b") == 0, "multiline: comma in label");
    CHECK(strcmp(d->labels[2], "\"") == 0, "multiline: a lone quote");
    CHECK(d->line_of_row[0] == 2 && d->line_of_row[1] == 4 && d->line_of_row[2] == 5,
          "multiline: line_of_row counts the embedded newline");
    basel_data_free(d);
}

static void test_line_ends(void)
{
    basel_data *d = NULL;
    basel_error err;
    int rc = parse(&d, "a,b\r\n1,2\r\n3,\"4\"\r\n", NULL, &err);
    CHECK(rc == BASEL_OK, "crlf: parses (%s)", err.message);
    if (rc == BASEL_OK) {
        CHECK(strcmp(basel_data_name(d, 1), "b") == 0, "crlf: no CR in the last name");
        CHECK(basel_data_value(d, 0, 1) == 2 && basel_data_value(d, 1, 1) == 4, "crlf: values");
        CHECK(d->bad[1].line == 0 && d->line_of_row[1] == 3, "crlf: clean, lines");
    }
    basel_data_free(d);

    const char *trailing[] = {"a\n1\n\n", "a\n1\n\n\n\n", "a\n1\r\n\r\n", "a\n1\n  \n\t\n",
                              "a\n1"};
    for (size_t k = 0; k < sizeof trailing / sizeof *trailing; k++) {
        rc = parse(&d, trailing[k], NULL, &err);
        CHECK(rc == BASEL_OK && basel_data_rows(d) == 1 && basel_data_value(d, 0, 0) == 1 &&
                  d->bad[0].line == 0,
              "trailing blank lines %zu: one clean row", k);
        basel_data_free(d);
    }

    /* with one column a blank line inside the data is an empty cell */
    rc = parse(&d, "a\n1\n\n2\n", NULL, &err);
    CHECK(rc == BASEL_OK && basel_data_rows(d) == 3, "inner blank line: a row");
    if (rc == BASEL_OK)
        CHECK(isnan(basel_data_value(d, 1, 0)) && d->bad[0].line == 3 && d->bad[0].column == 1,
              "inner blank line: empty cell at 3:1");
    basel_data_free(d);
}

static void test_bom(void)
{
    basel_data *d = NULL;
    basel_error err;
    int rc = parse(&d, "\xEF\xBB\xBF" "a,b\n1,x\n", NULL, &err);
    CHECK(rc == BASEL_OK, "bom: parses (%s)", err.message);
    if (rc == BASEL_OK) {
        CHECK(strcmp(basel_data_name(d, 0), "a") == 0, "bom: skipped");
        CHECK(d->bad[1].line == 2 && d->bad[1].column == 3, "bom: positions unaffected");
    }
    basel_data_free(d);
    expect_error_s("bom: columns count from after it", "\xEF\xBB\xBF" "a,a\n1,2\n",
                   BASEL_EPARSE, 1, 3, "duplicate");
}

static void test_labels(void)
{
    basel_data *d = NULL;
    basel_error err;
    int rc = parse(&d, "x,class,y\n1,A,2\n3,,4\n5,\"\",6\n7, B c ,8\n", "class", &err);
    CHECK(rc == BASEL_OK, "labels: parses (%s)", err.message);
    if (rc) return;
    CHECK(d->label_col == 1, "labels: label_col");
    CHECK(strcmp(d->labels[0], "A") == 0 && strcmp(d->labels[1], "") == 0 &&
              strcmp(d->labels[2], "") == 0 && strcmp(d->labels[3], "B c") == 0,
          "labels: text, empty cells give \"\"");
    CHECK(d->bad[1].line == 0, "labels: the label column is never bad");
    CHECK(isnan(basel_data_value(d, 0, 1)), "labels: label cells are NaN as values");
    CHECK(basel_data_value(d, 3, 2) == 8 && d->bad[2].line == 0, "labels: other columns");
    CHECK(bsl_data_check_numeric(d, 1, "input", &err) == BASEL_EINVAL &&
              strstr(err.message, "label column") != NULL,
          "labels: the label column is not numeric (%s)", err.message);
    CHECK(bsl_data_check_numeric(d, 0, "input", &err) == BASEL_OK, "labels: x numeric");
    basel_data_free(d);

    rc = parse(&d, "x,y\n1,2\n", "class", &err);
    CHECK(rc == BASEL_EPARSE && d == NULL, "labels: missing label column is EPARSE");
    CHECK(strstr(err.message, "'class'") != NULL && err.line == 1 && err.column == 1,
          "labels: message names it, at 1:1 (%s)", err.message);
}

/* --------------------------------------------------------------- errors */

static void test_errors(void)
{
    expect_error_s("empty", "", BASEL_EPARSE, 1, 1, "file is empty");
    expect_error_s("only newlines", "\n\r\n\n", BASEL_EPARSE, 1, 1, "file is empty");
    expect_error_s("only a BOM", "\xEF\xBB\xBF", BASEL_EPARSE, 1, 1, "file is empty");
    expect_error("NULL text", NULL, 0, BASEL_EPARSE, 1, 1, "file is empty");

    expect_error_s("header only", "a,b\n", BASEL_EPARSE, 2, 1, "no data rows after the header");
    expect_error_s("header only, no newline", "a,b", BASEL_EPARSE, 2, 1, "no data rows");
    expect_error_s("header, blank lines", "a,b\r\n\r\n\n", BASEL_EPARSE, 2, 1, "no data rows");
    expect_error_s("two-line header only", "\"a\nb\",c\n", BASEL_EPARSE, 3, 1, "no data rows");

    expect_error_s("short row", "a,b,c,d\n1,2,3,4\n1,2,3\n", BASEL_EPARSE, 3, 1,
                   "row has 3 fields, the header has 4");
    expect_error_s("long row", "a,b\n1,2\n1,2,3\n", BASEL_EPARSE, 3, 5,
                   "row has 3 fields, the header has 2");
    expect_error_s("long row, blanks", "a,b\n1, 2 , 3,4\n", BASEL_EPARSE, 2, 7,
                   "row has 4 fields, the header has 2");
    expect_error_s("long row, UTF-8 columns", "a,b\n\xC3\xA9\xE2\x82\xAC,2,3\n", BASEL_EPARSE, 2,
                   6, "row has 3 fields");
    expect_error_s("long row after a multi-line cell", "a,b\n\"x\ny\",2,3\n", BASEL_EPARSE, 3, 6,
                   "row has 3 fields");
    expect_error_s("blank line inside", "a,b\n1,2\n\n3,4\n", BASEL_EPARSE, 3, 1,
                   "row has 1 field, the header has 2");
    expect_error_s("trailing comma", "a,b\n1,2,\n", BASEL_EPARSE, 2, 5, "row has 3 fields");

    expect_error_s("empty name", "a,,c\n1,2,3\n", BASEL_EPARSE, 1, 3, "empty column name");
    expect_error_s("blank name", " a , ,c\n1,2,3\n", BASEL_EPARSE, 1, 5, "empty column name");
    expect_error_s("empty quoted name", "a,\"\"\n1,2\n", BASEL_EPARSE, 1, 3, "empty column name");
    expect_error_s("blank header line", "\n1,2\n", BASEL_EPARSE, 1, 1, "empty column name");
    expect_error_s("last name empty", "a,b,\n1,2,3\n", BASEL_EPARSE, 1, 5, "empty column name");

    expect_error_s("duplicate", "x,y,x\n1,2,3\n", BASEL_EPARSE, 1, 5,
                   "duplicate column name 'x' (at 1:1 and again at 1:5)");
    expect_error_s("earliest duplicate", "b,a,c,a,b,b\n1,2,3,4,5,6\n", BASEL_EPARSE, 1, 7,
                   "'a' (at 1:3 and again at 1:7)");
    expect_error_s("duplicate after trimming", "x, x\n1,2\n", BASEL_EPARSE, 1, 3, "'x'");

    expect_error_s("unterminated quote", "a,b\n1,\"2\n3,4\n", BASEL_EPARSE, 2, 3, "unterminated");
    expect_error_s("unterminated in header", "a, \"b\n", BASEL_EPARSE, 1, 4, "unterminated");
    expect_error_s("unterminated after a closed one", "a,b\n\"1\",\"\"\"\n", BASEL_EPARSE, 2, 5,
                   "unterminated");
    expect_error_s("text after closing quote", "a,b\n\"1\"x,2\n", BASEL_EPARSE, 2, 4,
                   "after the closing quote");

    expect_error("NUL in a cell", "a,b\n1,2\0\n", 9, BASEL_EPARSE, 2, 4, "NUL byte");
    expect_error("NUL in the header", "a\0,b\n1,2\n", 9, BASEL_EPARSE, 1, 2, "NUL byte");
    expect_error("NUL in quotes", "a,b\n1,\"x\ny\0\"\n", 13, BASEL_EPARSE, 3, 2, "NUL byte");
    expect_error("NUL after quotes", "a,b\n1,\"2\" \0\n", 12, BASEL_EPARSE, 2, 7, "NUL byte");

    /* the first error in the text wins */
    expect_error_s("ragged before unterminated", "a,b\n1\n\"2\n", BASEL_EPARSE, 2, 1,
                   "row has 1 field");
}

static void test_wide_header(void)
{
    enum { P = 5000 };
    size_t cap = (size_t)P * 8 + 64, len = 0;
    char *text = malloc(cap);
    for (int j = 0; j < P; j++) len += (size_t)snprintf(text + len, cap - len, "%sc%d", j ? "," : "", j);
    len += (size_t)snprintf(text + len, cap - len, ",c17\n");
    for (int j = 0; j <= P; j++) len += (size_t)snprintf(text + len, cap - len, "%s1", j ? "," : "");
    basel_data *d = NULL;
    basel_error err;
    int rc = parse_n(&d, text, len, NULL, &err);
    CHECK(rc == BASEL_EPARSE && strstr(err.message, "'c17'") != NULL && err.line == 1,
          "wide header: the duplicate at the end is found (%s)", err.message);
    basel_data_free(d);
    free(text);
}

/* ------------------------------------------------------------ bad cells */

static const char *bad_text = "a,b,c,d,e\n"
                              "1,x,,nan,5\n"
                              "2,3,4,5,6\n"
                              "3, abc ,5,inf,\"1e999\"\n";

static void expect_message(const basel_data *d, size_t j, size_t line, size_t column,
                           const char *want)
{
    basel_error err;
    int rc = bsl_data_check_numeric(d, j, "input", &err);
    CHECK(rc == BASEL_EPARSE, "check_numeric %zu: EPARSE (%d)", j, rc);
    CHECK(strcmp(err.file, "t.csv") == 0 && err.line == line && err.column == column,
          "check_numeric %zu: at %s:%zu:%zu, want %zu:%zu", j, err.file, err.line, err.column,
          line, column);
    CHECK(strcmp(err.message, want) == 0, "check_numeric %zu: '%s', want '%s'", j, err.message,
          want);
}

static void expect_bad(const basel_data *d, size_t j, size_t row, size_t line, size_t column,
                       const char *text)
{
    const bsl_badcell *b = &d->bad[j];
    CHECK(b->row == row && b->line == line && b->column == column,
          "bad[%zu]: row %zu at %zu:%zu, want row %zu at %zu:%zu", j, b->row, b->line, b->column,
          row, line, column);
    CHECK(strcmp(b->text, text) == 0, "bad[%zu]: text '%s', want '%s'", j, b->text, text);
}

static void test_bad_cells(void)
{
    basel_data *d = NULL;
    basel_error err;
    int rc = parse(&d, bad_text, NULL, &err);
    CHECK(rc == BASEL_OK, "bad cells are not a parse error (%s)", err.message);
    if (rc) return;
    CHECK(d->bad[0].line == 0, "bad: column a clean");
    expect_bad(d, 1, 0, 2, 3, "x");
    expect_bad(d, 2, 0, 2, 5, "");
    expect_bad(d, 3, 0, 2, 6, "nan");
    expect_bad(d, 4, 2, 4, 15, "1e999");
    CHECK(isnan(basel_data_value(d, 0, 1)) && isnan(basel_data_value(d, 2, 1)) &&
              isnan(basel_data_value(d, 0, 2)) && isnan(basel_data_value(d, 2, 3)) &&
              isnan(basel_data_value(d, 2, 4)),
          "bad: cells are NaN");
    CHECK(basel_data_value(d, 1, 1) == 3 && basel_data_value(d, 2, 2) == 5, "bad: others kept");
    CHECK(bsl_data_check_numeric(d, 0, "input", &err) == BASEL_OK, "bad: a passes");
    expect_message(d, 1, 2, 3, "input column 'b': 'x' is not a number");
    expect_message(d, 2, 2, 5, "input column 'c': the value is missing (1 row of this column; --na drop leaves such rows out)");
    expect_message(d, 3, 2, 6, "input column 'd': 'nan' is not a finite number");
    expect_message(d, 4, 4, 15, "input column 'e': '1e999' is not a finite number");
    basel_data_free(d);

    /* long text is cut to 47 bytes, never inside a UTF-8 character; control
     * characters become '?' */
    char text[256];
    snprintf(text, sizeof text, "a,b,c\n%s,%s\xC3\xA9zz,\"1\n2\"\n",
             "aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeeeeeeffffffffff",
             "aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeee");
    rc = parse(&d, text, NULL, &err);
    CHECK(rc == BASEL_OK, "long cells parse (%s)", err.message);
    if (rc) return;
    CHECK(strcmp(d->bad[0].text, "aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeee") == 0,
          "truncated to 47: '%s'", d->bad[0].text);
    CHECK(strlen(d->bad[1].text) == 46, "UTF-8 not split: '%s'", d->bad[1].text);
    CHECK(strcmp(d->bad[2].text, "1?2") == 0, "newline shown as '?': '%s'", d->bad[2].text);
    CHECK(d->bad[2].line == 2 && d->bad[2].column == 112, "multi-line cell at its start (%zu:%zu)",
          d->bad[2].line, d->bad[2].column);
    basel_data_free(d);

    /* only blanks may surround a number, not other white space */
    rc = parse(&d, "a,b\n\"\n1\",\"\f2\"\n", NULL, &err);
    CHECK(rc == BASEL_OK && isnan(basel_data_value(d, 0, 0)) && isnan(basel_data_value(d, 0, 1)),
          "newline or form feed before a number: not a number");
    basel_data_free(d);

    /* only the first bad cell of a column is recorded; what= is used */
    rc = parse(&d, "t\n1\n-\n+\n", NULL, &err);
    CHECK(rc == BASEL_OK, "first only: parses");
    if (rc == BASEL_OK) {
        expect_bad(d, 0, 1, 3, 1, "-");
        CHECK(bsl_data_check_numeric(d, 0, "target", &err) == BASEL_EPARSE &&
                  strcmp(err.message, "target column 't': '-' is not a number") == 0,
              "what names the role: '%s'", err.message);
    }
    basel_data_free(d);
}

/* Cells that are numbers to strtod are numbers here, to the last bit: the
 * cells below, then 2^20 random decimals (1-20 digits, a point anywhere, an
 * exponent in [-40, 40] or none), NCOL to a row, so that most rows are read
 * by the fast path (Clinger's, csv.c's scan_simple) and the rows holding a
 * number outside it (over 19 significant digits, a power of ten past 22)
 * by strtod. */
static void test_numbers(void)
{
    const char *cells[] = {"0",       "-0",      "+1",         ".5",          "5.",
                           "1e5",     "1E-5",    "-1.25e+02",  "0x1p-3",      "1e-400",
                           "4.9e-324", "1.7976931348623157e308", "9007199254740993",
                           "0.1",     "123456789012345678901234567890", "000000000000000000000001.5",
                           "2.2250738585072011e-308", "1e22", "1e23", "12345678901234567e-20",
                           "9007199254740992", "9007199254740994", "1e-22", "1e-23",
                           "9999999999999999999", "10000000000000000000", "0.000000000000000000000001"};
    enum { NCOL = 8, NRAND = 1 << 20 };
    const size_t ncell = sizeof cells / sizeof *cells;
    const size_t count = (ncell + NRAND + NCOL - 1) / NCOL * NCOL;
    uint64_t state = 0x2545F4914F6CDD1DULL; /* xorshift, fixed seed */
    char *text = malloc(count * 28 + 4096);
    char(*made)[40] = malloc(sizeof *made * count);
    size_t len = (size_t)sprintf(text, "v1,v2,v3,v4,v5,v6,v7,v8\n");
    for (size_t k = 0; k < count; k++) {
        char *m = made[k];
        if (k < ncell) {
            snprintf(m, 40, "%s", cells[k]);
        } else if (k >= ncell + NRAND) {
            snprintf(m, 40, "7"); /* fills the last row */
        } else {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            int ndig = 1 + (int)(state % 20), point = (int)((state >> 8) % (unsigned)(ndig + 1));
            int ex = (int)((state >> 16) % 81) - 40;
            int w = 0;
            if (state >> 63) m[w++] = '-';
            for (int i = 0; i < ndig; i++) {
                if (i == point) m[w++] = '.';
                m[w++] = (char)('0' + (state >> (20 + 2 * i % 40)) % 10);
            }
            if ((state >> 5) & 1) w += sprintf(m + w, "e%d", ex);
            m[w] = '\0';
        }
        len += (size_t)sprintf(text + len, "%s%c", m, k % NCOL == NCOL - 1 ? '\n' : ',');
    }
    basel_data *d = NULL;
    basel_error err;
    int rc = parse_n(&d, text, len, NULL, &err);
    CHECK(rc == BASEL_OK && basel_data_rows(d) == count / NCOL, "numbers: parse (%s)", err.message);
    size_t wrong = 0;
    for (size_t k = 0; rc == BASEL_OK && k < count; k++) {
        double want = strtod(made[k], NULL), got = basel_data_value(d, k / NCOL, k % NCOL);
        if (!same_double(got, want) && wrong++ < 5)
            fprintf(stderr, "numbers: '%s' read as %.17g, strtod says %.17g\n", made[k], got, want);
    }
    CHECK(wrong == 0, "numbers: %zu of %zu differ from strtod", wrong, count);
    for (size_t j = 0; rc == BASEL_OK && j < NCOL; j++) CHECK(d->bad[j].line == 0, "numbers: all finite");
    basel_data_free(d);
    free(text);
    free(made);
}

/* What the reader must make of one cell: a number, a missing value, or a
 * bad cell (text, or a number that is not finite), by the format's rules
 * (blanks around a field dropped, quotes around it removed, "" and NA
 * missing) and strtod, independently of csv.c. */
enum { WANT_NUMBER, WANT_MISSING, WANT_BAD };
static int cell_want(const char *cell, double *value)
{
    char t[64];
    size_t a = 0, b = strlen(cell);
    while (a < b && (cell[a] == ' ' || cell[a] == '\t')) a++;
    while (b > a && (cell[b - 1] == ' ' || cell[b - 1] == '\t')) b--;
    if (b - a >= 2 && cell[a] == '"') a++, b--; /* and a number may have blanks inside the quotes */
    while (a < b && (cell[a] == ' ' || cell[a] == '\t')) a++;
    while (b > a && (cell[b - 1] == ' ' || cell[b - 1] == '\t')) b--;
    snprintf(t, sizeof t, "%.*s", (int)(b - a), cell + a);
    if (!t[0] || strcmp(t, "NA") == 0) return WANT_MISSING;
    char *stop;
    *value = strtod(t, &stop);
    return *stop == '\0' && isfinite(*value) ? WANT_NUMBER : WANT_BAD;
}

/* Rows of plain numbers mixed with every kind of cell that the fast path
 * leaves to the tokenizer, anywhere in the row, LF and CR LF line ends: each
 * cell's value, and each bad cell's line and character column, are what
 * the format says (cell_want), whichever path read the row. */
static void test_fast_and_slow_rows(void)
{
    static const char *odd[] = {"",     "NA",   " 1.5", "2.5 ",  "\"3.25\"", "\" 4 \"", "1e",   "1e+",
                                "abc",  "-",    ".",    "1.5.2", "inf",      "1e400",  "0x10", "1,5x",
                                "12345678901234567890123", "1e-30", "+.5e1", "\t6\t", "7e", "-0.0"};
    enum { ROWS = 4000, NCOL = 12 };
    const size_t nodd = sizeof odd / sizeof *odd;
    uint64_t state = 0x9E3779B97F4A7C15ULL; /* xorshift, fixed seed */
    char *text = malloc((size_t)ROWS * NCOL * 32 + 256), (*cell)[32] = malloc(sizeof *cell * ROWS * NCOL);
    size_t *column = malloc(sizeof *column * ROWS * NCOL);
    size_t len = 0;
    for (int j = 0; j < NCOL; j++) len += (size_t)sprintf(text + len, "c%d%s", j, j + 1 < NCOL ? "," : "\n");
    for (size_t i = 0; i < ROWS; i++) {
        size_t at = 1;
        for (size_t j = 0; j < NCOL; j++) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            char *c = cell[i * NCOL + j];
            if (state % 40 == 0 && !strchr(odd[(state >> 8) % nodd], ',')) snprintf(c, 32, "%s", odd[(state >> 8) % nodd]);
            else snprintf(c, 32, "%.*g", 1 + (int)((state >> 8) % 9), (double)(int64_t)(state >> 20) * 1e-9);
            column[i * NCOL + j] = at;
            at += strlen(c) + 1;
            len += (size_t)sprintf(text + len, "%s%s", c, j + 1 < NCOL ? "," : (state >> 60) & 1 ? "\r\n" : "\n");
        }
    }
    basel_data *d = NULL;
    basel_error err;
    int rc = parse_n(&d, text, len, NULL, &err);
    CHECK(rc == BASEL_OK && basel_data_rows(d) == ROWS, "fast and slow rows: parse (%s)", err.message);
    size_t wrong = 0;
    for (size_t k = 0; rc == BASEL_OK && k < (size_t)ROWS * NCOL; k++) {
        const size_t i = k / NCOL, j = k % NCOL;
        double want = 0;
        const int kind = cell_want(cell[k], &want);
        const double got = basel_data_value(d, i, j);
        int ok = d->line_of_row[i] == i + 2;
        if (kind == WANT_NUMBER) ok = ok && same_double(got, want);
        else ok = ok && isnan(got) && bsl_data_is_missing(d, i, j) == (kind == WANT_MISSING) &&
                  bsl_data_cell_column(d, i, j) == column[k];
        if (!ok && wrong++ < 5)
            fprintf(stderr, "fast and slow rows: row %zu column %zu '%s' read as %.17g (column %zu, line %zu)\n", i, j,
                    cell[k], got, bsl_data_cell_column(d, i, j), d->line_of_row[i]);
    }
    CHECK(wrong == 0, "fast and slow rows: %zu cells read wrong", wrong);
    basel_data_free(d);
    free(text);
    free(cell);
    free(column);
}

/* The table is built in segments (csv.c's builder): a file's first one is
 * sized from the length of its first rows, a pipe's double. Rows whose
 * length changes half-way make the guess wrong both ways: short rows after
 * long ones (more rows than guessed: a second segment, the first grown
 * into the table), long rows after short ones (fewer: the one segment
 * shrinks); a stream of unknown size takes several segments, copied into
 * the table. Every value must land in its place in each case. */
static void expect_table(const char *what, basel_data *d, int rc, const basel_error *err, size_t rows,
                         char (*cell)[24])
{
    CHECK(rc == BASEL_OK && basel_data_rows(d) == rows, "%s: parse (%s)", what, err->message);
    size_t wrong = 0;
    for (size_t k = 0; rc == BASEL_OK && k < rows * 4; k++)
        wrong += !same_double(basel_data_value(d, k / 4, k % 4), strtod(cell[k], NULL));
    CHECK(wrong == 0, "%s: %zu values out of place", what, wrong);
    basel_data_free(d);
}

static void test_segments(void)
{
    enum { ROWS = 120000 }; /* several stages of 4 columns (1 MB: 32768 rows) */
    char(*cell)[24] = malloc(sizeof *cell * ROWS * 4), *text = malloc((size_t)ROWS * 4 * 24 + 64);
    for (int order = 0; order < 2; order++) {
        size_t len = (size_t)sprintf(text, "a,b,c,d\n");
        for (size_t k = 0; k < (size_t)ROWS * 4; k++) {
            const int long_row = (k / 4 < ROWS / 2) == (order == 0);
            snprintf(cell[k], 24, long_row ? "%.15g" : "%.1g", 1.2345678901234567 * (double)(k % 977 + 1));
            len += (size_t)sprintf(text + len, "%s%c", cell[k], k % 4 == 3 ? '\n' : ',');
        }
        basel_data *d = NULL;
        basel_error err;
        int rc = parse_n(&d, text, len, NULL, &err);
        expect_table(order == 0 ? "segments: long rows, then short" : "segments: short rows, then long", d, rc,
                     &err, ROWS, cell);
        if (order == 1) { /* the same text as a stream of unknown size */
            FILE *fp = tmpfile();
            CHECK(fp && fwrite(text, 1, len, fp) == len && fseek(fp, 0, SEEK_SET) == 0, "segments: temporary file");
            d = NULL;
            rc = fp ? bsl_csv_read_fp(&d, fp, "t.csv", 0, NULL, NULL, &err) : BASEL_EIO;
            expect_table("segments: a stream", d, rc, &err, ROWS, cell);
            if (fp) fclose(fp);
        }
    }
    free(cell);
    free(text);
}

/* --------------------------------------------------------------- subset */

static void test_subset(void)
{
    basel_data *d = NULL, *s = NULL;
    basel_error err;
    if (parse(&d, bad_text, NULL, &err) != BASEL_OK) {
        CHECK(0, "subset: parse failed (%s)", err.message);
        return;
    }
    size_t rows[] = {2, 1};
    int rc = basel_data_subset(&s, d, rows, 2, &err);
    CHECK(rc == BASEL_OK, "subset: ok (%s)", err.message);
    if (rc == BASEL_OK) {
        CHECK(basel_data_rows(s) == 2 && basel_data_cols(s) == 5, "subset: 2 x 5");
        CHECK(strcmp(basel_data_name(s, 4), "e") == 0 && basel_data_find(s, "c") == 2,
              "subset: names kept");
        CHECK(basel_data_value(s, 0, 0) == 3 && basel_data_value(s, 1, 0) == 2 &&
                  basel_data_value(s, 0, 2) == 5 && basel_data_value(s, 1, 4) == 6,
              "subset: rows in the order asked");
        CHECK(s->line_of_row[0] == 4 && s->line_of_row[1] == 3, "subset: line_of_row");
        CHECK(s->bad[0].line == 0 && s->bad[2].line == 0, "subset: a and c now clean");
        /* b's first bad cell is now " abc " (row 0, 4:3): its text is not kept */
        expect_bad(s, 1, 0, 4, 3, "");
        expect_message(s, 1, 4, 3, "input column 'b': the cell is not a number");
        expect_bad(s, 3, 0, 4, 11, "");
        expect_message(s, 3, 4, 11, "input column 'd': the cell is not a finite number");
        expect_bad(s, 4, 0, 4, 15, "1e999"); /* the original record, renumbered */
        expect_message(s, 4, 4, 15, "input column 'e': '1e999' is not a finite number");
        CHECK(strcmp(s->source, "t.csv") == 0, "subset: source kept");
    }
    basel_data_free(s);

    size_t first[] = {0, 0, 1};
    rc = basel_data_subset(&s, d, first, 3, &err);
    CHECK(rc == BASEL_OK && basel_data_rows(s) == 3, "subset: repeated rows allowed");
    if (rc == BASEL_OK) {
        expect_bad(s, 1, 0, 2, 3, "x");
        expect_bad(s, 2, 0, 2, 5, "");
        expect_message(s, 2, 2, 5, "input column 'c': the value is missing (2 rows of this column; --na drop leaves such rows out)");
    }
    basel_data_free(s);

    size_t out_of_range[] = {0, 3};
    s = (basel_data *)1;
    CHECK(basel_data_subset(&s, d, out_of_range, 2, &err) == BASEL_EINVAL && s == NULL,
          "subset: row out of range");
    CHECK(strstr(err.message, "row 3") != NULL, "subset: names the row (%s)", err.message);
    CHECK(basel_data_subset(&s, d, rows, 0, &err) == BASEL_EINVAL, "subset: no rows");
    CHECK(basel_data_subset(&s, NULL, rows, 1, &err) == BASEL_EINVAL, "subset: NULL data");
    basel_data_free(d);

    rc = parse(&d, "x,lab\n1,a\n2,\n3,c\n", "lab", &err);
    CHECK(rc == BASEL_OK, "subset labels: parse");
    size_t two[] = {2, 1};
    if (rc == BASEL_OK && basel_data_subset(&s, d, two, 2, &err) == BASEL_OK) {
        CHECK(s->label_col == 1 && strcmp(s->labels[0], "c") == 0 && strcmp(s->labels[1], "") == 0,
              "subset: labels copied");
        CHECK(s->bad[1].line == 0, "subset: the label column stays clean");
        basel_data_free(s);
    } else {
        CHECK(0, "subset labels: subset failed");
    }
    basel_data_free(d);
}

static void test_find_and_null(void)
{
    basel_data *d = NULL;
    basel_error err;
    if (parse(&d, "alpha,beta,\"g a\"\n1,2,3\n", NULL, &err) != BASEL_OK) {
        CHECK(0, "find: parse failed (%s)", err.message);
        return;
    }
    CHECK(basel_data_find(d, "alpha") == 0 && basel_data_find(d, "beta") == 1 &&
              basel_data_find(d, "g a") == 2,
          "find: each name");
    CHECK(basel_data_find(d, "gamma") == -1 && basel_data_find(d, "") == -1 &&
              basel_data_find(d, "Alpha") == -1 && basel_data_find(d, NULL) == -1,
          "find: absent names are -1");
    basel_data_free(d);
    CHECK(basel_data_find(NULL, "a") == -1 && basel_data_rows(NULL) == 0 &&
              basel_data_cols(NULL) == 0 && basel_data_name(NULL, 0) == NULL &&
              isnan(basel_data_value(NULL, 0, 0)),
          "NULL handle accessors");
    basel_data_free(NULL);
    CHECK(basel_data_read_buffer(NULL, "x", "a\n1", 3, NULL, &err) == BASEL_EINVAL,
          "read_buffer: NULL out");
    CHECK(basel_data_read_buffer(&d, "x", NULL, 3, NULL, &err) == BASEL_EINVAL && d == NULL,
          "read_buffer: NULL text with a length");
    CHECK(basel_data_read_buffer(&d, "x", "a\n1", 3, NULL, NULL) == BASEL_OK,
          "read_buffer: err may be NULL");
    basel_data_free(d);
    CHECK(basel_data_read_buffer(&d, "x", "", 0, NULL, NULL) == BASEL_EPARSE,
          "read_buffer: err may be NULL on failure");
}

/* -------------------------------------------------------------- files */

static void test_files(void)
{
    char path[] = "/tmp/basel_test_csv_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "files: temporary file");
    if (fd < 0) return;
    const char *text = "a,b\n1,2\n3,oops\n";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text), "files: write");
    close(fd);

    basel_data *d = NULL;
    basel_error err;
    int rc = basel_data_read_csv(&d, path, NULL, &err);
    CHECK(rc == BASEL_OK && basel_data_rows(d) == 2 && basel_data_value(d, 1, 0) == 3,
          "files: read (%s)", err.message);
    if (rc == BASEL_OK) {
        CHECK(strcmp(d->source, path) == 0, "files: source is the path");
        CHECK(bsl_data_check_numeric(d, 1, "input", &err) == BASEL_EPARSE &&
                  strcmp(err.file, path) == 0 && err.line == 3 && err.column == 3,
              "files: bad cell names the file (%s:%zu:%zu)", err.file, err.line, err.column);
    }
    basel_data_free(d);

    /* "-" reads stdin, named <stdin> in messages */
    if (freopen(path, "rb", stdin)) {
        rc = basel_data_read_csv(&d, "-", NULL, &err);
        CHECK(rc == BASEL_OK && strcmp(d->source, "<stdin>") == 0 && basel_data_rows(d) == 2,
              "stdin: read as <stdin> (%s)", err.message);
        basel_data_free(d);
    }
    unlink(path);

    d = (basel_data *)1;
    rc = basel_data_read_csv(&d, path, NULL, &err);
    CHECK(rc == BASEL_EIO && d == NULL, "files: missing file is EIO");
    CHECK(strcmp(err.file, path) == 0 && err.line == 0 && err.column == 0 &&
              strstr(err.message, "No such file") != NULL,
          "files: names the path and the reason (%s)", err.message);
    rc = basel_data_read_csv(&d, "tests", NULL, &err);
    CHECK(rc == BASEL_EIO && d == NULL, "files: a directory is EIO (%s)", err.message);
    CHECK(basel_data_read_csv(&d, NULL, NULL, &err) == BASEL_EINVAL, "files: NULL path");
}

/* --------------------------------------------------------------- limits */

/* "a,b\n1," then a field of len bytes (quoted: an opening quote and len - 1
 * x's, never closed), then ",2\n" unless quoted. */
static char *long_field(size_t len, int quoted, size_t *total)
{
    char *t = malloc(len + 16);
    if (!t) return NULL;
    size_t k = (size_t)sprintf(t, "a,b,c\n1,");
    if (quoted) t[k++] = '"';
    memset(t + k, quoted ? 'x' : '7', len - (size_t)quoted);
    k += len - (size_t)quoted;
    if (!quoted) k += (size_t)sprintf(t + k, ",2\n");
    *total = k;
    return t;
}

static void test_limits(void)
{
    size_t n;
    char *t = long_field(BSL_CSV_MAX_FIELD, 0, &n);
    basel_data *d = NULL;
    basel_error err;
    CHECK(t && parse_n(&d, t, n, NULL, &err) == BASEL_OK, "limits: a field of exactly the limit is read (%s)",
          err.message);
    basel_data_free(d);
    free(t);
    t = long_field(BSL_CSV_MAX_FIELD + 1, 0, &n);
    if (t) expect_error("limits: a field one byte too long", t, n, BASEL_EPARSE, 2, 3, "a field longer than 65536 bytes");
    free(t);
    t = long_field(BSL_CSV_MAX_FIELD + 1, 1, &n);
    if (t) expect_error("limits: a quote never closed", t, n, BASEL_EPARSE, 2, 3, "is a quote left open?");
    free(t);
    /* a short open quote is still the tokenizer's "unterminated" */
    expect_error_s("limits: short open quote", "a,b\n1,\"2\n", BASEL_EPARSE, 2, 3, "unterminated");

    /* a line of short fields past the line limit, on line 3 */
    const size_t line = (size_t)BSL_CSV_MAX_LINE + 10;
    t = malloc(line + 32);
    if (t) {
        size_t k = (size_t)sprintf(t, "a,b\n1,2\n");
        for (size_t i = 0; i < line; i++) t[k++] = i % 8 == 7 ? ',' : '5';
        expect_error("limits: a line too long", t, k, BASEL_EPARSE, 3, 1, "a line longer than 16777216 bytes");
        /* the first error in the text still wins: a ragged row before it */
        memcpy(t, "a,b\n1,,\n", 9);
        expect_error("limits: an earlier error wins", t, k, BASEL_EPARSE, 2, 4, "row has 3 fields");
    }
    free(t);
}

static void test_line_end_kinds(void)
{
    basel_data *d = NULL;
    basel_error err;
    int rc = parse(&d, "a,b\r1,2\r3,\"x\ry\"\r5,6\r", "b", &err);
    CHECK(rc == BASEL_OK && basel_data_rows(d) == 3, "cr only: three rows (%s)", err.message);
    if (rc == BASEL_OK) {
        CHECK(strcmp(basel_data_name(d, 1), "b") == 0 && basel_data_value(d, 2, 0) == 5, "cr only: values");
        CHECK(d->line_of_row[1] == 3 && d->line_of_row[2] == 5, "cr only: lines, a quoted CR counts");
        CHECK(strcmp(d->labels[1], "x\ny") == 0, "cr only: a quoted CR is a line end too");
    }
    basel_data_free(d);
    rc = parse(&d, "a,b\r1,2\r3,z\r", NULL, &err);
    CHECK(rc == BASEL_OK && d->bad[1].line == 3 && d->bad[1].column == 3, "cr only: a bad cell at 3:3");
    basel_data_free(d);
    expect_error_s("cr then crlf", "a,b\r1,2\r\n3,4\r\n", BASEL_EPARSE, 2, 1, "ends in CR LF, but the first one in CR alone");
    expect_error_s("cr then lf", "a,b\r1,2\r3,4\n", BASEL_EPARSE, 3, 1, "ends in LF, but the first one in CR alone");
    /* a CR inside an LF file stays what it was: part of a cell */
    rc = parse(&d, "a,b\n1,2\r3\n4,5\n", NULL, &err);
    CHECK(rc == BASEL_OK && basel_data_rows(d) == 2 && d->bad[1].line == 2 && d->bad[1].column == 3,
          "lone cr in an lf file: a bad cell at 2:3, two rows");
    basel_data_free(d);
}

static void test_delimiter_hint(void)
{
    expect_error_s("semicolons", "a;b;y\n1;2;3\n", BASEL_EPARSE, 1, 1,
                   "the header has one column, 'a;b;y'; is the delimiter ';'?");
    expect_error_s("tabs", "a\tb\ty\n1\t2\t3\n", BASEL_EPARSE, 1, 1, "'a\\tb\\ty'; is the delimiter a tab?");
    expect_error_s("semicolons, header only", "a;b", BASEL_EPARSE, 1, 1, "is the delimiter ';'?");
    basel_data *d = NULL;
    basel_error err;
    int rc = parse(&d, "a\t\n1\n", NULL, &err);
    CHECK(rc == BASEL_OK && strcmp(basel_data_name(d, 0), "a") == 0, "hint: a trailing tab is a blank");
    basel_data_free(d);
    rc = parse(&d, "\"a;b\"\n1\n", NULL, &err);
    CHECK(rc == BASEL_OK && strcmp(basel_data_name(d, 0), "a;b") == 0, "hint: a quoted ';' is a name");
    basel_data_free(d);
    rc = parse(&d, "a;b,c\n1,2\n", NULL, &err);
    CHECK(rc == BASEL_OK, "hint: only with one column (%s)", err.message);
    basel_data_free(d);
}

/* A file whose NUL comes early is refused without reading the rest: a
 * pipe that never ends (here: one end open, nothing more written). */
static void test_stream_stops(void)
{
    int fds[2];
    if (pipe(fds) != 0) return;
    char head[70000];
    memcpy(head, "a,b\n1,2\n3,", 11);
    memset(head + 11, 0, sizeof head - 11);
    FILE *in = fdopen(fds[0], "rb");
    /* 70000 bytes fill the pipe's buffer only with a reader; a child writes */
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        ssize_t w = write(fds[1], head, sizeof head);
        (void)w;
        pause(); /* keep the write end open: no end of file ever comes */
        _exit(0);
    }
    close(fds[1]);
    if (in && pid > 0 && freopen("/dev/null", "rb", stdin)) {
        int saved = dup(0);
        dup2(fileno(in), 0);
        basel_data *d = NULL;
        basel_error err;
        int rc = basel_data_read_csv(&d, "-", NULL, &err);
        CHECK(rc == BASEL_EPARSE && err.line == 3 && err.column == 3 && strstr(err.message, "NUL"),
              "stream: a NUL on line 3 stops the reading (%d %zu:%zu %s)", rc, err.line, err.column,
              err.message);
        basel_data_free(d);
        dup2(saved, 0);
        close(saved);
    }
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    if (in) fclose(in);
}

int main(void)
{
    test_basic();
    test_quoted();
    test_line_ends();
    test_bom();
    test_labels();
    test_errors();
    test_wide_header();
    test_bad_cells();
    test_numbers();
    test_fast_and_slow_rows();
    test_segments();
    test_subset();
    test_find_and_null();
    test_files();
    test_limits();
    test_line_end_kinds();
    test_delimiter_hint();
    test_stream_stops();
    return check_report("test_csv");
}

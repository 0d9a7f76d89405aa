/*
 * csv_scan.h: what the CSV reader's two passes over the text share: the
 * guard (csv_guard.c), which reads every byte first, and the parser
 * (csv.c). Blanks, words of eight bytes scanned at once (SWAR), and the
 * guard's state, which the parser reads to know where to stop. Internal
 * to src/io.
 */
#ifndef BSL_CSV_SCAN_H
#define BSL_CSV_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* A blank around an unquoted field: space or tab. */
static inline int bsl_csv_blank(char c) { return c == ' ' || c == '\t'; }

/* Eight bytes at a time (SWAR: a word as eight lanes), for the guard's
 * bulk and for the fast path's digits: where GCC's bit builtins exist and
 * the first byte in memory is the word's lowest. The masks below are
 * exact in every lane: no lane carries or borrows into the next. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BSL_SWAR 1
#define BSL_SWAR_LANES(b) (0x0101010101010101ULL * (uint64_t)(b))

/* The high bit of each lane of w that is not zero. */
static inline uint64_t bsl_swar_nonzero(uint64_t w)
{
    return (((w & BSL_SWAR_LANES(0x7f)) + BSL_SWAR_LANES(0x7f)) | w) & BSL_SWAR_LANES(0x80);
}

/* The high bit of each lane of w equal to c. */
static inline uint64_t bsl_swar_eq(uint64_t w, unsigned char c)
{
    return ~bsl_swar_nonzero(w ^ BSL_SWAR_LANES(c)) & BSL_SWAR_LANES(0x80);
}

/* Whether a lane of w is not plain text for csv_guard.c's body_run: a control byte or a
 * blank (<= ' '), DEL or non-ASCII (>= 0x7f), or a quote. */
static inline int bsl_swar_special(uint64_t w)
{
    const uint64_t low = w & BSL_SWAR_LANES(0x7f);
    const uint64_t bad = (w | (low + BSL_SWAR_LANES(0x01)) | ~(low + BSL_SWAR_LANES(0x80 - 0x21))) & BSL_SWAR_LANES(0x80);
    return (bad | bsl_swar_eq(w, '"')) != 0;
}

#endif

/* The guard reads the text once as it streams in, before anything is kept
 * per row, and stops the reading as soon as what has arrived is certain to
 * be rejected: a NUL byte (binary data: /dev/zero fails at 1:1 instead of
 * filling the memory), a line longer than BSL_CSV_MAX_LINE bytes, a field
 * longer than BSL_CSV_MAX_FIELD bytes, a one-column header holding ';' or a
 * tab, CR and LF line ends in one file. It follows quotes as the tokenizer
 * does, so a field or a record is what the parser will see. It also finds
 * the line ends: a file whose first line ends in CR alone (classic Mac) is
 * read with CR as the line end. The parser stays the judge of the message:
 * once stopped, the text up to cut is parsed for an earlier error (the
 * first error in the text wins), and only if there is none does the guard's
 * own message stand. */

typedef struct bsl_csv_guard {
    size_t pos;              /* bytes checked */
    size_t line, col;        /* line of text[pos], characters before it on the line */
    size_t line_bytes;       /* bytes of the current line before pos */
    size_t field_bytes;      /* bytes of the current field before pos */
    size_t field_line, field_col, field_quoted; /* where the current field starts */
    size_t record_start;     /* offset of the current record's first byte */
    size_t records, fields;  /* complete records; fields of the current one */
    int state;               /* where in a field pos is (csv_guard.c) */
    int eol;                 /* 0 until known, then '\n' or '\r' */
    int header_delim;        /* ';' or '\t' inside an unquoted header field */
    int tab_pending;         /* a tab in this header field, text after it unseen */
    int prev_cr;             /* the byte before pos is a CR (the bytes before the
                              * current record may be gone, or be LF by then) */
    int stopped;             /* the text up to cut holds an error */
    size_t cut;
    size_t why_line, why_col;
    char why[200];
} bsl_csv_guard;

void bsl_csv_guard_init(bsl_csv_guard *g);
/* Check text[g->pos, len) (the buffer's offsets: the caller shifts pos and
 * record_start when it drops parsed bytes); at_eof: no more text follows.
 * Sets g->stopped, cut and why when what has arrived is certain to be
 * rejected. */
void bsl_csv_guard_feed(bsl_csv_guard *g, const char *text, size_t len, int at_eof);

#endif

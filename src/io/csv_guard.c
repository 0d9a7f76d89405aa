/*
 * csv_guard.c: the CSV reader's guard (csv_scan.h), which reads the text
 * as it streams in, before the parser (csv.c) keeps anything of it, and
 * stops the reading at the first sign that the input is not a table.
 */
#include "io.h"
#include "csv_scan.h"

#include <stdio.h>
#include <string.h>

/* Where in a field the guard is. G_QUOTE: a quote inside quotes. */
enum { G_START, G_UNQUOTED, G_QUOTED, G_QUOTE };

void bsl_csv_guard_init(bsl_csv_guard *g)
{
    memset(g, 0, sizeof *g);
    g->line = g->field_line = g->field_col = 1;
}

static void guard_stop(bsl_csv_guard *g, size_t cut, size_t line, size_t col, const char *why)
{
    g->stopped = 1;
    g->cut = cut;
    g->why_line = line;
    g->why_col = col;
    snprintf(g->why, sizeof g->why, "%s", why);
}

/* A separator or a record end at offset i: the next field starts after it. */
static void end_field(bsl_csv_guard *g, size_t i, int record_end)
{
    g->fields++;
    if (record_end) {
        if (g->records == 0 && g->fields == 1 && g->header_delim) {
            guard_stop(g, i + 1, 1, 1, "the header has one column; is the delimiter another character?");
            return;
        }
        g->records++;
        g->fields = 0;
        g->record_start = i + 1;
    }
    g->field_bytes = 0;
    g->field_quoted = 0;
    g->tab_pending = 0;
    g->field_line = record_end ? g->line + 1 : g->line;
    g->field_col = record_end ? 1 : g->col + 2;
}

/* Decide the line ends at the first CR or LF outside quotes. Returns 0 when
 * the byte after a CR has not arrived yet. */
static int find_eol(bsl_csv_guard *g, const char *text, size_t i, size_t len, int at_eof)
{
    if (text[i] == '\n') g->eol = '\n';
    else if (i + 1 < len) g->eol = text[i + 1] == '\n' ? '\n' : '\r';
    else if (at_eof) g->eol = '\r';
    else return 0;
    return 1;
}

/* One byte outside quotes: the field or record it ends. */
static void unquoted_byte(bsl_csv_guard *g, char c, size_t i, int is_nl)
{
    if (c == ',' || is_nl) {
        end_field(g, i, is_nl);
    } else {
        if (g->state == G_START && c == '"') {
            g->state = G_QUOTED;
            g->field_quoted = 1;
            return;
        }
        if (g->state == G_START && !bsl_csv_blank(c)) g->state = G_UNQUOTED;
        /* a ';' stays in the name; a tab only with more text after it,
         * as the tokenizer trims blanks at the ends of a field */
        if (g->records == 0 && g->state == G_UNQUOTED && !g->header_delim) {
            if (c == ';' || (g->tab_pending && !bsl_csv_blank(c))) g->header_delim = c == ';' ? ';' : '\t';
            else if (c == '\t') g->tab_pending = 1;
        }
        return;
    }
    g->state = G_START;
}

/* Stop when the current field or line has grown past its limit. */
static void check_limits(bsl_csv_guard *g)
{
    char why[200];
    if (g->field_bytes > BSL_CSV_MAX_FIELD) {
        snprintf(why, sizeof why, "a field longer than %d bytes (the limit)%s", BSL_CSV_MAX_FIELD,
                 g->field_quoted ? "; is a quote left open?" : "");
        guard_stop(g, g->record_start, g->field_line, g->field_col, why);
    } else if (g->line_bytes > BSL_CSV_MAX_LINE) {
        snprintf(why, sizeof why, "a line longer than %d bytes (the limit); is this a CSV file?",
                 BSL_CSV_MAX_LINE);
        guard_stop(g, g->record_start, g->line, 1, why);
    }
}

/* The end of the run of plain ASCII from text[i] inside an unquoted field:
 * bytes that change nothing but the counts (the bulk of a numeric table,
 * taken here without the byte-by-byte state machine). */
static size_t plain_run(const char *text, size_t i, size_t len)
{
    while (i < len && text[i] >= ' ' && text[i] < 0x7f && text[i] != ',' && text[i] != ';') i++;
    return i;
}

/* One byte: the quote state, the fields and records it ends, the position.
 * Returns 0 when it needs the next byte, which has not arrived. */
static int guard_byte(bsl_csv_guard *g, const char *text, size_t i, size_t len, int at_eof)
{
    const char c = text[i];
    if (c == '\0') {
        guard_stop(g, len, g->line, g->col + 1, "the text contains a NUL byte (is this a binary file?)");
        return 1;
    }
    if (!g->eol && (c == '\n' || (c == '\r' && g->state != G_QUOTED)) && !find_eol(g, text, i, len, at_eof))
        return 0; /* wait for the byte after this CR */
    if (c == '\n' && g->eol == '\r') { /* the CR before it, if any, ended its line */
        const int crlf = g->prev_cr;
        guard_stop(g, g->record_start, crlf ? g->line - 1 : g->line, 1,
                   crlf ? "this line ends in CR LF, but the first one in CR alone; use one kind of line end"
                        : "this line ends in LF, but the first one in CR alone; use one kind of line end");
        return 1;
    }
    const int is_nl = c == '\n' || (c == '\r' && g->eol == '\r');
    if (g->state == G_QUOTED) {
        if (c == '"') g->state = G_QUOTE;
    } else if (g->state == G_QUOTE && c == '"') {
        g->state = G_QUOTED; /* a doubled quote */
    } else {
        if (g->state == G_QUOTE) g->state = G_UNQUOTED; /* after the closing quote */
        unquoted_byte(g, c, i, is_nl);
        if (g->stopped) return 1;
    }
    if (is_nl) {
        g->line++;
        g->col = g->line_bytes = 0;
    } else {
        g->col += ((unsigned char)c & 0xC0) != 0x80;
        g->line_bytes++;
    }
    if (g->state != G_START || g->field_bytes) g->field_bytes++;
    g->prev_cr = c == '\r';
    return 1;
}

/* The bulk of a table's body past the header: printable ASCII other than
 * blanks and quotes, and the commas between such fields, with the effect
 * of guard_byte on each but without its state machine. Stops before any
 * other byte (a line end, a quote, a blank, a control or non-ASCII byte),
 * and at a comma that ends a field past its limit, for guard_byte and
 * check_limits. Returns whether it moved. */
static int body_run(bsl_csv_guard *g, const char *text, size_t len)
{
    const size_t start = g->pos;
    size_t i = start, fb = g->field_bytes, last_comma = SIZE_MAX;
    int state = g->state;
    while (i < len) {
#ifdef BSL_SWAR
        if (i + 8 <= len) { /* eight bytes at once, when none is special and a comma ends no long field */
            uint64_t w;
            memcpy(&w, text + i, 8);
            const uint64_t commas = bsl_swar_eq(w, ','), k = commas ? (uint64_t)__builtin_ctzll(commas) >> 3 : 8;
            if (!bsl_swar_special(w) && fb + k <= BSL_CSV_MAX_FIELD) {
                if (commas) {
                    const size_t last = (size_t)(63 - __builtin_clzll(commas)) >> 3;
                    g->fields += (size_t)(((commas >> 7) * BSL_SWAR_LANES(1)) >> 56); /* one per lane's high bit */
                    fb = 7 - last;
                    state = last == 7 ? G_START : G_UNQUOTED;
                    last_comma = i + last;
                } else {
                    fb += 8;
                    state = G_UNQUOTED;
                }
                i += 8;
                continue;
            }
        }
#endif
        const unsigned char c = (unsigned char)text[i];
        if (c > ' ' && c < 0x7f && c != '"' && c != ',') {
            state = G_UNQUOTED;
            fb++;
        } else if (c == ',' && fb <= BSL_CSV_MAX_FIELD) {
            g->fields++;
            fb = 0;
            state = G_START;
            last_comma = i;
        } else {
            break;
        }
        i++;
    }
    if (i == start) return 0;
    if (last_comma != SIZE_MAX) { /* end_field's record of where the next field starts */
        g->field_quoted = 0;
        g->field_line = g->line;
        g->field_col = g->col + (last_comma - start) + 2;
    }
    g->col += i - start;
    g->line_bytes += i - start;
    g->field_bytes = fb;
    g->state = state;
    g->pos = i;
    g->prev_cr = 0;
    return 1;
}

/* Check text[g->pos, len), the bytes read so far (at_eof: no more will
 * come), until it ends or the guard stops. */
void bsl_csv_guard_feed(bsl_csv_guard *g, const char *text, size_t len, int at_eof)
{
    while (g->pos < len && !g->stopped) {
        const size_t i = g->pos;
        if (g->records > 0 && g->state <= G_UNQUOTED && body_run(g, text, len)) {
            check_limits(g);
            continue;
        }
        const size_t j = g->state == G_UNQUOTED && !g->tab_pending ? plain_run(text, i, len) : i;
        if (j > i) {
            g->col += j - i;
            g->line_bytes += j - i;
            g->field_bytes += j - i;
            g->pos = j;
            g->prev_cr = 0;
        } else if (guard_byte(g, text, i, len, at_eof)) {
            if (!g->stopped) g->pos = i + 1;
        } else {
            break;
        }
        if (!g->stopped) check_limits(g);
    }
}

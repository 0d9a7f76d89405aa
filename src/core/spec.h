/*
 * spec.h: the "NAME[:key=value[,key=value...]]" option syntax shared by
 * --basis, --prior and --model-prior. Parsing never fails silently: unknown
 * names and keys are errors that list what is accepted.
 */
#ifndef BSL_SPEC_H
#define BSL_SPEC_H

#include "core.h"

#define BSL_SPEC_MAXKV 8

typedef struct bsl_spec {
    char name[32];
    size_t nkv;
    char key[BSL_SPEC_MAXKV][32];
    char val[BSL_SPEC_MAXKV][64];
    unsigned used; /* bit i set once key i was read */
    char what[16]; /* "basis", "prior", ... for messages */
} bsl_spec;

/* Parse text into s. what names the option in messages. */
int bsl_spec_parse(bsl_spec *s, const char *what, const char *text, basel_error *err);
/* Read a numeric key (default def if absent) and check lo <= v <= hi. */
int bsl_spec_double(bsl_spec *s, const char *key, double def, double lo, double hi, double *out,
                    basel_error *err);
/* A comma-separated list of numbers ("r=0.5,1,2": a token without '='
 * continues the previous key's value), each in [lo, hi], at most cap of
 * them; *count = 0 if the key is absent. */
int bsl_spec_list(bsl_spec *s, const char *key, size_t cap, double lo, double hi, double *out, size_t *count,
                  basel_error *err);
/* The raw value of a key (marked read), NULL if absent. */
const char *bsl_spec_text(bsl_spec *s, const char *key);
/* 1 if the key is present. */
int bsl_spec_has(const bsl_spec *s, const char *key);
/* After reading every key the name accepts: any key not read is an error
 * listing the accepted ones (comma-separated in accepted, "" for none). */
int bsl_spec_finish(const bsl_spec *s, const char *accepted, basel_error *err);
/* Unknown name: an error listing the accepted names. */
int bsl_spec_unknown(const bsl_spec *s, const char *accepted, basel_error *err);

#endif

/*
 * test_capabilities.c: the texts that name the methods able to do
 * something come from the engine table's flags (issue 28 item 5):
 * basel_method_can agrees with the typed accessors and the table,
 * basel_method_list joins exactly those methods in table order, and every
 * option's help has its placeholders filled (catalogue.c).
 */
#include "check.h"
#include "engine/engine.h"

#include <basel.h>
#include <stdio.h>
#include <string.h>

static const char *const caps[] = {"checkpoint", "max-time", "draws", "factors", "stats", "coefficients",
                                   "scale-free", "mean-interval", "binomial", "poisson", "multinomial"};
#define NCAPS (sizeof caps / sizeof *caps)

/* the flag of e that capability c names, read off the struct here, not
 * through bsl_engine_can */
static int flag(const bsl_engine_def *e, const char *c)
{
    if (!strcmp(c, "checkpoint")) return e->checkpoints;
    if (!strcmp(c, "max-time")) return e->max_time;
    if (!strcmp(c, "draws")) return e->keeps_draws;
    if (!strcmp(c, "factors")) return e->groups_factors;
    if (!strcmp(c, "stats")) return e->design_only;
    if (!strcmp(c, "coefficients")) return e->coefficients;
    if (!strcmp(c, "scale-free")) return e->scale_free;
    if (!strcmp(c, "mean-interval")) return e->mean_interval;
    if (!strcmp(c, "binomial")) return e->binomial != NULL;
    if (!strcmp(c, "poisson")) return e->poisson != NULL;
    return e->multinomial != NULL;
}

int main(void)
{
    const size_t ne = basel_method_count();
    for (size_t c = 0; c < NCAPS; c++) {
        char want[512] = "", got[512];
        size_t k = 0;
        for (size_t i = 0; i < ne; i++) {
            const bsl_engine_def *e = bsl_engine_at(i);
            CHECK(basel_method_can(e->name, caps[c]) == (flag(e, caps[c]) != 0), "%s can %s: %d, its flag %d",
                  e->name, caps[c], basel_method_can(e->name, caps[c]), flag(e, caps[c]));
            if (!flag(e, caps[c])) continue;
            if (k++) strcat(want, ", ");
            strcat(want, e->name);
        }
        basel_method_list(got, sizeof got, caps[c], NULL);
        CHECK(strcmp(got, want) == 0, "the methods that can %s: '%s', want '%s'", caps[c], got, want);
        CHECK(k > 0, "some method can %s", caps[c]);
    }
    /* the typed accessors are the same flags */
    for (size_t i = 0; i < ne; i++) {
        const char *m = bsl_engine_at(i)->name;
        CHECK(basel_method_can(m, "draws") == basel_method_keeps_draws(m), "%s: draws", m);
        CHECK(basel_method_can(m, "mean-interval") == basel_method_mean_interval(m), "%s: mean-interval", m);
        CHECK(basel_method_can(m, "factors") == basel_method_groups_factors(m, "linear"), "%s: factors", m);
        CHECK(basel_method_can(m, "poisson") == basel_method_has_family(m, "poisson"), "%s: poisson", m);
    }
    CHECK(!basel_method_can("bd", "nosuch") && !basel_method_can("nosuch", "draws") && !basel_method_can(NULL, "draws") &&
              !basel_method_can("bd", NULL),
          "unknown methods and capabilities cannot");

    /* joined with a last word, and truncated to the buffer */
    char buf[64];
    CHECK(!strcmp(basel_method_list(buf, sizeof buf, "coefficients", "and"), "enumerate, bd, rj and ssvs"),
          "'and' before the last: '%s'", buf);
    CHECK(!strcmp(basel_method_list(buf, sizeof buf, "multinomial", "or"), "enumerate or rj"), "two: '%s'", buf);
    CHECK(!strcmp(basel_method_list(buf, sizeof buf, "nosuch", "and"), ""), "none: '%s'", buf);
    CHECK(!strcmp(basel_method_list(buf, 8, "coefficients", NULL), "enumera"), "truncated: '%s'", buf);

    /* every option's help text is filled in: no placeholder is left, and
     * the texts that name methods name the table's */
    for (size_t i = 0; i < basel_options_count(); i++) {
        const char *name, *help;
        CHECK(basel_options_describe(i, &name, &help) == BASEL_OK && help && !strchr(help, '@'),
              "option %zu's help has no placeholder left: %s", i, help ? help : "(null)");
    }
    /* --prior's help lists every entry of the prior table (@priors@): a
     * prior added to the table needs no edit of the catalogue */
    for (size_t i = 0; i < basel_options_count(); i++) {
        const char *name, *help;
        basel_options_describe(i, &name, &help);
        if (strcmp(name, "prior")) continue;
        for (size_t t = 0; t < basel_prior_count(); t++) {
            char spaced[64];
            snprintf(spaced, sizeof spaced, " %s", basel_prior_name(t));
            CHECK(strstr(help, spaced) != NULL, "--prior's help names the prior '%s'", basel_prior_name(t));
        }
    }
    struct {
        const char *option, *capability;
    } named[] = {{"checkpoint", "checkpoint"}, {"max-time", "max-time"}, {"inputs", "factors"},
                 {"family", "binomial"},       {"family", "poisson"},   {"family", "multinomial"}};
    for (size_t j = 0; j < sizeof named / sizeof *named; j++) {
        char list[256];
        basel_method_list(list, sizeof list, named[j].capability, NULL);
        int found = 0;
        for (size_t i = 0; i < basel_options_count(); i++) {
            const char *name, *help;
            basel_options_describe(i, &name, &help);
            if (!strcmp(name, named[j].option)) found = strstr(help, list) != NULL;
        }
        CHECK(found, "--%s's help names the methods that can %s (%s)", named[j].option, named[j].capability, list);
    }
    return check_report("test_capabilities");
}

/* prior.c: priors over active sets (prior.h). */
#include "prior.h"

#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <string.h>

static const char *const names[] = {"uniform", "poisson", "bernoulli", "beta-binomial"};

int bsl_mprior_parse(bsl_mprior *mp, const char *text, size_t m, basel_error *err)
{
    memset(mp, 0, sizeof *mp);
    mp->m = m;
    mp->kmax = m;
    bsl_spec s;
    int rc = bsl_spec_parse(&s, "model-prior", text && *text ? text : "uniform", err);
    if (rc) return rc;
    int kind = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(s.name, names[i]) == 0) kind = i;
    if (kind < 0) return bsl_spec_unknown(&s, BSL_MPRIOR_NAMES, err);
    mp->kind = (bsl_mprior_kind)kind;
    const char *accepted = "";
    switch (mp->kind) {
    case BSL_MPRIOR_POISSON:
        accepted = "mean";
        rc = bsl_spec_double(&s, "mean", 3.0, 1e-6, 1e6, &mp->mean, err);
        break;
    case BSL_MPRIOR_BERNOULLI:
        accepted = "p";
        rc = bsl_spec_double(&s, "p", 0.5, 1e-12, 1 - 1e-12, &mp->p, err);
        break;
    case BSL_MPRIOR_BETABIN:
        accepted = "a, b";
        rc = bsl_spec_double(&s, "a", 1.0, 1e-6, 1e6, &mp->a, err);
        if (!rc) rc = bsl_spec_double(&s, "b", 1.0, 1e-6, 1e6, &mp->b, err);
        break;
    case BSL_MPRIOR_UNIFORM: break;
    }
    if (rc) return rc;
    return bsl_spec_finish(&s, accepted, err);
}

double bsl_mprior_log(const bsl_mprior *mp, size_t k)
{
    if (k < mp->kmin || k > mp->kmax) return -INFINITY;
    const double kk = (double)k, mm = (double)mp->m;
    switch (mp->kind) {
    case BSL_MPRIOR_POISSON:
        return kk * log(mp->mean) - gsl_sf_lnfact((unsigned)k) - gsl_sf_lnchoose((unsigned)mp->m, (unsigned)k);
    case BSL_MPRIOR_BERNOULLI: return kk * log(mp->p) + (mm - kk) * log1p(-mp->p);
    case BSL_MPRIOR_BETABIN:
        return gsl_sf_lnbeta(mp->a + kk, mp->b + mm - kk) - gsl_sf_lnbeta(mp->a, mp->b);
    case BSL_MPRIOR_UNIFORM: break;
    }
    return 0.0;
}

void bsl_mprior_describe(const bsl_mprior *mp, char *buf, size_t len)
{
    switch (mp->kind) {
    case BSL_MPRIOR_POISSON: snprintf(buf, len, "poisson:mean=%g", mp->mean); break;
    case BSL_MPRIOR_BERNOULLI: snprintf(buf, len, "bernoulli:p=%g", mp->p); break;
    case BSL_MPRIOR_BETABIN: snprintf(buf, len, "beta-binomial:a=%g,b=%g", mp->a, mp->b); break;
    case BSL_MPRIOR_UNIFORM: snprintf(buf, len, "uniform"); break;
    }
}

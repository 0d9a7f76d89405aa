/*
 * engines.c: the engines whose results are not subsets of a fixed
 * dictionary (mixture classifier, sequential Monte Carlo, RBF networks with
 * free centres): each turns its result into the fit document and predicts
 * from it. Until an engine is linked in, its method is refused with a clear
 * message.
 */
#include "fit.h"
#include "problem.h"

#include <string.h>

int bsl_fit_engine(json_t *doc, const bsl_problem *P, const basel_options *o, basel_error *err)
{
    (void)doc;
    (void)o;
    return bsl_fail(err, BASEL_EINVAL, "--method %s is not available in this build", P->method);
}

int bsl_engine_predict(const json_t *doc, const double *X, size_t n, size_t d, double level,
                       basel_pred *p, basel_error *err)
{
    (void)X;
    (void)n;
    (void)d;
    (void)level;
    (void)p;
    const char *m = json_string_value(json_object_get(doc, "method"));
    return bsl_fail(err, BASEL_EINVAL, "fits of --method %s cannot predict in this build", m ? m : "?");
}

/* pending.c: the rj and ssvs entry points until their engines land (they
 * are refused with a clear message, never faked). Delete with their arrival. */
#include "sampler.h"

int bsl_rj_run(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res, basel_error *err)
{
    (void)pb, (void)run, (void)res;
    return bsl_fail(err, BASEL_EINVAL, "--method rj is not available in this build yet");
}

int bsl_ssvs_run(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res, basel_error *err)
{
    (void)pb, (void)run, (void)res;
    return bsl_fail(err, BASEL_EINVAL, "--method ssvs is not available in this build yet");
}

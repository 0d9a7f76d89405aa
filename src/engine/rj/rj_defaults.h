/*
 * rj_defaults.h: the numbers behind rj's informed-move defaults, in one
 * place for the code that applies them (rj_engine.c, rj_informed.c) and the
 * help that states them (engine/options.c). Why each value: rj_engine.c
 * (run length) and rj_informed.c (the switch to informed moves).
 */
#ifndef BSL_RJ_DEFAULTS_H
#define BSL_RJ_DEFAULTS_H

/* inputs above which --proposal auto is informed */
#define BSL_RJ_INFORMED_ABOVE 1000
/* informed moves' default --iter and --burn, whatever p */
#define BSL_RJ_INFORMED_ITER 10000
#define BSL_RJ_INFORMED_BURN 400

#define BSL_RJ_STR_(x) #x
#define BSL_RJ_STR(x) BSL_RJ_STR_(x)

#endif

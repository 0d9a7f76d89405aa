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

/* --rj-pairs auto keeps at most this many pairs, and a pair move is tried
 * with probability BSL_RJ_PAIR_RATE at each move (burn-in included) when the
 * chain has pairs. */
#define BSL_RJ_PAIRS_MAX 32
#define BSL_RJ_PAIR_RATE 0.1
/* --rj-pair-window's default: atoms at most this far apart in column
 * order form a pair (a .bed's variants are in genome order, and LD is
 * local) */
#define BSL_RJ_PAIR_WINDOW 10

#define BSL_RJ_STR_(x) #x
#define BSL_RJ_STR(x) BSL_RJ_STR_(x)

#endif

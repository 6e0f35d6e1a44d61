/*
 * tools/bench_stats.h - what tgc calibrate's micro-benchmarks (calib_mpi.c) and the
 * benchmark programs of bench/ (bench_bfco, bench_eval, bench_scale) take of repeated
 * measurements: their median (the CPU time they measure is ir_cpu_seconds: the machine
 * may be shared, wall time is not a measure).  Here, not in bench/, because calib_mpi
 * is part of tgc calibrate; bench/ sits above tools/.
 */
#ifndef TGC_BENCH_STATS_H
#define TGC_BENCH_STATS_H

/* The median of v[0..n-1], n >= 1 (the mean of the middle two when n is even); sorts v.
 */
double bench_median(double *v, int n);

#endif

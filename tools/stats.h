/*
 * tools/stats.h - what tgc calibrate (cmd_calibrate.c, its micro-benchmarks calib_mpi.c)
 * and the benchmark programs of bench/ (bench_bfco, bench_eval, bench_scale) take of
 * repeated measurements: their median (the CPU time the benchmarks measure is
 * ir_cpu_seconds: the machine may be shared, wall time is not a measure).  Here, not in
 * bench/, because tgc calibrate uses it; bench/ sits above tools/.
 */
#ifndef TGC_STATS_H
#define TGC_STATS_H

/* The median of v[0..n-1], n >= 1 (the mean of the middle two when n is even); sorts v.
 */
double stats_median(double *v, int n);

#endif

#!/usr/bin/env bash
# Final GPU call of session 7, on the shipped policy: every GPU test, stress, sanitizers, compute_80,
# then the issue-#22 benchmark table, the tune variants twice, traces and small-n latency twice.
set -u
a=$OUT/a; b=$OUT/b; mkdir -p $a $b
timeout 330 env RS_TOTAL_S=320 RS_TEST_TIMEOUT=120 RS_STRESS_SECONDS=90 RS_SANITIZE_S=40 scripts/gpu_session.sh run $a > $a/console.txt 2>&1
grep -E "rc=[1-9]|reports|^stress:" $a/summary.txt; grep -cE "rc=0 " $a/summary.txt
timeout 240 env RS_BENCH_S=100 RS_BENCH_REPS=3 RS_TUNE_REPS=7 scripts/gpu_session.sh speed $b > $b/console.txt 2>&1
export LD_LIBRARY_PATH=$PWD/.gpu/lib
timeout 40 .gpu/bin/ringsweep_tune 28 3 trace_u32,trace_pairs,trace_u64 > $b/trace_2e28.txt 2>&1
for run in a b; do for lg in 14 16 18 20; do
  timeout 20 .gpu/bin/ringsweep_tune $lg 25 latency_u32,latency_pairs,latency_u64 > $b/latency_${run}_2e$lg.txt 2>&1
done; done
for lg in 14 16 18 20; do python3 bench/tune_summary.py $b/latency_a_2e$lg.txt $b/latency_b_2e$lg.txt > $b/latency_verdicts_2e$lg.txt 2>&1; done
grep -hE "^[a-z]|old sm90 \(|cub  " $b/tune_verdicts_2e28.txt | grep -v "^  [a-z_0-9 H./]*n=2" | cut -c1-140
grep -hE "^[a-z]|serial|old sm90 \(" $b/latency_verdicts_2e*.txt | grep -v "^  [a-z_0-9 H./]*n=2" | cut -c1-140
cd $OUT && tar czf final.tgz a b && cp b/bench.json bench.json && rm -rf a b

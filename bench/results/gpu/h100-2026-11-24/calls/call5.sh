#!/usr/bin/env bash
# Third GPU call of session 7: the spill-free per-sort variants twice, traces, dependent launch at small n twice.
set -u
export LD_LIBRARY_PATH=$PWD/.gpu/lib
r=$OUT/r; mkdir -p $r
T=.dbg/ringsweep_tune
cases=keys_u32,keys_i32,keys_f32,pairs_u32,lowent_u32,keys_u64,pairs_u64
for run in a b; do for lg in 24 28; do
  timeout 120 $T $lg 7 $cases > $r/tune3_${run}_2e$lg.txt 2>&1; echo "tune $run 2^$lg rc=$?"
done; done
timeout 120 $T 28 3 trace_u32,trace_pairs,trace_u64 > $r/trace3_2e28.txt 2>&1; echo "trace rc=$?"
for run in a b; do for lg in 14 16 18 20; do
  timeout 60 $T $lg 25 latency_u32,latency_pairs,latency_u64 > $r/latency_${run}_2e$lg.txt 2>&1
done; done
for lg in 24 28; do python3 bench/tune_summary.py $r/tune3_a_2e$lg.txt $r/tune3_b_2e$lg.txt > $r/verdicts3_2e$lg.txt 2>&1; done
for lg in 14 16 18 20; do python3 bench/tune_summary.py $r/latency_a_2e$lg.txt $r/latency_b_2e$lg.txt > $r/latency_verdicts_2e$lg.txt 2>&1; done
grep -hE "^[a-z]|min2 per_sort|policy_sm90 +[0-9]|policy_sm90 W4|\(min3\)|384x24 L512|384x15 \(8" $r/verdicts3_2e28.txt $r/verdicts3_2e24.txt | grep -v "^  [a-z_0-9 H./]*n=2" | cut -c1-150
grep -hE "^[a-z]|dependent" $r/latency_verdicts_2e*.txt | grep -v "^  [a-z_0-9 H./]*n=2" | cut -c1-150
cd $OUT && tar czf r5.tgz r && rm -rf r

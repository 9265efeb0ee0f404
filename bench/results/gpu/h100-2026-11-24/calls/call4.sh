#!/usr/bin/env bash
# Second GPU call of session 7: the fixed tests, initcheck, stress, the per-sort tune variants twice, traces, latency.
set -u
tar -C .gpu -xzf .gpu/pack.tar.gz
export LD_LIBRARY_PATH=$PWD/.gpu/lib
r=$OUT/r; mkdir -p $r
for t in warp_vector_load_test_gpu simt_execution_gpu simt_cooperative_groups_gpu simt_dependent_launch_gpu sort_api_test_gpu; do
  timeout 120 .gpu/bin/$t > $r/t_$t.log 2>&1; echo "$t rc=$? $(tail -n 2 $r/t_$t.log | tr '\n' ' ')"
done
timeout 90 compute-sanitizer --tool initcheck --error-exitcode 99 .gpu/bin/sort_api_test_gpu "[api]" > $r/initcheck.log 2>&1
echo "initcheck rc=$? $(grep -c '^========= [A-Z]' $r/initcheck.log) lines; $(grep 'ERROR SUMMARY' $r/initcheck.log)"
RINGSWEEP_STRESS_SECONDS=${STRESS_S:-100} timeout 220 .gpu/bin/stress_test_gpu > $r/stress.log 2>&1
echo "stress rc=$?"; grep -E "^stress:|FAILED" $r/stress.log | head -n 12
cases=keys_u32,keys_i32,keys_f32,pairs_u32,lowent_u32,keys_u64,pairs_u64
for run in a b; do for lg in 24 28; do
  timeout 120 .gpu/bin/ringsweep_tune $lg 7 $cases > $r/tune2_${run}_2e$lg.txt 2>&1; echo "tune $run 2^$lg rc=$?"
done; done
timeout 120 .gpu/bin/ringsweep_tune 28 3 trace_u32,trace_pairs,trace_u64 > $r/trace_2e28.txt 2>&1; echo "trace rc=$?"
for lg in 12 16 20; do timeout 60 .gpu/bin/ringsweep_tune $lg 25 latency_u32,latency_pairs,latency_u64 > $r/latency_2e$lg.txt 2>&1; done
for lg in 24 28; do python3 bench/tune_summary.py $r/tune2_a_2e$lg.txt $r/tune2_b_2e$lg.txt > $r/verdicts2_2e$lg.txt 2>&1; done
grep -E "per_sort|^[a-z]" $r/verdicts2_2e28.txt | grep -E "^[a-z]|per_sort|policy_sm90 +[0-9]|min3 per type ring396 T6 W2|384x15 ring264" | cut -c1-150
cd $OUT && tar czf r4.tgz r && rm -rf r

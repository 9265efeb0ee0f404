#!/usr/bin/env bash
# Last GPU check of session 7 (commit 25cfabf): the sort tests, stress and the short-key tune on the final policy.
set -u
export LD_LIBRARY_PATH=$PWD/.dbg/lib
r=$OUT/r; mkdir -p $r
for t in sort_api_test_gpu sort_variants_test_gpu cub_api_test_gpu decomposer_test_gpu graph_capture_test_gpu; do
  timeout 120 .dbg/bin/$t > $r/t_$t.log 2>&1; echo "$t rc=$? $(tail -n 2 $r/t_$t.log | tr '\n' ' ')"
done
RINGSWEEP_STRESS_SECONDS=60 timeout 150 .dbg/bin/stress_test_gpu > $r/stress.log 2>&1; echo "stress rc=$?"; grep -E "^stress:|FAILED" $r/stress.log | head -5
for run in a b; do timeout 60 .dbg/bin/ringsweep_tune 28 7 keys_u16,keys_u8 > $r/short_${run}_2e28.txt 2>&1; done
python3 bench/tune_summary.py $r/short_a_2e28.txt $r/short_b_2e28.txt | grep -E "^[a-z]|cub  |policy_sm90 |old" | cut -c1-130
timeout 120 .dbg/bin/ringsweep_sort_bench --benchmark_filter='^keys/(u32|u64)/entropy:1\.000/n:(65536|16777216|268435456)/' --benchmark_min_time=0.05 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>&1 | grep median | awk '{print $1, $2}'

#!/usr/bin/env python3
"""torch.topk(sorted=True) on the batched top-k benchmark's shapes (bench/top_k_bench.cu's
`batched_top_k` rows): a batch of rows of logits, the k largest of each with their positions.

Each row: logits uniform in [-16, 16) on a grid of 2^-16 (as the benchmark's), f32 or bf16, on the
current CUDA device; one call checked once against torch.sort(descending=True, stable=True) (the
values, and that each returned position holds its value: torch.topk promises no order among ties);
then timed by CUDA events around single calls, an L2-sized buffer overwritten before each, the
median of `--reps` runs. Rows are named as the benchmark's, with `torch` as the method, and written
as Google Benchmark JSON (`--out`) so that bench/compare.py reads them beside the benchmark's.

    python3 bench/top_k_torch.py --filter 'f32/rows:(8|256)/row:131072/' --out torch.json

Without PyTorch or a CUDA device it prints why and exits 0 (nothing to time).
"""
import argparse
import json
import re
import statistics
import sys

ROWS = [1, 8, 64, 256]
ROW = [32768, 131072, 262144]
KS = [1, 50, 1024]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--filter", default="", help="a regular expression on the row names (after batched_top_k/)")
    ap.add_argument("--reps", type=int, default=20, help="timed calls per row (the median is reported)")
    ap.add_argument("--out", help="Google Benchmark JSON file to write")
    args = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("top_k_torch: PyTorch is not installed; nothing to time")
        return 0
    if not torch.cuda.is_available():
        print("top_k_torch: no CUDA device; nothing to time")
        return 0
    dev = torch.device("cuda")
    pattern = re.compile(args.filter)
    l2 = torch.cuda.get_device_properties(dev).L2_cache_size
    flush = torch.empty(max(2 * l2, 1 << 20), dtype=torch.uint8, device=dev)
    rows_out = []
    for dtype, tname in ((torch.float32, "f32"), (torch.bfloat16, "bf16")):
        for rows in ROWS:
            for row in ROW:
                for k in KS:
                    name = "batched_top_k/%s/rows:%d/row:%d/k:%d/torch" % (tname, rows, row, k)
                    if not pattern.search(name[len("batched_top_k/"):]):
                        continue
                    gen = torch.Generator(device=dev)
                    gen.manual_seed(rows * row + k)
                    grid = torch.randint(0, 1 << 21, (rows, row), device=dev, generator=gen, dtype=torch.int64)
                    x = (grid.to(torch.float32) / 65536.0 - 16.0).to(dtype)
                    values, indices = torch.topk(x, k, dim=-1, largest=True, sorted=True)
                    want, want_idx = torch.sort(x, dim=-1, descending=True, stable=True)
                    ok = torch.equal(values, want[:, :k])
                    ok = ok and torch.equal(torch.gather(x, 1, indices), values)
                    if not ok:
                        print("top_k_torch: %s: wrong result" % name, file=sys.stderr)
                        return 1
                    del want, want_idx
                    times = []
                    start = torch.cuda.Event(enable_timing=True)
                    stop = torch.cuda.Event(enable_timing=True)
                    for _ in range(args.reps):
                        flush.zero_()
                        start.record()
                        torch.topk(x, k, dim=-1, largest=True, sorted=True)
                        stop.record()
                        stop.synchronize()
                        times.append(start.elapsed_time(stop) * 1000.0)  # microseconds
                    med = statistics.median(times)
                    print("%-60s %10.2f us" % (name, med), flush=True)
                    rows_out.append({"name": name, "run_name": name, "run_type": "iteration", "iterations": len(times),
                                     "real_time": med, "cpu_time": med, "time_unit": "us",
                                     "bytes_per_second": rows * row * x.element_size() / (med * 1e-6),
                                     "label": "torch"})
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"context": {"device": torch.cuda.get_device_name(dev), "torch": torch.__version__},
                       "benchmarks": rows_out}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

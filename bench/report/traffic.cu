// Global key/value traffic of a full ringsweep sort, counted on the SIMT backend: every global
// key/value load and store of the library's load/store helpers is reported through
// __simt_trace_global, and the backend sums bytes and distinct 32-byte sectors per warp-wide access
// for each kernel (ringsweep_simt/control.hpp).
//
//     traffic [--n N] [--cases keys_u32,pairs_u32_u32] [--entropy 1.0,0.201] [--seed S]
//
// Prints CSV, one row per (case, entropy, kernel):
//   case,entropy,n,sorted,kernel,launches,load_bytes,store_bytes,load_sectors,store_sectors,
//   load_accesses,store_accesses,whole_run_sectors
// `sorted` is 1 when the output was checked against std::stable_sort of the same keys.
// `whole_run_sectors` (onesweep rows only) is the fewest 32-byte sectors any scatter could store
// for the same tiles: each tile's run of each digit written as one piece, so a sector is split
// only where runs meet; the scatter's sector efficiency cannot exceed store_bytes over 32 times it.
// The sort runs through the public in/out API, so it uses the policy of the SIMT device
// (compute capability 9.0: policy_sm90).

#include <ringsweep/ringsweep.cuh>
#include <ringsweep_simt/control.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../common/keygen.cuh"

namespace {

using u32 = std::uint32_t;

struct options {
  std::size_t n = std::size_t(1) << 22;
  std::vector<std::string> cases{"keys_u32", "pairs_u32_u32"};
  std::vector<double> entropies{1.0, 0.201};
  std::uint64_t seed = 42;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= s.size()) {
    const std::size_t comma = s.find(',', at);
    const std::size_t end = comma == std::string::npos ? s.size() : comma;
    if (end > at) out.push_back(s.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

[[noreturn]] void usage() {
  std::fprintf(stderr, "usage: traffic [--n N] [--cases keys_u32,pairs_u32_u32] [--entropy 1.0,0.201] [--seed S]\n");
  std::exit(2);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) usage();
    const std::string v = argv[++i];
    if (a == "--n") {
      o.n = std::strtoull(v.c_str(), nullptr, 0);
    } else if (a == "--cases") {
      o.cases = split(v);
    } else if (a == "--entropy") {
      o.entropies.clear();
      for (const std::string& e : split(v)) o.entropies.push_back(std::strtod(e.c_str(), nullptr));
    } else if (a == "--seed") {
      o.seed = std::strtoull(v.c_str(), nullptr, 0);
    } else {
      usage();
    }
  }
  for (double e : o.entropies) {
    if (bench::and_words_for_entropy(e) == 0) {
      std::fprintf(stderr, "traffic: entropy %g is not one of 1.0, 0.811, 0.544, 0.337, 0.201\n", e);
      std::exit(2);
    }
  }
  return o;
}

bool check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::fprintf(stderr, "traffic: %s failed: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

template <class T>
T* device_copy(const std::vector<T>& h) {
  T* d = nullptr;
  if (!check(cudaMalloc(&d, h.size() * sizeof(T)), "cudaMalloc")) std::exit(1);
  if (!check(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy")) std::exit(1);
  return d;
}

template <class T>
std::vector<T> host_copy(const T* d, std::size_t n) {
  std::vector<T> h(n);
  if (!check(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy")) std::exit(1);
  return h;
}

/// Sectors stored by the onesweep passes (4-byte keys, 8-bit digits, `tile` keys per tile, outputs
/// 32-byte aligned) if every tile wrote each of its digit runs in whole: a run of `r` keys starting
/// at output index `g` covers sectors `g / 8 .. (g + r - 1) / 8`. Replays the LSD passes on the host.
unsigned long long whole_run_sectors(std::vector<u32> keys, std::size_t tile) {
  const std::size_t n = keys.size();
  std::vector<u32> next(n);
  unsigned long long sectors = 0;
  for (int shift = 0; shift < 32; shift += 8) {
    std::size_t offset[256] = {};
    for (u32 k : keys) ++offset[(k >> shift) & 255u];
    std::size_t sum = 0;
    for (std::size_t& o : offset) {
      const std::size_t c = o;
      o = sum;
      sum += c;
    }
    for (std::size_t first = 0; first < n; first += tile) {
      const std::size_t last = std::min(n, first + tile);
      std::size_t count[256] = {};
      for (std::size_t i = first; i < last; ++i) ++count[(keys[i] >> shift) & 255u];
      for (int d = 0; d < 256; ++d) {
        if (count[d] != 0) sectors += (offset[d] + count[d] - 1) / 8 - offset[d] / 8 + 1;
      }
      for (std::size_t i = first; i < last; ++i) next[offset[(keys[i] >> shift) & 255u]++] = keys[i];
    }
    keys.swap(next);
  }
  return sectors;
}

/// One traced sort of u32 keys (with u32 values when `pairs`); prints its per-kernel rows.
bool run_case(const options& o, const std::string& name, bool pairs, double entropy) {
  const int words = bench::and_words_for_entropy(entropy);
  std::vector<u32> keys(o.n), values;
  for (std::size_t i = 0; i < o.n; ++i) keys[i] = bench::random_value<u32>(o.seed, i, words);
  if (pairs) {
    values.resize(o.n);
    for (std::size_t i = 0; i < o.n; ++i) values[i] = u32(i);
  }
  u32* d_keys_in = device_copy(keys);
  u32* d_keys_out = device_copy(keys);
  u32* d_values_in = pairs ? device_copy(values) : nullptr;
  u32* d_values_out = pairs ? device_copy(values) : nullptr;

  std::size_t temp_bytes = 0;
  cudaError_t e = pairs ? ringsweep::sort_pairs<u32, u32>(nullptr, temp_bytes, d_keys_in, d_keys_out, d_values_in,
                                                          d_values_out, o.n)
                        : ringsweep::sort_keys<u32>(nullptr, temp_bytes, d_keys_in, d_keys_out, o.n);
  if (!check(e, "size query")) return false;
  void* d_temp = nullptr;
  if (!check(cudaMalloc(&d_temp, temp_bytes), "cudaMalloc temp")) return false;
  if (!check(cudaDeviceSynchronize(), "cudaDeviceSynchronize")) return false;

  simt::traffic_begin();
  e = pairs ? ringsweep::sort_pairs<u32, u32>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,
                                              o.n)
            : ringsweep::sort_keys<u32>(d_temp, temp_bytes, d_keys_in, d_keys_out, o.n);
  const cudaError_t sync = cudaDeviceSynchronize();
  const std::vector<simt::kernel_traffic> traffic = simt::traffic_end();
  if (!check(e, "sort") || !check(sync, "sort (synchronize)")) return false;

  // Reference: a stable sort of the indices by key.
  std::vector<u32> order(o.n);
  for (std::size_t i = 0; i < o.n; ++i) order[i] = u32(i);
  std::stable_sort(order.begin(), order.end(), [&](u32 a, u32 b) { return keys[a] < keys[b]; });
  const std::vector<u32> got_keys = host_copy(d_keys_out, o.n);
  bool sorted = true;
  for (std::size_t i = 0; i < o.n && sorted; ++i) sorted = got_keys[i] == keys[order[i]];
  if (pairs && sorted) {
    const std::vector<u32> got_values = host_copy(d_values_out, o.n);
    for (std::size_t i = 0; i < o.n && sorted; ++i) sorted = got_values[i] == values[order[i]];
  }
  if (!sorted) std::fprintf(stderr, "traffic: %s entropy %g: output is NOT sorted\n", name.c_str(), entropy);

  // The tile the public API used: policy_sm90's (the SIMT device reports compute capability 9.0).
  const std::size_t tile = pairs ? std::size_t(ringsweep::detail::tile_shape<ringsweep::policy_sm90, 4, 4>::TILE)
                                 : std::size_t(ringsweep::detail::tile_shape<ringsweep::policy_sm90, 4, 0>::TILE);
  const unsigned long long best = whole_run_sectors(keys, tile) * (pairs ? 2u : 1u);  // values: same runs
  for (const simt::kernel_traffic& k : traffic) {
    std::string kernel = k.kernel;
    for (char& c : kernel) {
      if (c == '"') c = '\'';
    }
    const bool onesweep = kernel.find("onesweep_kernel") != std::string::npos;
    std::printf("%s,%.3f,%zu,%d,\"%s\",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", name.c_str(), entropy, o.n,
                sorted ? 1 : 0, kernel.c_str(), k.launches, k.load_bytes, k.store_bytes, k.load_sectors,
                k.store_sectors, k.load_accesses, k.store_accesses, onesweep ? best : 0ull);
  }
  if (traffic.empty()) {
    // Nothing was reported: the library's helpers do not call __simt_trace_global (yet).
    std::printf("%s,%.3f,%zu,%d,\"(none)\",0,0,0,0,0,0,0,0\n", name.c_str(), entropy, o.n, sorted ? 1 : 0);
  }
  std::fflush(stdout);

  cudaFree(d_temp);
  cudaFree(d_keys_in);
  cudaFree(d_keys_out);
  if (pairs) {
    cudaFree(d_values_in);
    cudaFree(d_values_out);
  }
  return sorted;
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  std::printf(
      "case,entropy,n,sorted,kernel,launches,load_bytes,store_bytes,load_sectors,store_sectors,load_accesses,"
      "store_accesses,whole_run_sectors\n");
  bool ok = true;
  for (const std::string& c : o.cases) {
    bool pairs = false;
    if (c == "pairs_u32_u32") {
      pairs = true;
    } else if (c != "keys_u32") {
      std::fprintf(stderr, "traffic: unknown case %s (keys_u32, pairs_u32_u32)\n", c.c_str());
      return 2;
    }
    for (double e : o.entropies) ok = run_case(o, c, pairs, e) && ok;
  }
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

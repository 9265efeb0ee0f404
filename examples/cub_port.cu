// Porting a CUB program: the only change is which header and which namespace.
//
//     #include <ringsweep/cub.cuh>            // was: #include <cub/device/device_radix_sort.cuh>
//     namespace sortlib = ringsweep;          // was: namespace sortlib = cub;
//
// The program is the depth sort of 3D Gaussian Splatting's tile binning: every (Gaussian, tile)
// overlap becomes a 64-bit key, tile id in the high 32 bits and the depth's float bits in the low
// 32, with the Gaussian's index as a 32-bit value. Sorting the pairs on bits [0, 32 + 13) (there
// are fewer than 2^13 tiles) groups the overlaps by tile, each tile front to back. Then the same
// keys, descending (back to front), and the DoubleBuffer form, whose result is in `Current()`.
//
// Built three ways from this one source, each checking its own result on the host:
//   example_cub_port          the host compiler against ringsweep's CPU SIMT backend (ctest runs it)
//   example_cub_port_gpu      nvcc against ringsweep
//   example_cub_port_cub_gpu  nvcc with -DUSE_CUB, against CUB itself
// The nvcc builds exit with 77 ("skipped") when no CUDA device is present.

#ifdef USE_CUB
#include <cub/device/device_radix_sort.cuh>
namespace sortlib = cub;
#else
#include <ringsweep/cub.cuh>
namespace sortlib = ringsweep;
#endif

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#define CHECK(...)                                                                             \
  do {                                                                                         \
    const cudaError_t status_ = (__VA_ARGS__);                                                 \
    if (status_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s failed: %s\n", #__VA_ARGS__, cudaGetErrorString(status_));      \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (false)

using u32 = std::uint32_t;
using u64 = std::uint64_t;

namespace {

constexpr int tile_bits = 13;  // up to 8192 tiles
constexpr int end_bit = 32 + tile_bits;

/// The (tile, depth) overlaps of `gaussians` random Gaussians, each covering 1 to 4 tiles.
void make_overlaps(int gaussians, std::vector<u64>& keys, std::vector<u32>& ids) {
  std::mt19937 rng(2024);
  std::uniform_int_distribution<u32> tile(0, (1u << tile_bits) - 5);
  std::uniform_int_distribution<int> spread(1, 4);
  std::uniform_real_distribution<float> depth(0.2f, 100.0f);
  for (int g = 0; g < gaussians; ++g) {
    const float z = depth(rng);
    u32 z_bits;
    std::memcpy(&z_bits, &z, sizeof z_bits);  // positive floats order as their bits
    const u32 first = tile(rng);
    for (int t = spread(rng); t > 0; --t) {
      keys.push_back((u64(first + u32(t)) << 32) | z_bits);
      ids.push_back(u32(g));
    }
  }
}

/// The stable order of the overlaps by the key bits [0, end_bit), ascending or descending.
std::vector<std::size_t> expected_order(const std::vector<u64>& keys, bool descending) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  const u64 mask = (u64(1) << end_bit) - 1;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return descending ? (keys[a] & mask) > (keys[b] & mask) : (keys[a] & mask) < (keys[b] & mask);
  });
  return order;
}

bool check(const char* what, const std::vector<u64>& keys, const std::vector<u32>& ids, bool descending,
           const std::vector<u64>& got_keys, const std::vector<u32>& got_ids) {
  const std::vector<std::size_t> order = expected_order(keys, descending);
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (got_keys[i] != keys[order[i]] || got_ids[i] != ids[order[i]]) {
      std::printf("WRONG: %s, position %zu\n", what, i);
      return false;
    }
  }
  std::printf("%s: %zu overlaps in order\n", what, order.size());
  return true;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }

  std::vector<u64> keys;
  std::vector<u32> ids;
  make_overlaps(12000, keys, ids);
  const int num_items = int(keys.size());  // CUB programs often count in int

  u64 *d_keys, *d_keys_out;
  u32 *d_ids, *d_ids_out;
  CHECK(cudaMalloc(&d_keys, keys.size() * sizeof(u64)));
  CHECK(cudaMalloc(&d_keys_out, keys.size() * sizeof(u64)));
  CHECK(cudaMalloc(&d_ids, ids.size() * sizeof(u32)));
  CHECK(cudaMalloc(&d_ids_out, ids.size() * sizeof(u32)));
  CHECK(cudaMemcpy(d_keys, keys.data(), keys.size() * sizeof(u64), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ids, ids.data(), ids.size() * sizeof(u32), cudaMemcpyHostToDevice));

  // Size query, then one allocation large enough for every call below (the pointer forms need the
  // most: they add scratch of num_items keys and values).
  std::size_t temp_storage_bytes = 0;
  CHECK(sortlib::DeviceRadixSort::SortPairs(nullptr, temp_storage_bytes, d_keys, d_keys_out, d_ids, d_ids_out,
                                            num_items, 0, end_bit));
  void* d_temp_storage = nullptr;
  CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));

  std::vector<u64> got_keys(keys.size());
  std::vector<u32> got_ids(ids.size());
  const auto download = [&](const u64* k, const u32* v) {
    CHECK(cudaMemcpy(got_keys.data(), k, keys.size() * sizeof(u64), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got_ids.data(), v, ids.size() * sizeof(u32), cudaMemcpyDeviceToHost));
  };
  bool ok = true;

  // 1. Front to back within each tile.
  CHECK(sortlib::DeviceRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, d_keys, d_keys_out, d_ids,
                                            d_ids_out, num_items, 0, end_bit));
  download(d_keys_out, d_ids_out);
  ok = check("SortPairs, bits [0, 45)", keys, ids, false, got_keys, got_ids) && ok;

  // 2. Back to front.
  CHECK(sortlib::DeviceRadixSort::SortPairsDescending(d_temp_storage, temp_storage_bytes, d_keys, d_keys_out, d_ids,
                                                      d_ids_out, num_items, 0, end_bit));
  download(d_keys_out, d_ids_out);
  ok = check("SortPairsDescending, bits [0, 45)", keys, ids, true, got_keys, got_ids) && ok;

  // 3. DoubleBuffer: sorts in place through the two buffers; the result is wherever Current() says.
  sortlib::DoubleBuffer<u64> key_buffers(d_keys, d_keys_out);
  sortlib::DoubleBuffer<u32> id_buffers(d_ids, d_ids_out);
  CHECK(sortlib::DeviceRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, key_buffers, id_buffers, num_items, 0,
                                            end_bit));
  download(key_buffers.Current(), id_buffers.Current());
  ok = check("SortPairs (DoubleBuffer), bits [0, 45)", keys, ids, false, got_keys, got_ids) && ok;

  CHECK(cudaFree(d_temp_storage));
  CHECK(cudaFree(d_keys));
  CHECK(cudaFree(d_keys_out));
  CHECK(cudaFree(d_ids));
  CHECK(cudaFree(d_ids_out));
  std::printf(ok ? "cub_port: OK\n" : "cub_port: FAILED\n");
  return ok ? 0 : 1;
}

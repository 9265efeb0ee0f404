// Two-phase use: ask for the temporary storage once, allocate it once, and reuse it for many sorts
// queued on one stream with no host synchronisation between them; then capture a sort into a
// CUDA graph and replay it (on the SIMT backend too, which records and replays captures).
//
//     std::size_t bytes = 0;
//     ringsweep::sort_keys(nullptr, bytes, keys, n_max);         // query: writes only `bytes`
//     cudaMallocAsync(&d_temp, bytes, stream);                    // one allocation...
//     for (...) ringsweep::sort_keys(d_temp, bytes, keys, n, {}, stream);   // ...many sorts
//
// The double-buffer form is used: its temporary storage does not grow with n (about 2 MiB here),
// so the size asked for the largest batch serves every batch. A sort only queues work on its
// stream, so sorts that share one temporary allocation must be ordered, e.g. on one stream.
//
// Built for the CPU SIMT backend (example_two_phase, run by ctest) and by nvcc for a GPU
// (example_two_phase_gpu, which exits with 77, "skipped", when no CUDA device is present).

#include <ringsweep/ringsweep.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

using u64 = std::uint64_t;

namespace {

std::vector<u64> random_batch(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<u64> keys(n);
  for (u64& k : keys) k = rng() >> (seed % 40);  // some batches have fewer significant bits
  return keys;
}

bool check(const char* what, std::vector<u64> input, const u64* result) {
  std::sort(input.begin(), input.end());
  if (!std::equal(input.begin(), input.end(), result)) {
    std::printf("WRONG: %s is not the sorted input\n", what);
    return false;
  }
  return true;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }
  bool ok = true;

  // Batches of different sizes: one above a single tile, one small enough for the single-block
  // path, one empty.
  const std::size_t sizes[] = {150000, 70000, 3000, 0, 131072, 99999};
  const int batches = int(sizeof sizes / sizeof sizes[0]);
  const std::size_t n_max = *std::max_element(sizes, sizes + batches);

  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  // Device buffers for the largest batch; pinned host buffers so that copies are truly async.
  u64 *d_a, *d_b, *h_in, *h_out;
  CHECK(cudaMalloc(&d_a, n_max * sizeof(u64)));
  CHECK(cudaMalloc(&d_b, n_max * sizeof(u64)));
  CHECK(cudaMallocHost(&h_in, batches * n_max * sizeof(u64)));
  CHECK(cudaMallocHost(&h_out, batches * n_max * sizeof(u64)));

  // Phase 1: the size query. It reads no pointer and launches nothing.
  std::size_t temp_bytes = 0;
  {
    ringsweep::double_buffer<u64> probe(d_a, d_b);
    CHECK(ringsweep::sort_keys(nullptr, temp_bytes, probe, n_max));
  }
  void* d_temp = nullptr;
  CHECK(cudaMallocAsync(&d_temp, temp_bytes, stream));
  std::printf("temporary storage: %zu bytes, allocated once for %d sorts of up to %zu keys\n", temp_bytes, batches,
              n_max);

  // Phase 2: every batch is upload, sort, download, all queued on `stream`. The double buffer's
  // selector is set by the call itself (the number of passes is known on the host), so the host
  // knows where each result will be without waiting for the device.
  std::vector<std::vector<u64>> inputs;
  for (int b = 0; b < batches; ++b) {
    inputs.push_back(random_batch(sizes[b], unsigned(b + 1)));
    std::copy(inputs[b].begin(), inputs[b].end(), h_in + b * n_max);
  }
  for (int b = 0; b < batches; ++b) {
    const std::size_t n = sizes[b];
    CHECK(cudaMemcpyAsync(d_a, h_in + b * n_max, n * sizeof(u64), cudaMemcpyHostToDevice, stream));
    ringsweep::double_buffer<u64> keys(d_a, d_b);
    CHECK(ringsweep::sort_keys(d_temp, temp_bytes, keys, n, {}, stream));
    CHECK(cudaMemcpyAsync(h_out + b * n_max, keys.current(), n * sizeof(u64), cudaMemcpyDeviceToHost, stream));
  }
  CHECK(cudaStreamSynchronize(stream));  // the only wait
  for (int b = 0; b < batches; ++b) ok = check("a batch", inputs[b], h_out + b * n_max) && ok;
  std::printf("%d batches sorted with one temporary allocation: %s\n", batches, ok ? "OK" : "WRONG");

  // Phase 3: capture one sort into a graph. A sort only queues a memset and kernel launches on
  // its stream, so it can be captured. The graph replays exactly what was captured: the same
  // buffers, the same n, and the same result buffer, which the selector names right after the
  // capture. New data goes into the captured input buffer before each replay.
  {
    const std::size_t n = 150000;
    ringsweep::double_buffer<u64> keys(d_a, d_b);
    u64* const graph_in = keys.current();
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    CHECK(ringsweep::sort_keys(d_temp, temp_bytes, keys, n, {}, stream));
    CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    u64* const graph_out = keys.current();
    for (int replay = 0; replay < 3; ++replay) {
      const std::vector<u64> input = random_batch(n, unsigned(100 + replay));
      std::copy(input.begin(), input.end(), h_in);
      CHECK(cudaMemcpyAsync(graph_in, h_in, n * sizeof(u64), cudaMemcpyHostToDevice, stream));
      CHECK(cudaGraphLaunch(exec, stream));
      CHECK(cudaMemcpyAsync(h_out, graph_out, n * sizeof(u64), cudaMemcpyDeviceToHost, stream));
      CHECK(cudaStreamSynchronize(stream));
      ok = check("a graph replay", input, h_out) && ok;
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    std::printf("CUDA graph: one captured sort replayed 3 times: %s\n", ok ? "OK" : "WRONG");
  }

  CHECK(cudaFreeAsync(d_temp, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFreeHost(h_in));
  CHECK(cudaFreeHost(h_out));
  CHECK(cudaStreamDestroy(stream));
  return ok ? 0 : 1;
}

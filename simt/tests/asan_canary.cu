// Out-of-bounds kernels for the AddressSanitizer build (RINGSWEEP_SANITIZE=address_undefined):
// ctest expects ASan's report. The fibers' stacks are reused from block to block and only the
// frames a finished thread left are cleared (scheduler.cpp), so the faulty block runs after 191
// clean ones (two clean grids, then the rest of its own) on the same stacks: a read one past a thread's local array must still be a
// stack-buffer-overflow (`--stack`), one past the end of a cudaMalloc'd buffer a
// heap-buffer-overflow (`--heap`). With `--clean` every index is in bounds and nothing may be
// reported.
#include <cuda_runtime.h>
#include <ringsweep/device/launch.cuh>

#include <cstdio>
#include <cstring>

namespace {
constexpr unsigned k_blocks = 64, k_threads = 64, k_n = k_blocks * k_threads;

// Out of line, so that UBSan (whose bounds and object-size checks would report an overflow in the
// kernel itself first) cannot tell how large the array is; ASan checks the load against the
// redzones around the caller's frame.
__device__ __noinline__ int element(const int* array, int index) { return array[index]; }

// Thread (last block, lane 5) reads local[index]; every other thread local[7].
__global__ void local_array_kernel(int* out, int index) {
  int local[8];
  for (int i = 0; i < 8; ++i) local[i] = static_cast<int>(threadIdx.x) + i;
  const bool faulty = blockIdx.x == gridDim.x - 1 && threadIdx.x == 5;
  out[blockIdx.x * blockDim.x + threadIdx.x] = element(local, faulty ? index : 7);
}

// Thread (last block, lane 5) reads in[k_n - 1 + past]; every other thread its own element.
__global__ void global_array_kernel(const int* in, int* out, unsigned past) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool faulty = blockIdx.x == gridDim.x - 1 && threadIdx.x == 5;
  out[i] = in[faulty ? k_n - 1 + past : i];
}
}  // namespace

int main(int argc, char** argv) {
  bool clean = false, heap = false;
  for (int i = 1; i < argc; ++i) {
    clean = clean || std::strcmp(argv[i], "--clean") == 0;
    heap = heap || std::strcmp(argv[i], "--heap") == 0;
  }
  int* in = nullptr;
  int* out = nullptr;
  if (cudaMalloc(&in, k_n * sizeof(int)) != cudaSuccess || cudaMalloc(&out, k_n * sizeof(int)) != cudaSuccess) return 2;
  if (cudaMemset(in, 0, k_n * sizeof(int)) != cudaSuccess) return 2;
  using ringsweep::detail::launch;
  using ringsweep::detail::launch_order;
  // Clean grids first: the stacks and fibers of the faulty launch have run many blocks before.
  cudaError_t e = launch(local_array_kernel, k_blocks, k_threads, 0, launch_order::serial, out, 7);
  if (e == cudaSuccess) e = launch(global_array_kernel, k_blocks, k_threads, 0, launch_order::serial, in, out, 0u);
  if (e == cudaSuccess) {
    e = heap ? launch(global_array_kernel, k_blocks, k_threads, 0, launch_order::serial, in, out, clean ? 0u : 1u)
             : launch(local_array_kernel, k_blocks, k_threads, 0, launch_order::serial, out, clean ? 7 : 8);
  }
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) return 2;
  cudaFree(in);
  cudaFree(out);
  std::printf("asan canary (%s, %s): no report\n", heap ? "global memory" : "local array",
              clean ? "in bounds" : "one past the end");
  return 0;
}

// Several sorts at once: on different streams with different temp buffers, from several host
// threads; and one temp buffer reused back to back on one stream. Runs on both backends.
#include <catch2/catch.hpp>

#include <algorithm>
#include <thread>
#include <vector>

#include "robustness_util.cuh"

using ringsweep_test::device_buffer;

namespace {

// Sorts `keys` with the public two-phase in/out form on `stream`; the result is compared by the
// caller. `temp` must hold temp_bytes.
cudaError_t sort_on(cudaStream_t stream, void* temp, std::size_t temp_bytes, const std::uint32_t* in,
                    std::uint32_t* out, std::size_t n) {
  return ringsweep::sort_keys(temp, temp_bytes, in, out, n, {}, stream);
}

std::size_t temp_for(std::size_t n) {
  std::size_t bytes = 0;
  REQUIRE(ringsweep::sort_keys<std::uint32_t>(nullptr, bytes, nullptr, nullptr, n) == cudaSuccess);
  return bytes;
}

std::vector<std::uint32_t> sorted(std::vector<std::uint32_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("sorts on several streams from several host threads", "[concurrency]") {
  constexpr int k_threads = 4;
  const std::size_t sizes[k_threads] = {5000, 20000, 777, 65536 + 3};
  std::vector<std::vector<std::uint32_t>> inputs, outputs(k_threads);
  for (int t = 0; t < k_threads; ++t) inputs.push_back(ringsweep_test::random_keys<std::uint32_t>(sizes[t], 40 + t));
  std::vector<cudaError_t> status(k_threads, cudaErrorUnknown);
  std::vector<std::thread> threads;
  for (int t = 0; t < k_threads; ++t) {
    threads.emplace_back([&, t] {
      const std::size_t n = sizes[t];
      std::size_t bytes = 0;
      cudaStream_t s = nullptr;
      void *temp = nullptr, *in = nullptr, *out = nullptr;
      cudaError_t e = ringsweep::sort_keys<std::uint32_t>(nullptr, bytes, nullptr, nullptr, n);
      if (e == cudaSuccess) e = cudaStreamCreate(&s);
      if (e == cudaSuccess) e = cudaMalloc(&temp, bytes);
      if (e == cudaSuccess) e = cudaMalloc(&in, n * 4);
      if (e == cudaSuccess) e = cudaMalloc(&out, n * 4);
      if (e == cudaSuccess) e = cudaMemcpyAsync(in, inputs[t].data(), n * 4, cudaMemcpyHostToDevice, s);
      for (int round = 0; round < 3 && e == cudaSuccess; ++round)
        e = sort_on(s, temp, bytes, static_cast<std::uint32_t*>(in), static_cast<std::uint32_t*>(out), n);
      outputs[t].resize(n);
      if (e == cudaSuccess) e = cudaMemcpyAsync(outputs[t].data(), out, n * 4, cudaMemcpyDeviceToHost, s);
      if (e == cudaSuccess) e = cudaStreamSynchronize(s);
      cudaFree(temp);
      cudaFree(in);
      cudaFree(out);
      if (s != nullptr) cudaStreamDestroy(s);
      status[t] = e;
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < k_threads; ++t) {
    INFO("host thread " << t);
    REQUIRE(status[t] == cudaSuccess);
    CHECK(outputs[t] == sorted(inputs[t]));
  }
}

TEST_CASE("one temp buffer reused back to back on one stream", "[concurrency]") {
  cudaStream_t s;
  REQUIRE_CUDA(cudaStreamCreate(&s));
  const std::size_t sizes[] = {70000, 3, 4096, 12345, 0, 1};
  std::size_t bytes = 0;
  for (std::size_t n : sizes) bytes = std::max(bytes, temp_for(n));
  device_buffer<unsigned char> temp(bytes);
  std::vector<device_buffer<std::uint32_t>> ins, outs;
  std::vector<std::vector<std::uint32_t>> hosts;
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    hosts.push_back(ringsweep_test::random_keys<std::uint32_t>(sizes[i], 900 + i, 1 + int(i % 3)));
    ins.emplace_back(hosts.back());
    outs.emplace_back(sizes[i]);
  }
  // All sorts are queued before any result is read: stream order alone keeps them apart.
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    std::size_t b = bytes;
    REQUIRE_CUDA(ringsweep::sort_keys(temp.data(), b, ins[i].data(), outs[i].data(), sizes[i], {}, s));
  }
  REQUIRE_CUDA(cudaStreamSynchronize(s));
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    INFO("sort " << i << " n " << sizes[i]);
    CHECK(outs[i].download() == sorted(hosts[i]));
  }
  REQUIRE_CUDA(cudaStreamDestroy(s));
}

namespace {

/// A bounded kernel that holds its blocks for `rounds` sleeps per thread, then ends on its own.
__global__ void occupy_kernel(unsigned rounds, unsigned* done) {
  for (unsigned i = 0; i < rounds; ++i) __nanosleep(1000);
  if (threadIdx.x == 0) atomicAdd(done, 1u);
}

}  // namespace

TEST_CASE("sorts make progress beside a kernel that occupies most SMs", "[concurrency][progress]") {
  // Forward progress: onesweep tiles take tickets in launch order and wait only for smaller
  // tickets, so a sort must finish on the few SMs another stream's kernel leaves free, and several
  // sorts on their own streams (their own temporary storage) must all finish beside it too.
  int device = 0, sms = 0, per_sm = 0;
  REQUIRE_CUDA(cudaGetDevice(&device));
  REQUIRE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  constexpr int occupy_threads = 256;
  REQUIRE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, occupy_kernel, occupy_threads, 0));
  const unsigned occupy_blocks = unsigned(std::max(1, per_sm * std::max(1, sms - 2)));  // all but two SMs
#if defined(RINGSWEEP_SIMT_BACKEND)
  const unsigned rounds = 20;  // each sleep yields the fiber
  const std::size_t sizes[] = {70000, 5000, 12345, 1};
#else
  const unsigned rounds = 100000;  // about 0.1 s or more
  const std::size_t sizes[] = {std::size_t(1) << 22, 300000,
                                 std::size_t(ringsweep::detail::tile_shape<ringsweep::policy_sm90, 4, 0>::TILE) * 3 + 1, 1};
#endif
  constexpr int k_sorts = 4;
  cudaStream_t other, s[k_sorts];
  REQUIRE_CUDA(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
  for (auto& st : s) REQUIRE_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  device_buffer<unsigned> done(1);
  done.fill_bytes(0);
  std::vector<std::vector<std::uint32_t>> hosts;
  std::vector<device_buffer<std::uint32_t>> ins, outs;
  std::vector<device_buffer<unsigned char>> temps;
  for (int i = 0; i < k_sorts; ++i) {
    hosts.push_back(ringsweep_test::random_keys<std::uint32_t>(sizes[i], 700 + i, 1 + i % 2));
    ins.emplace_back(hosts.back());
    outs.emplace_back(sizes[i]);
    temps.emplace_back(temp_for(sizes[i]));
  }
  REQUIRE_CUDA(cudaDeviceSynchronize());

  for (bool several : {false, true}) {
    INFO((several ? "four sorts on four streams" : "one sort") << " beside " << occupy_blocks << " blocks of "
                                                               << occupy_threads << " threads on " << sms << " SMs");
    REQUIRE_CUDA(ringsweep_test::launch(occupy_kernel, occupy_blocks, occupy_threads, other, ringsweep_test::serial,
                                        rounds, done.data()));
    for (int i = 0; i < (several ? k_sorts : 1); ++i) {
      std::size_t b = temps[std::size_t(i)].size();
      REQUIRE_CUDA(sort_on(s[i], temps[std::size_t(i)].data(), b, ins[std::size_t(i)].data(),
                           outs[std::size_t(i)].data(), sizes[i]));
    }
    for (auto& st : s) REQUIRE_CUDA(cudaStreamSynchronize(st));
    REQUIRE_CUDA(cudaStreamSynchronize(other));
    for (int i = 0; i < (several ? k_sorts : 1); ++i) {
      INFO("sort " << i << " n " << sizes[i]);
      CHECK(outs[std::size_t(i)].download() == sorted(hosts[std::size_t(i)]));
      outs[std::size_t(i)].fill_bytes(0);
    }
  }
  CHECK(done.download()[0] == 2 * occupy_blocks);
  for (auto& st : s) REQUIRE_CUDA(cudaStreamDestroy(st));
  REQUIRE_CUDA(cudaStreamDestroy(other));
}

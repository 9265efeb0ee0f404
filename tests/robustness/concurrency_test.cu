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

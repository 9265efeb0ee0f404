// ringsweep SIMT backend: per-kernel global-memory traffic, counted as a GPU's memory system would
// see it: bytes requested, and distinct 32-byte sectors per warp-wide access.
#include "traffic.hpp"

#include "grid_run.hpp"

#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <tuple>

namespace simt {
namespace detail {

bool g_trace_enabled = false;

namespace {
std::mutex g_mutex;
std::vector<std::pair<const void*, kernel_traffic>> g_kernels;

std::string kernel_name(const void* kernel) {
  Dl_info info{};
  if (dladdr(kernel, &info) != 0 && info.dli_sname != nullptr) {
    int status = 0;
    char* demangled = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
    std::string name = status == 0 && demangled != nullptr ? demangled : info.dli_sname;
    std::free(demangled);
    return name;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "kernel@%p", kernel);
  return buf;
}
}  // namespace

void fold_block_traffic(std::vector<traced_access>& a, kernel_traffic& t) {
  std::sort(a.begin(), a.end(), [](const traced_access& x, const traced_access& y) {
    return std::tie(x.is_store, x.warp, x.index, x.first_sector) < std::tie(y.is_store, y.warp, y.index, y.first_sector);
  });
  std::size_t i = 0;
  while (i < a.size()) {
    std::size_t j = i;
    unsigned long long sectors = 0, bytes = 0;
    std::uint64_t covered_to = 0;  // sectors below this are counted already
    bool any = false;
    while (j < a.size() && a[j].is_store == a[i].is_store && a[j].warp == a[i].warp && a[j].index == a[i].index) {
      const std::uint64_t from = any ? std::max(a[j].first_sector, covered_to) : a[j].first_sector;
      if (a[j].last_sector + 1 > from) sectors += a[j].last_sector + 1 - from;
      covered_to = any ? std::max(covered_to, a[j].last_sector + 1) : a[j].last_sector + 1;
      any = true;
      bytes += a[j].bytes;
      ++j;
    }
    if (a[i].is_store) {
      t.store_bytes += bytes;
      t.store_sectors += sectors;
      ++t.store_accesses;
    } else {
      t.load_bytes += bytes;
      t.load_sectors += sectors;
      ++t.load_accesses;
    }
    i = j;
  }
  a.clear();
}

void record_launch_traffic(const void* kernel, const kernel_traffic& totals) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = std::find_if(g_kernels.begin(), g_kernels.end(), [&](auto& k) { return k.first == kernel; });
  if (it == g_kernels.end()) {
    g_kernels.emplace_back(kernel, kernel_traffic{});
    it = g_kernels.end() - 1;
    it->second.kernel = kernel_name(kernel);
  }
  kernel_traffic& k = it->second;
  ++k.launches;
  k.load_bytes += totals.load_bytes;
  k.store_bytes += totals.store_bytes;
  k.load_sectors += totals.load_sectors;
  k.store_sectors += totals.store_sectors;
  k.load_accesses += totals.load_accesses;
  k.store_accesses += totals.store_accesses;
}

}  // namespace detail

void traffic_begin() {
  detail::drain_grids();  // a grid in flight counts (or not) as when it was launched
  std::lock_guard<std::mutex> lock(detail::g_mutex);
  detail::g_kernels.clear();
  detail::g_trace_enabled = true;
}

std::vector<kernel_traffic> traffic_end() {
  detail::drain_grids();  // its traffic is recorded when it is joined
  std::lock_guard<std::mutex> lock(detail::g_mutex);
  detail::g_trace_enabled = false;
  std::vector<kernel_traffic> out;
  for (auto& k : detail::g_kernels) out.push_back(k.second);
  detail::g_kernels.clear();
  return out;
}

}  // namespace simt

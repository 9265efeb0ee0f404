// The host baselines of ringsweep_host_sort_bench (see host_sort_cpu.h).
#include "host_sort_cpu.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

// RS_BENCH_PAR: CMake found TBB, the backend of libstdc++'s parallel algorithms (without it they
// compile but run on one thread).
#if defined(RS_BENCH_PAR)
#include <execution>
#endif

namespace bench_cpu {
namespace {

struct by_key {
  bool operator()(const kv32& a, const kv32& b) const { return a.key < b.key; }
};

/// Runs f(0) .. f(threads - 1), f(0) on the calling thread.
template <class F>
void run_threads(int threads, F&& f) {
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(f, t);
  f(0);
  for (std::thread& h : helpers) h.join();
}

/// Merge path: how many of the first `d` outputs of a stable merge of a[0, m) and b[0, l) (a
/// first among equals) come from a.
template <class T, class Less>
std::size_t co_rank(const T* a, std::size_t m, const T* b, std::size_t l, std::size_t d, Less less) {
  std::size_t lo = d > l ? d - l : 0, hi = std::min(d, m);
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (!less(b[d - mid - 1], a[mid])) {  // a[mid] is among the first d
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

template <class T, class Less>
void threads_sort_impl(T* a, std::size_t n, T* buffer, int threads, Less less) {
  if (threads < 2 || n < std::size_t(threads) * 4096) {
    std::sort(a, a + n, less);
    return;
  }
  std::vector<std::size_t> bounds(std::size_t(threads) + 1);
  for (std::size_t r = 0; r < bounds.size(); ++r) bounds[r] = n / std::size_t(threads) * r;
  bounds.back() = n;
  run_threads(threads, [&](int t) { std::sort(a + bounds[std::size_t(t)], a + bounds[std::size_t(t) + 1], less); });
  // One piece of a round: outputs [d0, d1) of the merge of src[lo, mid) and src[mid, hi) into dst.
  struct piece {
    std::size_t lo, mid, hi, d0, d1;
  };
  T* src = a;
  T* dst = buffer;
  while (bounds.size() > 2) {
    std::vector<std::size_t> next;
    std::vector<piece> pieces;
    for (std::size_t r = 0; r + 1 < bounds.size(); r += 2) {
      const std::size_t lo = bounds[r], mid = bounds[r + 1], hi = r + 2 < bounds.size() ? bounds[r + 2] : mid;
      next.push_back(lo);
      // About `threads` pieces per round over all merges, at least one per merge.
      const std::size_t k = std::max<std::size_t>(1, (hi - lo) * std::size_t(threads) / n);
      for (std::size_t p = 0; p < k; ++p) {
        pieces.push_back(piece{lo, mid, hi, (hi - lo) * p / k, (hi - lo) * (p + 1) / k});
      }
    }
    next.push_back(n);
    std::atomic<std::size_t> ticket{0};
    run_threads(threads, [&](int) {
      for (std::size_t i = ticket.fetch_add(1); i < pieces.size(); i = ticket.fetch_add(1)) {
        const piece& q = pieces[i];
        const T* x = src + q.lo;
        const T* y = src + q.mid;
        const std::size_t m = q.mid - q.lo, l = q.hi - q.mid;
        const std::size_t i0 = co_rank(x, m, y, l, q.d0, less), i1 = co_rank(x, m, y, l, q.d1, less);
        std::merge(x + i0, x + i1, y + (q.d0 - i0), y + (q.d1 - i1), dst + q.lo + q.d0, less);
      }
    });
    bounds = std::move(next);
    std::swap(src, dst);
  }
  if (src != a) {  // an odd number of rounds: copy back, on every thread
    run_threads(threads, [&](int t) {
      const std::size_t b = n / std::size_t(threads) * std::size_t(t);
      const std::size_t e = t + 1 == threads ? n : n / std::size_t(threads) * std::size_t(t + 1);
      std::memcpy(static_cast<void*>(a + b), static_cast<const void*>(src + b), (e - b) * sizeof(T));
    });
  }
}

}  // namespace

void std_sort(std::uint32_t* a, std::size_t n) { std::sort(a, a + n); }
void std_sort(std::uint64_t* a, std::size_t n) { std::sort(a, a + n); }
void std_sort(kv32* a, std::size_t n) { std::sort(a, a + n, by_key{}); }

void threads_sort(std::uint32_t* a, std::size_t n, void* buffer, int threads) {
  threads_sort_impl(a, n, static_cast<std::uint32_t*>(buffer), threads, std::less<std::uint32_t>{});
}
void threads_sort(std::uint64_t* a, std::size_t n, void* buffer, int threads) {
  threads_sort_impl(a, n, static_cast<std::uint64_t*>(buffer), threads, std::less<std::uint64_t>{});
}
void threads_sort(kv32* a, std::size_t n, void* buffer, int threads) {
  threads_sort_impl(a, n, static_cast<kv32*>(buffer), threads, by_key{});
}

#if defined(RS_BENCH_PAR) && defined(_PSTL_PAR_BACKEND_TBB)
const char* par_backend() { return "TBB"; }
void par_sort(std::uint32_t* a, std::size_t n) { std::sort(std::execution::par, a, a + n); }
void par_sort(std::uint64_t* a, std::size_t n) { std::sort(std::execution::par, a, a + n); }
void par_sort(kv32* a, std::size_t n) { std::sort(std::execution::par, a, a + n, by_key{}); }
#else
const char* par_backend() { return nullptr; }
void par_sort(std::uint32_t* a, std::size_t n) { std::sort(a, a + n); }
void par_sort(std::uint64_t* a, std::size_t n) { std::sort(a, a + n); }
void par_sort(kv32* a, std::size_t n) { std::sort(a, a + n, by_key{}); }
#endif

}  // namespace bench_cpu

#include "config.hpp"

#include "address_sanitizer.hpp"
#include "grid_run.hpp"

#include "ringsweep_simt/control.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace simt {
namespace detail {
namespace {

long long env_int(const char* name, long long fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long long x = std::strtoll(v, &end, 0);
  if (end == v || *end != '\0') {
    std::fprintf(stderr, "ringsweep SIMT backend: ignoring %s=%s (not a number)\n", name, v);
    return fallback;
  }
  return x;
}

// RINGSWEEP_SIMT_DEVICE_BYTES: one number for every device, or one per device ("4194304,262144"),
// the last repeated for the devices after it.
void read_device_bytes(std::size_t (&bytes)[16]) {
  const auto clamp = [](long long x) {
    return static_cast<std::size_t>(std::clamp<long long>(x, 1 << 20, 1ll << 40));
  };
  const char* v = std::getenv("RINGSWEEP_SIMT_DEVICE_BYTES");
  std::size_t value = clamp(16ll << 30);
  int given = 0;
  if (v != nullptr && *v != '\0') {
    const std::string list(v);
    std::size_t at = 0;
    while (given < 16 && at <= list.size()) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      const std::string item = list.substr(at, comma - at);
      char* end = nullptr;
      const long long x = std::strtoll(item.c_str(), &end, 0);
      if (item.empty() || *end != '\0') {
        std::fprintf(stderr, "ringsweep SIMT backend: ignoring RINGSWEEP_SIMT_DEVICE_BYTES=%s (not a list of numbers)\n", v);
        given = 0;
        value = clamp(16ll << 30);
        break;
      }
      value = clamp(x);
      bytes[given++] = value;
      at = comma + 1;
    }
  }
  for (int d = given; d < 16; ++d) bytes[d] = given > 0 ? bytes[given - 1] : value;
}

backend_config read_config() {
  backend_config c{};
  const unsigned hw = std::max(2u, std::thread::hardware_concurrency());
  c.workers = static_cast<unsigned>(std::clamp<long long>(env_int("RINGSWEEP_SIMT_WORKERS", hw), 1, 256));
  c.seed = static_cast<std::uint64_t>(env_int("RINGSWEEP_SIMT_SEED", 0));
  c.watchdog_seconds = static_cast<double>(std::max<long long>(1, env_int("RINGSWEEP_SIMT_WATCHDOG_S", 120)));
#if defined(RINGSWEEP_SIMT_ASAN) || defined(RINGSWEEP_SIMT_TSAN)
  const long long default_stack_kb = 512;  // sanitizers make stack frames larger
#else
  const long long default_stack_kb = 128;
#endif
  c.stack_bytes = static_cast<std::size_t>(std::clamp<long long>(env_int("RINGSWEEP_SIMT_STACK_KB", default_stack_kb), 16, 65536)) * 1024;
  c.sm_count = static_cast<int>(std::clamp<long long>(env_int("RINGSWEEP_SIMT_SMS", 4), 1, 1024));
  c.device_count = static_cast<int>(std::clamp<long long>(env_int("RINGSWEEP_SIMT_DEVICES", 1), 0, 16));
  read_device_bytes(c.device_bytes);
  c.l2_bytes = static_cast<int>(std::clamp<long long>(env_int("RINGSWEEP_SIMT_L2_BYTES", 50ll << 20), 0, 1ll << 30));
  c.delay_permille = static_cast<unsigned>(std::clamp<long long>(env_int("RINGSWEEP_SIMT_DELAY", 0), 0, 1000));
  c.poison_shared = env_int("RINGSWEEP_SIMT_POISON", 0) != 0;
  c.dependent_launch = env_int("RINGSWEEP_SIMT_PDL", 1) != 0;
  c.fail_alloc_at = static_cast<unsigned long long>(std::max<long long>(0, env_int("RINGSWEEP_SIMT_FAIL_ALLOC", 0)));
  c.fail_copy_at = static_cast<unsigned long long>(std::max<long long>(0, env_int("RINGSWEEP_SIMT_FAIL_COPY", 0)));
  return c;
}

}  // namespace

backend_config& mutable_config() {
  static backend_config c = read_config();
  return c;
}

const backend_config& config() { return mutable_config(); }

}  // namespace detail

// The settings are read by the grid in flight: it finishes first.
void set_watchdog_seconds(double seconds) {
  detail::drain_grids();
  detail::mutable_config().watchdog_seconds = seconds;
}
void set_schedule_seed(unsigned long long seed) {
  detail::drain_grids();
  detail::mutable_config().seed = seed;
}
void set_delay_permille(unsigned permille) {
  detail::drain_grids();
  detail::mutable_config().delay_permille = permille > 1000 ? 1000 : permille;
}
unsigned long long schedule_seed() { return detail::config().seed; }
void set_workers(unsigned workers) {
  detail::drain_grids();
  detail::mutable_config().workers = workers < 1 ? 1u : (workers > 256 ? 256u : workers);
}
unsigned workers() { return detail::config().workers; }
void set_poison_shared(bool on) {
  detail::drain_grids();
  detail::mutable_config().poison_shared = on;
}

namespace detail {

}  // namespace detail
}  // namespace simt

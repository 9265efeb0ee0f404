// ringsweep SIMT backend: per-kernel global-memory traffic, counted as a GPU's memory system would
// see it: bytes requested, and distinct 32-byte sectors per warp-wide access.
#include "traffic.hpp"

#include "grid_run.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <mutex>
#include <tuple>

namespace simt {
namespace detail {

bool g_trace_enabled = false;

namespace {
std::mutex g_mutex;
std::vector<std::pair<const void*, kernel_traffic>> g_kernels;

// The name of the function symbol of the ELF file `path` (loaded at `base`) that holds `address`,
// from its static symbol table (.symtab): also functions that are not exported, such as kernels in
// an anonymous namespace. Empty when the file has no such table or symbol.
std::string symtab_name(const char* path, std::uintptr_t base, std::uintptr_t address) {
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return {};
  std::string name;
  const auto read_at = [&](long offset, void* to, std::size_t bytes) {
    return std::fseek(f, offset, SEEK_SET) == 0 && std::fread(to, 1, bytes, f) == bytes;
  };
  Elf64_Ehdr eh{};
  if (read_at(0, &eh, sizeof eh) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64) {
    const std::uintptr_t bias = eh.e_type == ET_DYN ? base : 0;  // a PIE or shared library
    std::vector<Elf64_Shdr> sections(eh.e_shnum);
    if (read_at(long(eh.e_shoff), sections.data(), sections.size() * sizeof(Elf64_Shdr))) {
      for (const Elf64_Shdr& sh : sections) {
        if (sh.sh_type != SHT_SYMTAB || sh.sh_link >= sections.size()) continue;
        const Elf64_Shdr& strings = sections[sh.sh_link];
        std::vector<Elf64_Sym> symbols(sh.sh_size / sizeof(Elf64_Sym));
        if (!read_at(long(sh.sh_offset), symbols.data(), symbols.size() * sizeof(Elf64_Sym))) break;
        for (const Elf64_Sym& sym : symbols) {
          if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value == 0) continue;
          const std::uintptr_t at = bias + sym.st_value;
          if (address < at || address >= at + std::max<std::uint64_t>(sym.st_size, 1)) continue;
          char buf[4096] = {};
          if (sym.st_name < strings.sh_size && read_at(long(strings.sh_offset + sym.st_name), buf, sizeof buf - 1)) {
            buf[sizeof buf - 1] = 0;
            name = buf;
          }
          break;
        }
        break;
      }
    }
  }
  std::fclose(f);
  return name;
}
}  // namespace

std::string kernel_name(const void* kernel) {
  Dl_info info{};
  std::string mangled;
  if (dladdr(kernel, &info) != 0) {
    if (info.dli_sname != nullptr) {
      mangled = info.dli_sname;
    } else if (info.dli_fname != nullptr) {
      // Not exported (an executable built without -rdynamic, an anonymous namespace): the file's
      // own symbol table; the main program's file name may be empty, /proc/self/exe names it.
      const char* path = info.dli_fname[0] != 0 ? info.dli_fname : "/proc/self/exe";
      mangled = symtab_name(path, reinterpret_cast<std::uintptr_t>(info.dli_fbase), reinterpret_cast<std::uintptr_t>(kernel));
      if (mangled.empty() && std::strcmp(path, "/proc/self/exe") != 0)
        mangled = symtab_name("/proc/self/exe", reinterpret_cast<std::uintptr_t>(info.dli_fbase), reinterpret_cast<std::uintptr_t>(kernel));
    }
  }
  if (!mangled.empty()) {
    int status = 0;
    char* demangled = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
    std::string name = status == 0 && demangled != nullptr ? demangled : mangled;
    std::free(demangled);
    return name;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "kernel@%p", kernel);
  return buf;
}

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

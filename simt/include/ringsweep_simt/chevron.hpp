// ringsweep SIMT backend: what a triple-chevron launch becomes. The wrap step
// (simt/cmake/ringsweep_simt_chevrons.py, run by ringsweep_simt_wrap_sources) rewrites
//
//   kernel<T, 4><<<grid, block, smem, stream>>>(a, b);
//
// into a call of chevron_launch with two lambdas around the kernel expression (its address where
// it has one; a call of it, for a template whose arguments are deduced from the call's) and the
// configuration, then the call's own argument list, unchanged. Like a GPU launch it returns
// nothing: an error (bad shape, too much shared memory, a refused capture) is recorded for
// cudaGetLastError / cudaPeekAtLastError. Grid and block take what dim3 takes; smem and stream
// default to 0.
#pragma once

#include <cstddef>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "kernel_registry.hpp"
#include "thread_body.hpp"
#include "types.hpp"

namespace simt {
namespace detail {
/// The <<<grid, block, smem, stream>>> of one launch.
struct chevron_config {
  dim3 grid;
  dim3 block;
  std::size_t smem;
  cudaStream_t stream;
};
inline chevron_config chevron_launch_config(dim3 grid, dim3 block, std::size_t smem = 0, cudaStream_t stream = 0) {
  return chevron_config{grid, block, smem, stream};
}

/// The kernel's address where `kernel` names one function (an overload set or a template with
/// arguments still to deduce does not: the call is then not viable, and the lambda around it
/// drops out). The first parameter makes the call dependent, so that this is decided late.
template <class D, class... Params>
auto chevron_kernel_pointer(D, void (*kernel)(Params...)) -> void (*)(Params...) {
  return kernel;
}

/// Starts the grid; records any error (a chevron launch has no return value).
void chevron_start(const chevron_config& c, const void* kernel, std::function<void()> thread_body);

template <class AddressOf, class CallAs>
class chevron_call {
 public:
  chevron_call(AddressOf address_of, CallAs call_as, chevron_config c)
      : address_of_(std::move(address_of)), call_as_(std::move(call_as)), config_(c) {}

  template <class... Args>
  void operator()(Args&&... args) {
    if constexpr (std::is_invocable<AddressOf&, int>::value) {
      auto kernel = address_of_(0);
      remember_kernel(kernel);
      if constexpr (arity<decltype(kernel)>::value == sizeof...(Args) &&
                    std::is_invocable<decltype(kernel), Args...>::value) {
        // The usual case: arguments converted to the parameter types now, as a GPU launch does.
        chevron_start(config_, reinterpret_cast<const void*>(kernel), bind(kernel, std::forward<Args>(args)...));
      } else {  // default arguments: only a call of the kernel by name supplies them
        chevron_start(config_, reinterpret_cast<const void*>(kernel), bind_call(std::forward<Args>(args)...));
      }
    } else {  // a template deduced from the arguments: no address to key attributes on
      chevron_start(config_, nullptr, bind_call(std::forward<Args>(args)...));
    }
  }

 private:
  template <class F>
  struct arity;
  template <class... Params>
  struct arity<void (*)(Params...)> : std::integral_constant<std::size_t, sizeof...(Params)> {};

  template <class... Params, class... Args>
  static std::function<void()> bind(void (*kernel)(Params...), Args&&... args) {
    return bind_kernel(kernel, std::forward<Args>(args)...);
  }
  template <class... Args>
  std::function<void()> bind_call(Args&&... args) {
    using values_t = std::tuple<CallAs, typename std::decay<Args>::type...>;
    return make_thread_body(&run_callable_args<values_t>, nullptr, new values_t(call_as_, std::forward<Args>(args)...),
                            &destroy_args<values_t>);
  }

  AddressOf address_of_;
  CallAs call_as_;
  chevron_config config_;
};

template <class AddressOf, class CallAs>
chevron_call<AddressOf, CallAs> chevron_launch(AddressOf address_of, CallAs call_as, chevron_config c) {
  return chevron_call<AddressOf, CallAs>(std::move(address_of), std::move(call_as), c);
}
}  // namespace detail
}  // namespace simt

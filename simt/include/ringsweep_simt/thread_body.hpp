// ringsweep SIMT backend: a launch's thread body over a copy of the kernel's arguments.
//
// What depends on the argument types is two small functions (run the kernel over the copy,
// destroy the copy); the owner and the std::function are built once, in the backend's library,
// not once per kernel signature in every program that launches it (a test program launches
// hundreds of signatures, and each owner cost a shared_ptr's and a std::function's code).
//
//   using args_t = std::tuple<int, float*>;
//   std::function<void()> body = make_thread_body(&run_kernel_args<void (*)(int, float*), args_t>,
//       reinterpret_cast<erased_fn>(kernel), new args_t(n, out), &destroy_args<args_t>);
#pragma once

#include <cstddef>
#include <functional>
#include <tuple>
#include <utility>

namespace simt {
namespace detail {
using erased_fn = void (*)();
using run_args_fn = void (*)(erased_fn kernel, void* args);
using destroy_args_fn = void (*)(void* args);
/// Takes ownership of `args` (destroyed by `destroy` when the last copy of the body goes, or at
/// once if this throws); the body calls run(kernel, args).
std::function<void()> make_thread_body(run_args_fn run, erased_fn kernel, void* args, destroy_args_fn destroy);

template <class Tuple>
void destroy_args(void* args) {
  delete static_cast<Tuple*>(args);
}
template <class Kernel, class Tuple>
void run_kernel_args(erased_fn kernel, void* args) {
  std::apply(reinterpret_cast<Kernel>(kernel), *static_cast<Tuple*>(args));
}
template <class Tuple, std::size_t... I>
void run_callable_args(Tuple& t, std::index_sequence<I...>) {
  std::get<0>(t)(std::get<I + 1>(t)...);
}
/// `Tuple` holds a callable and its arguments: calls the first with the rest.
template <class Tuple>
void run_callable_args(erased_fn, void* args) {
  run_callable_args(*static_cast<Tuple*>(args), std::make_index_sequence<std::tuple_size<Tuple>::value - 1>{});
}

}  // namespace detail
}  // namespace simt

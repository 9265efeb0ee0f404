#!/usr/bin/env python3
"""Test simt_chevron_rewrite: the SIMT wrap step's rewrite of <<<>>> launches and of
`extern __shared__` declarations, and its refusals.

    chevron_rewrite_test.py simt/cmake/ringsweep_simt_chevrons.py

Each case rewrites a snippet and checks the launch call, the kept configuration and arguments,
the line count (diagnostics must keep naming the right line), or the file:line of a refusal.
"""
import importlib.util
import os
import subprocess
import sys
import tempfile

spec = importlib.util.spec_from_file_location("chevrons", sys.argv[1])
chevrons = importlib.util.module_from_spec(spec)
spec.loader.exec_module(chevrons)
failures = []


def expect(name, cond):
    if not cond:
        failures.append(name)


def rewrite(text):
    out = chevrons.wrap("/src/a.cu", text)
    expect("line count kept: " + text[:40], out.count("\n") == text.count("\n") + 1 or "#include" in out)
    return out


def refused(text, line, words):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "bad.cu")
        with open(src, "w") as f:
            f.write(text)
        r = subprocess.run([sys.executable, sys.argv[1], src, os.path.join(d, "out.cpp")],
                           capture_output=True, text=True)
        expect("refused: " + text[:40], r.returncode == 1 and f"{src}:{line}: error:" in r.stderr and words in r.stderr)


out = rewrite("void f() {\n  k<float, (3 > 2)><<<dim3(2, 3), 64, 0, s>>>(p, [&](int x) { return g(x, 1); }(2));\n}\n")
expect("template kernel", "chevron_kernel_pointer(__simt_d, k<float, (3 > 2)>)" in out)
expect("configuration kept", "chevron_launch_config(dim3(2, 3), 64, 0, s))(p, [&](int x) { return g(x, 1); }(2));" in out)
expect("#line names the source", out.startswith('#line 1 "/src/a.cu"\n'))

out = rewrite("void f() {\n  ns::k<std::pair<int, std::tuple<A, B>>>\n      <<<g, b>>>(x);\n  return other<<<1, 1>>>();\n}\n")
expect("nested template arguments", "chevron_kernel_pointer(__simt_d, ns::k<std::pair<int, std::tuple<A, B>>>)" in out)
expect("return kept", "return ::simt::detail::chevron_launch(" in out)

out = rewrite("#define LAUNCH(kern, n) kern<<<(n + 255) / 256, \\\n  256>>>(out, n)\nvoid f() { LAUNCH(k, 9); }\n")
expect("macro body rewritten", "#define LAUNCH(kern, n) ::simt::detail::chevron_launch(" in out and "256))(out, n)" in out)

out = rewrite('void f() {\n  printf("<<<no>>>"); // k<<<1, 1>>>()\n  /* k<<<1,1>>>() */ std::cout << 1\'000 << \'<\';\n}\n'
              "template <> std::ostream& operator<<<>(std::ostream&, X);\n")
expect("strings, comments and operator<< untouched", out.startswith("// Generated") and '#include "/src/a.cu"' in out)

out = rewrite("void f() {\n  cudaLaunchKernel((void*)k<int>, 1, 1, args);\n"
              "  cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&k2), 1, 1, args);\n}\n")
expect("void* casts dropped", "cudaLaunchKernel(k<int>, 1, 1, args)" in out and "cudaLaunchCooperativeKernel(&k2, 1, 1, args)" in out)

# extern __shared__: a reference in a function or a #define, a substituted name at file scope.
out = rewrite("template <class T> __global__ void k() {\n  extern __shared__ __align__(16) Pair<int, T> /* c */\n"
              "      tile[];\n  tile[0] = {};\n}\n")
expect("function scope: a reference", "  [[maybe_unused]] auto& tile = ::simt::dynamic_shared_array<Pair<int, T>>();\n\n"
       "  tile[0] = {};" in out)
out = rewrite("#define SMEM(T, n) extern __shared__ alignas(8) T n[]\n__global__ void k() { SMEM(float, s); }\n")
expect("#define body", "#define SMEM(T, n) [[maybe_unused]] auto& n = ::simt::dynamic_shared_array<T>()\n" in out)
out = rewrite('namespace ns {\nextern __shared__ float pool[];\nstruct S { int* q; };\n}\nextern "C" {\n'
              "extern __shared__ int cpool[];\n}\n__global__ void k(ns::S s) {\n"
              "  ns::pool[threadIdx.x] = ::ns::pool[1] + cpool[0] + s.pool + p->pool; // pool\n}\n")
expect("file scope: declarations removed", "namespace ns {\n\nstruct S" in out and 'extern "C" {\n\n}' in out)
expect("file scope: uses replaced", "  (::simt::dynamic_shared_array<float>())[threadIdx.x] = "
       "(::simt::dynamic_shared_array<float>())[1] + (::simt::dynamic_shared_array<int>())[0] + s.pool + p->pool; // pool"
       in out)

refused("__global__ void k() {\n  extern __shared__ float a[], b[];\n}\n", 2, "one array of unknown size")
refused("__global__ void k() {\n  extern __shared__ float a[32];\n}\n", 2, "one array of unknown size")
refused("extern __shared__ float pool[];\nstruct S {\n  int pool;\n};\n", 3, "declared again")
refused("__global__ void k() {\n  extern __shared__ float a[]\n}\n", 2, "terminating ';'")

refused("void f() {\n\n  k<<<1, 1(x);\n}\n", 3, "without a matching '>>>'")
refused("void f() {\n  <<<1, 1>>>(x);\n}\n", 2, "without a kernel expression")
refused("void f() {\n  k<<<1, 1>>>;\n}\n", 2, "must be followed by the kernel's argument list")
refused("#define CFG(k) k<<<1, 1>>>\nvoid f() {\n  CFG(kern)(x);\n}\n", 1, "must be followed")
refused("void f() {\n  k<<<1, 1>>>(x, y;\n}\n", 2, "not closed")

if failures:
    print("chevron rewrite: FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("chevron rewrite: all cases passed")

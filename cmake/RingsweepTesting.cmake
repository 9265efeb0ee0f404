# ringsweep_add_test: one set of CUDA sources, two test executables.
#
#   ringsweep_add_test(NAME <name> SOURCES <a.cu>...
#                      [LABELS <label>...] [ENV <VAR=value>...] [TIMEOUT <seconds>]
#                      [SEEDS <n>...] [WORKERS <n>...] [ARGS <catch-arg>...]
#                      [LIBRARIES <lib>...] [SIMT_ONLY] [GPU_ONLY])
#
# <name>_simt  Built by the host C++ compiler against the CPU SIMT backend (ringsweep::simt), label
#              `simt`. Registered once per run: run i uses seed SEEDS[i] and worker count
#              WORKERS[i], each list cycled up to the longer one's length, as the ctest test
#              <name>_simt_seed<s>_w<w> with RINGSWEEP_SIMT_SEED=<s>, RINGSWEEP_SIMT_WORKERS=<w> and
#              Catch's --rng-seed <s>. Defaults: RINGSWEEP_TEST_SEEDS (1;2;3) and
#              RINGSWEEP_TEST_WORKERS (2;3), i.e. runs (1,2) (2,3) (3,2). Give SEEDS 1 for a slow test.
# <name>_gpu   Built by nvcc when CUDA is enabled, label `gpu`. The test main exits with 77 when no
#              CUDA device is present, which ctest reports as skipped.
#
# Both link the common Catch2 main (tests/common/test_main.cu), the test helpers
# (tests/common/test_util.cuh) and ringsweep::ringsweep, and compile with -Wall -Wextra.
# Sources are named relative to the calling CMakeLists.txt.

include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/RingsweepCompileOptions.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/RingsweepSimt.cmake)

set(RINGSWEEP_TEST_SEEDS "1;2;3" CACHE STRING "Default RINGSWEEP_SIMT_SEED values for SIMT test runs")
set(RINGSWEEP_TEST_WORKERS "2;3" CACHE STRING "Default RINGSWEEP_SIMT_WORKERS values for SIMT test runs")
set(RINGSWEEP_TEST_TIMEOUT 300 CACHE STRING "Default ctest timeout (seconds) of one test run")

function(ringsweep_add_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "SIMT_ONLY;GPU_ONLY" "NAME;TIMEOUT"
                        "SOURCES;LABELS;ENV;SEEDS;WORKERS;ARGS;LIBRARIES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ringsweep_add_test: unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_NAME OR NOT arg_SOURCES)
    message(FATAL_ERROR "ringsweep_add_test: NAME and SOURCES are required")
  endif()
  if(arg_SIMT_ONLY AND arg_GPU_ONLY)
    message(FATAL_ERROR "ringsweep_add_test(${arg_NAME}): SIMT_ONLY and GPU_ONLY exclude each other")
  endif()
  set(timeout ${RINGSWEEP_TEST_TIMEOUT})
  if(arg_TIMEOUT)
    set(timeout ${arg_TIMEOUT})
  endif()
  set(seeds ${RINGSWEEP_TEST_SEEDS})
  if(arg_SEEDS)
    set(seeds ${arg_SEEDS})
  endif()
  set(workers ${RINGSWEEP_TEST_WORKERS})
  if(arg_WORKERS)
    set(workers ${arg_WORKERS})
  endif()

  if(RINGSWEEP_HAS_SIMT AND NOT arg_GPU_ONLY)
    set(exe ${arg_NAME}_simt)
    ringsweep_add_simt_executable(NAME ${exe} SOURCES ${arg_SOURCES}
                                  LIBRARIES ringsweep_test_main_simt ${arg_LIBRARIES})
    ringsweep_target_warnings(${exe})

    list(LENGTH seeds n_seeds)
    list(LENGTH workers n_workers)
    set(n_runs ${n_seeds})
    if(n_workers GREATER n_runs)
      set(n_runs ${n_workers})
    endif()
    math(EXPR last "${n_runs} - 1")
    foreach(i RANGE ${last})
      math(EXPR i_seed "${i} % ${n_seeds}")
      math(EXPR i_workers "${i} % ${n_workers}")
      list(GET seeds ${i_seed} seed)
      list(GET workers ${i_workers} nw)
      set(test ${exe}_seed${seed}_w${nw})
      add_test(NAME ${test} COMMAND ${exe} --rng-seed ${seed} ${arg_ARGS})
      set(env RINGSWEEP_SIMT_SEED=${seed} RINGSWEEP_SIMT_WORKERS=${nw} ${arg_ENV})
      if(RINGSWEEP_SANITIZE STREQUAL "address_undefined")
        list(APPEND env UBSAN_OPTIONS=print_stacktrace=1)
      endif()
      set(labels simt ${arg_LABELS})
      set_tests_properties(${test} PROPERTIES
        LABELS "${labels}"
        ENVIRONMENT "${env}"
        TIMEOUT ${timeout})
    endforeach()
  endif()

  if(RINGSWEEP_HAS_CUDA AND NOT arg_SIMT_ONLY)
    set(exe ${arg_NAME}_gpu)
    ringsweep_add_gpu_executable(NAME ${exe} SOURCES ${arg_SOURCES}
                                 LIBRARIES ringsweep_test_main_gpu ${arg_LIBRARIES})
    ringsweep_target_warnings(${exe})
    add_test(NAME ${exe} COMMAND ${exe} ${arg_ARGS})
    set(labels gpu ${arg_LABELS})
    set_tests_properties(${exe} PROPERTIES
      LABELS "${labels}"
      SKIP_RETURN_CODE 77
      TIMEOUT ${timeout})
    if(arg_ENV)
      set_tests_properties(${exe} PROPERTIES ENVIRONMENT "${arg_ENV}")
    endif()
  endif()
endfunction()

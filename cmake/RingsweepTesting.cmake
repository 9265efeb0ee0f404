# How ringsweep registers its tests: every ctest test goes through one of the three functions
# below, so labels, time limits, the GPU skip code and the GPU test list are set in one place.
#
#   ringsweep_add_test(NAME <name> SOURCES <a.cu>...
#                      [LABELS <label>...] [ENV <VAR=value>...] [TIMEOUT <seconds>]
#                      [SEEDS <n>...] [WORKERS <n>...] [ARGS <catch-arg>...] [REPEAT_ARGS <catch-arg>...]
#                      [WATCHDOG <seconds>]
#                      [COST <seconds>] [LIBRARIES <lib>...] [SIMT_ONLY] [GPU_ONLY] [GPU_ALWAYS])
#
#     One set of CUDA sources, two test executables:
#     <name>_simt  Built by the host C++ compiler against the CPU SIMT backend (ringsweep::simt),
#                  label `simt`. Registered once per run: run i uses seed SEEDS[i] and worker
#                  count WORKERS[i], each list cycled up to the longer one's length, as the ctest
#                  test <name>_simt_seed<s>_w<w> with RINGSWEEP_SIMT_SEED=<s>,
#                  RINGSWEEP_SIMT_WORKERS=<w> and Catch's --rng-seed <s>. Defaults:
#                  RINGSWEEP_TEST_SEEDS (1;2;3) and RINGSWEEP_TEST_WORKERS (2;3), i.e. runs (1,2)
#                  (2,3) (3,2). Give SEEDS 1 for a slow test. REPEAT_ARGS: Catch arguments (a test
#                  filter) of every run after the first, which only repeat it under another
#                  schedule: the cases whose result a schedule cannot change run once. COST: about how long one run
#                  takes on the CI machine; ctest -j starts tests of higher COST first, so that a
#                  slow run does not start last and hold one core while the other idles.
#                  WATCHDOG: RINGSWEEP_SIMT_WATCHDOG_S of every run (below).
#     <name>_gpu   Built by nvcc when CUDA is enabled, label `gpu`. The test main exits with 77
#                  when no CUDA device is present, which ctest reports as skipped. Only with
#                  RINGSWEEP_GPU_PROGRAMS=ON (the default), or GPU_ALWAYS.
#     Both link the common Catch2 main (tests/common/test_main.cu), the test helpers
#     (tests/common/test_util.cuh) and ringsweep::ringsweep, and compile with -Wall -Wextra.
#     Sources are named relative to the calling CMakeLists.txt.
#
#   ringsweep_add_test_command(NAME <test> COMMAND <program-or-target> [<arg>...]
#                              [LABELS <label>...] [ENV <VAR=value>...] [TIMEOUT <seconds>]
#                              [WATCHDOG <seconds>] [PROPERTIES <property> <value>...])
#
#     Any other test: one more run of a test executable (another environment, a Catch filter),
#     an example, a cmake -P script, a Python report. When COMMAND names a target built by
#     ringsweep_add_simt_executable or ringsweep_add_gpu_executable, the test gets that backend's
#     label (`simt` or `gpu`), and a `gpu` test is skipped on exit code 77 and listed in the GPU
#     test list. A COMMAND that starts with a launcher (`mpirun -np 2 <target> ...`) is a `gpu` test
#     of the first `gpu` target named in it, listed with the label `mpi` and the arguments after
#     the target. PROPERTIES go to set_tests_properties as they are. A `simt` test runs with
#     RINGSWEEP_SIMT_WATCHDOG_S set (WATCHDOG, else a tenth of its timeout, 20 s to 60 s), unless
#     its ENV sets it: a block that only spins that long aborts the test, naming its kernel.
#
#   ringsweep_add_compile_fail_test(NAME <test> SOURCE <file.cu> EXPECT <regex>
#                                   [DEFINES <NAME=value>...] [LABELS <label>...])
#
#     SOURCE, compiled by the host compiler against the SIMT headers (-fsyntax-only) with
#     DEFINES, must fail with exactly one error matching EXPECT (cmake/RingsweepCompileFail.cmake).
#     Labels: `simt` and LABELS.
#
# The GPU test list: ${PROJECT_BINARY_DIR}/gpu_tests.tsv, one line per `gpu` test: name, the
# executable's target name, the test's labels (comma-separated) and its arguments, tab-separated.
# scripts/gpu_session.sh stage builds and carries exactly these.

include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/RingsweepCompileOptions.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/../simt/cmake/RingsweepSimt.cmake)

set(RINGSWEEP_TEST_SEEDS "1;2;3" CACHE STRING "Default RINGSWEEP_SIMT_SEED values for SIMT test runs")
set(RINGSWEEP_TEST_WORKERS "2;3" CACHE STRING "Default RINGSWEEP_SIMT_WORKERS values for SIMT test runs")
set(RINGSWEEP_TEST_TIMEOUT 300 CACHE STRING "Default ctest timeout (seconds) of one test run")

set(RINGSWEEP_COMPILE_FAIL_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/RingsweepCompileFail.cmake")

function(ringsweep_add_test_command)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;TIMEOUT;WATCHDOG" "COMMAND;LABELS;ENV;PROPERTIES")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_NAME OR NOT arg_COMMAND)
    message(FATAL_ERROR "ringsweep_add_test_command(${arg_NAME}): NAME and COMMAND are required "
                        "(unexpected: ${arg_UNPARSED_ARGUMENTS})")
  endif()
  set(timeout ${RINGSWEEP_TEST_TIMEOUT})
  if(arg_TIMEOUT)
    set(timeout ${arg_TIMEOUT})
  endif()
  list(GET arg_COMMAND 0 program)
  set(backend "")
  set(program_index 0)
  if(TARGET ${program})
    get_target_property(backend ${program} RINGSWEEP_BACKEND)
  else()
    # A launcher before the program (mpirun -np 2 <gpu target> ...): the test is a `gpu` test of
    # that target, listed with the label `mpi` (scripts/gpu_plan.sh runs it under its own mpirun).
    set(i 0)
    foreach(word IN LISTS arg_COMMAND)
      if(word MATCHES "^\\$<TARGET_FILE:([^>]+)>$")
        set(word "${CMAKE_MATCH_1}")  # mpiexec ... $<TARGET_FILE:t> ...: the target t
      endif()
      if(i GREATER 0 AND TARGET "${word}")
        get_target_property(word_backend "${word}" RINGSWEEP_BACKEND)
        if(word_backend STREQUAL "gpu")
          set(backend gpu)
          set(program ${word})
          set(program_index ${i})
          list(APPEND arg_LABELS mpi)
          break()
        endif()
      endif()
      math(EXPR i "${i} + 1")
    endforeach()
  endif()
  set(labels ${arg_LABELS})
  set(env ${arg_ENV})
  if(backend STREQUAL "simt")
    list(PREPEND labels simt)
    # A hang fails in seconds, naming the kernel, instead of at the ctest timeout: the backend's
    # watchdog stops a block that has only spun this long (WATCHDOG, else a tenth of the timeout
    # within 20-60 s; a test's own ENV RINGSWEEP_SIMT_WATCHDOG_S=... wins).
    if(NOT env MATCHES "(^|;)RINGSWEEP_SIMT_WATCHDOG_S=")
      if(arg_WATCHDOG)
        set(watchdog ${arg_WATCHDOG})
      else()
        math(EXPR watchdog "${timeout} / 10")
        if(watchdog LESS 20)
          set(watchdog 20)
        elseif(watchdog GREATER 60)
          set(watchdog 60)
        endif()
      endif()
      list(APPEND env RINGSWEEP_SIMT_WATCHDOG_S=${watchdog})
    endif()
    if(RINGSWEEP_SANITIZE STREQUAL "address_undefined")
      list(APPEND env UBSAN_OPTIONS=print_stacktrace=1)
    endif()
  elseif(backend STREQUAL "gpu")
    list(PREPEND labels gpu)
  endif()
  list(REMOVE_DUPLICATES labels)

  add_test(NAME ${arg_NAME} COMMAND ${arg_COMMAND})
  set_tests_properties(${arg_NAME} PROPERTIES TIMEOUT ${timeout})
  if(labels)
    set_tests_properties(${arg_NAME} PROPERTIES LABELS "${labels}")
  endif()
  if(env)
    set_tests_properties(${arg_NAME} PROPERTIES ENVIRONMENT "${env}")
  endif()
  if(backend STREQUAL "gpu")
    set_tests_properties(${arg_NAME} PROPERTIES SKIP_RETURN_CODE 77)
    set(args ${arg_COMMAND})
    foreach(i RANGE ${program_index})
      list(REMOVE_AT args 0)
    endforeach()
    list(JOIN args " " args)
    list(JOIN labels "," label_text)
    set_property(GLOBAL APPEND PROPERTY RINGSWEEP_GPU_TEST_LINES
                 "${arg_NAME}\t${program}\t${label_text}\t${args}")
  endif()
  if(arg_PROPERTIES)
    set_tests_properties(${arg_NAME} PROPERTIES ${arg_PROPERTIES})
  endif()
endfunction()

function(ringsweep_add_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "SIMT_ONLY;GPU_ONLY;GPU_ALWAYS" "NAME;TIMEOUT;COST;WATCHDOG"
                        "SOURCES;LABELS;ENV;SEEDS;WORKERS;ARGS;REPEAT_ARGS;LIBRARIES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ringsweep_add_test: unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_NAME OR NOT arg_SOURCES)
    message(FATAL_ERROR "ringsweep_add_test: NAME and SOURCES are required")
  endif()
  if(arg_SIMT_ONLY AND arg_GPU_ONLY)
    message(FATAL_ERROR "ringsweep_add_test(${arg_NAME}): SIMT_ONLY and GPU_ONLY exclude each other")
  endif()
  set(timeout)
  if(arg_TIMEOUT)
    set(timeout TIMEOUT ${arg_TIMEOUT})
  endif()
  set(watchdog)
  if(arg_WATCHDOG)
    set(watchdog WATCHDOG ${arg_WATCHDOG})
  endif()
  set(cost)
  if(arg_COST)
    set(cost PROPERTIES COST ${arg_COST})
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
      set(run_args ${arg_ARGS})
      if(i GREATER 0)
        list(APPEND run_args ${arg_REPEAT_ARGS})
      endif()
      ringsweep_add_test_command(NAME ${exe}_seed${seed}_w${nw} COMMAND ${exe} --rng-seed ${seed} ${run_args}
                                 LABELS ${arg_LABELS} ${timeout} ${watchdog}
                                 ENV RINGSWEEP_SIMT_SEED=${seed} RINGSWEEP_SIMT_WORKERS=${nw} ${arg_ENV} ${cost})
    endforeach()
  endif()

  if(RINGSWEEP_HAS_CUDA AND NOT arg_SIMT_ONLY AND (RINGSWEEP_GPU_PROGRAMS OR arg_GPU_ALWAYS))
    set(exe ${arg_NAME}_gpu)
    ringsweep_add_gpu_executable(NAME ${exe} SOURCES ${arg_SOURCES}
                                 LIBRARIES ringsweep_test_main_gpu ${arg_LIBRARIES})
    ringsweep_target_warnings(${exe})
    ringsweep_add_test_command(NAME ${exe} COMMAND ${exe} ${arg_ARGS} LABELS ${arg_LABELS} ${timeout}
                               ENV ${arg_ENV})
  endif()
endfunction()

function(ringsweep_add_compile_fail_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;SOURCE;EXPECT" "DEFINES;LABELS")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_NAME OR NOT arg_SOURCE OR NOT arg_EXPECT)
    message(FATAL_ERROR "ringsweep_add_compile_fail_test(${arg_NAME}): NAME, SOURCE and EXPECT are required "
                        "(unexpected: ${arg_UNPARSED_ARGUMENTS})")
  endif()
  cmake_path(ABSOLUTE_PATH arg_SOURCE BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
  set(includes
    "$<JOIN:$<TARGET_PROPERTY:ringsweep::simt,INTERFACE_INCLUDE_DIRECTORIES>,|>|$<JOIN:$<TARGET_PROPERTY:ringsweep::ringsweep,INTERFACE_INCLUDE_DIRECTORIES>,|>")
  list(JOIN arg_DEFINES "|" defines)
  ringsweep_add_test_command(NAME ${arg_NAME}
    COMMAND "${CMAKE_COMMAND}" "-DCOMPILER=${CMAKE_CXX_COMPILER}" "-DSOURCE=${arg_SOURCE}"
            "-DINCLUDES=${includes}" "-DDEFINES=RINGSWEEP_VARIANT_SIMT=1|${defines}"
            "-DEXPECT=${arg_EXPECT}" -P "${RINGSWEEP_COMPILE_FAIL_SCRIPT}"
    LABELS simt ${arg_LABELS} TIMEOUT 120)
endfunction()

# The GPU test list, written once every directory has registered its tests.
function(ringsweep_write_gpu_test_list)
  if(NOT RINGSWEEP_BUILD_TESTS)
    return()
  endif()
  get_property(lines GLOBAL PROPERTY RINGSWEEP_GPU_TEST_LINES)
  list(JOIN lines "\n" text)
  file(CONFIGURE OUTPUT "${PROJECT_BINARY_DIR}/gpu_tests.tsv" CONTENT "${text}\n" @ONLY)
endfunction()
cmake_language(DEFER DIRECTORY "${PROJECT_SOURCE_DIR}" CALL ringsweep_write_gpu_test_list)

# Script (cmake -P) behind every `consumer` ctest test (tests/CMakeLists.txt): it uses ringsweep
# from an outside project, examples/consumer, the way a user would.
#
#   -DMODE=install            cmake --install RINGSWEEP_BINARY_DIR into a fresh PREFIX
#   -DMODE=add_subdirectory   configure, build and run examples/consumer with -DRINGSWEEP_SOURCE_DIR
#   -DMODE=fetch_content      the same through FetchContent: -DRINGSWEEP_GIT_REPOSITORY, with
#                             FETCHCONTENT_SOURCE_DIR_RINGSWEEP=RINGSWEEP_SOURCE_DIR (no download)
#   -DMODE=find_package       the same with -DCMAKE_PREFIX_PATH=PREFIX (after MODE=install)
#   -DMODE=readme             check that every line of every ```cmake snippet in README and
#                             CMAKE_DOC (README.md and docs/cmake.md) is a line of
#                             examples/consumer/CMakeLists.txt, in order, and that each of the two
#                             files has at least one: the documents show what is tested
#
#   -DSHAPE=cxx|cuda|cuda_late  the consumer's CONSUMER_CUDA (OFF, ON, LATE): C++ only, a CUDA
#                             project, CUDA enabled after ringsweep, in gpu/. cuda and cuda_late need
#                             CUDA_COMPILER; without one the test prints "consumer: skipped"
#                             (SKIP_REGULAR_EXPRESSION).
#
# sort_floats_cpu (SIMT backend) must run and check its sort, and my_kernels_cpu (the project's own
# .cu file through ringsweep_add_simt_executable: the wrap step from an outside project) its
# kernel's results. sort_floats (nvcc) must build; it runs too, and its exit code 77 ("no CUDA
# device") is accepted.
#
# Other inputs: CONSUMER_SOURCE_DIR, CONSUMER_BINARY_DIR, RINGSWEEP_SOURCE_DIR,
# RINGSWEEP_BINARY_DIR, README, CMAKE_DOC, GENERATOR, MAKE_PROGRAM, CXX_COMPILER, CUDA_COMPILER,
# CUDA_HOST_COMPILER, CUDA_ARCHITECTURES (one architecture keeps the nvcc build short), LAUNCHER
# (e.g. ccache; may be empty), CONFIG (the configuration of ringsweep's build, for the install;
# may be empty), WITH_MPI (ringsweep was built with ringsweep::mpi).

cmake_minimum_required(VERSION 3.25)

function(run_step)
  execute_process(COMMAND ${ARGN} COMMAND_ECHO STDOUT RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer: step failed (${rc})")
  endif()
endfunction()

# ---- the documents' snippets against the consumer project -----------------------------------------
# A file's lines as a list. ';', '[', ']' and '\' would split or join list elements: they are
# replaced by placeholders in both files compared.
function(read_lines out path)
  file(READ "${path}" text)
  string(REPLACE "\\" "<backslash>" text "${text}")
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REPLACE "[" "<lbracket>" text "${text}")
  string(REPLACE "]" "<rbracket>" text "${text}")
  string(REPLACE "\n" ";" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Every ```cmake block of the markdown file `doc`: each of its lines (blank ones aside) must be a
# line of the consumer project, in order, matched from the consumer's first line for each block;
# the file must hold at least one block. Leading and trailing blanks are ignored on both sides.
function(check_snippets doc consumer_file)
  read_lines(doc_lines "${doc}")
  read_lines(consumer_lines "${consumer_file}")
  set(consumer)
  foreach(line IN LISTS consumer_lines)
    string(STRIP "${line}" line)
    list(APPEND consumer "${line}")
  endforeach()
  list(LENGTH consumer n_consumer)
  set(in_block OFF)
  set(n_blocks 0)
  foreach(line IN LISTS doc_lines)
    if(NOT in_block AND line STREQUAL "```cmake")
      set(in_block ON)
      set(next 0)
      math(EXPR n_blocks "${n_blocks} + 1")
    elseif(in_block AND line STREQUAL "```")
      set(in_block OFF)
    elseif(in_block)
      string(STRIP "${line}" want)
      if(want STREQUAL "")
        continue()
      endif()
      set(found OFF)
      while(next LESS n_consumer)
        list(GET consumer ${next} have)
        math(EXPR next "${next} + 1")
        if(have STREQUAL want)
          set(found ON)
          break()
        endif()
      endwhile()
      if(NOT found)
        message(FATAL_ERROR "consumer: ${doc}, CMake snippet ${n_blocks}: line not found (in this "
                            "order) in ${consumer_file}:\n  ${want}")
      endif()
    endif()
  endforeach()
  if(in_block)
    message(FATAL_ERROR "consumer: ${doc}: a ```cmake snippet is never closed")
  endif()
  if(n_blocks EQUAL 0)
    message(FATAL_ERROR "consumer: no ```cmake snippets in ${doc}")
  endif()
  message(STATUS "consumer: the ${n_blocks} CMake snippets of ${doc} are lines of ${consumer_file}")
endfunction()

if(MODE STREQUAL "readme")
  foreach(doc IN ITEMS "${README}" "${CMAKE_DOC}")
    if(NOT EXISTS "${doc}")
      message(FATAL_ERROR "consumer: no document '${doc}' (README and CMAKE_DOC are both needed)")
    endif()
    check_snippets("${doc}" "${CONSUMER_SOURCE_DIR}/CMakeLists.txt")
  endforeach()
  return()
endif()

# ---- install --------------------------------------------------------------------------------------
if(MODE STREQUAL "install")
  file(REMOVE_RECURSE "${PREFIX}")
  # --config only when the build has one: a single-config build without CMAKE_BUILD_TYPE exports
  # its targets for the empty configuration, which `--config Release` would skip.
  set(config_arg)
  if(CONFIG)
    set(config_arg --config "${CONFIG}")
  endif()
  run_step("${CMAKE_COMMAND}" --install "${RINGSWEEP_BINARY_DIR}" --prefix "${PREFIX}" ${config_arg})
  if(NOT EXISTS "${PREFIX}/include/ringsweep/version.hpp")
    message(FATAL_ERROR "consumer: install did not produce include/ringsweep/version.hpp")
  endif()
  return()
endif()

# ---- build and run the consumer -------------------------------------------------------------------
if(MODE STREQUAL "add_subdirectory")
  set(how "-DRINGSWEEP_SOURCE_DIR=${RINGSWEEP_SOURCE_DIR}")
elseif(MODE STREQUAL "fetch_content")
  set(how "-DRINGSWEEP_GIT_REPOSITORY=file://${RINGSWEEP_SOURCE_DIR}"
          "-DFETCHCONTENT_SOURCE_DIR_RINGSWEEP=${RINGSWEEP_SOURCE_DIR}")
elseif(MODE STREQUAL "find_package")
  set(how "-DCMAKE_PREFIX_PATH=${PREFIX}")
else()
  message(FATAL_ERROR "consumer: unknown MODE '${MODE}'")
endif()
set(consumer_cuda_cxx OFF)
set(consumer_cuda_cuda ON)
set(consumer_cuda_cuda_late LATE)
set(cuda "${consumer_cuda_${SHAPE}}")
if(cuda STREQUAL "")
  message(FATAL_ERROR "consumer: SHAPE must be cxx, cuda or cuda_late, not '${SHAPE}'")
endif()
if(NOT cuda STREQUAL "OFF" AND NOT CUDA_COMPILER)
  message("consumer: skipped: no CUDA compiler (ringsweep configured without CUDA)")
  return()
endif()

# The consumer is always built as Release, whatever ringsweep's build is: quick, and without debug
# information ccache finds one shape's compilations for the next (in another build directory).
# Its programs go to bin/, so that they are found whatever directory defines them.
set(config Release)
set(bin "${CONSUMER_BINARY_DIR}/bin")
set(configure_args -S "${CONSUMER_SOURCE_DIR}" -B "${CONSUMER_BINARY_DIR}" -G "${GENERATOR}" ${how}
    "-DCONSUMER_CUDA=${cuda}" "-DCMAKE_BUILD_TYPE=${config}" "-DCMAKE_RUNTIME_OUTPUT_DIRECTORY=${bin}"
    "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
    "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}")
if(NOT cuda STREQUAL "OFF")
  list(APPEND configure_args "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
                             "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES}"
                             "-DCMAKE_CUDA_COMPILER_LAUNCHER=${LAUNCHER}")
  if(CUDA_HOST_COMPILER)
    list(APPEND configure_args "-DCMAKE_CUDA_HOST_COMPILER=${CUDA_HOST_COMPILER}")
  endif()
endif()

# One shape, find_package from C++, also builds and runs (as a single rank) the distributed sort's
# program when the installed package has ringsweep::mpi: the exported target and its MPI dependency.
set(with_mpi OFF)
if(MODE STREQUAL "find_package" AND SHAPE STREQUAL "cxx" AND EXISTS "${PREFIX}/include/ringsweep/distributed.cuh"
   AND WITH_MPI)
  set(with_mpi ON)
endif()
list(APPEND configure_args "-DCONSUMER_MPI=${with_mpi}")

file(REMOVE_RECURSE "${CONSUMER_BINARY_DIR}")
run_step("${CMAKE_COMMAND}" ${configure_args})
run_step("${CMAKE_COMMAND}" --build "${CONSUMER_BINARY_DIR}" --config "${config}")

# bin/<name> (single-configuration generators) or bin/<config>/<name>.
function(built_program out name)
  foreach(candidate "${bin}/${name}" "${bin}/${config}/${name}")
    if(EXISTS "${candidate}")
      set(${out} "${candidate}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "consumer: ${name} was not built")
endfunction()

built_program(cpu_program sort_floats_cpu)
run_step("${cpu_program}")
# The project's own .cu file, through ringsweep_add_simt_executable: it checks its own results.
built_program(kernels_program my_kernels_cpu)
execute_process(COMMAND "${kernels_program}" COMMAND_ECHO STDOUT RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "my_kernels: ok")
  message(FATAL_ERROR "consumer: my_kernels_cpu failed (${rc})")
endif()
if(with_mpi)
  built_program(mpi_program sort_distributed_cpu)
  # Under the sanitized build LeakSanitizer reports Open MPI's own allocations at exit (as the
  # distributed tests' RINGSWEEP_MPIEXEC_ENV says); the program's checks are its exit status.
  run_step("${CMAKE_COMMAND}" -E env ASAN_OPTIONS=detect_leaks=0 "${mpi_program}")
endif()
if(NOT cuda STREQUAL "OFF")
  built_program(gpu_program sort_floats)
  execute_process(COMMAND "${gpu_program}" COMMAND_ECHO STDOUT RESULT_VARIABLE rc)
  if(rc EQUAL 77)
    message(STATUS "consumer: sort_floats built; not run for lack of a CUDA device")
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer: sort_floats failed (${rc})")
  endif()
endif()

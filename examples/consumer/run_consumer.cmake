# Script (cmake -P) behind the example_consumer_* ctest tests (examples/CMakeLists.txt): configure,
# build and run examples/consumer as an outside project, on the CPU (-DCONSUMER_CPU=ON).
#
#   -DMODE=add_subdirectory   with -DRINGSWEEP_SOURCE_DIR=<checkout>
#   -DMODE=find_package       with -DCMAKE_PREFIX_PATH=PREFIX (an installed ringsweep)
#
# Other inputs: CONSUMER_SOURCE_DIR, CONSUMER_BINARY_DIR, RINGSWEEP_SOURCE_DIR, PREFIX, GENERATOR,
# MAKE_PROGRAM, CXX_COMPILER.

cmake_minimum_required(VERSION 3.25)

function(run_step)
  execute_process(COMMAND ${ARGN} COMMAND_ECHO STDOUT RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "example consumer: step failed (${rc})")
  endif()
endfunction()

if(MODE STREQUAL "add_subdirectory")
  set(how "-DRINGSWEEP_SOURCE_DIR=${RINGSWEEP_SOURCE_DIR}")
elseif(MODE STREQUAL "find_package")
  set(how "-DCMAKE_PREFIX_PATH=${PREFIX}")
else()
  message(FATAL_ERROR "example consumer: unknown MODE '${MODE}'")
endif()

set(configure_args -S "${CONSUMER_SOURCE_DIR}" -B "${CONSUMER_BINARY_DIR}" -G "${GENERATOR}" ${how}
    -DCONSUMER_CPU=ON -DCMAKE_BUILD_TYPE=Release)
if(MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(CXX_COMPILER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()

file(REMOVE_RECURSE "${CONSUMER_BINARY_DIR}")
run_step("${CMAKE_COMMAND}" ${configure_args})
run_step("${CMAKE_COMMAND}" --build "${CONSUMER_BINARY_DIR}")
run_step("${CONSUMER_BINARY_DIR}/sort_floats")

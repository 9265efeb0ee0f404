# Script (cmake -P) behind the example_consumer_* ctest tests (examples/CMakeLists.txt): configure,
# build and run examples/consumer as an outside project, on the CPU (-DCONSUMER_CPU=ON).
#
#   -DMODE=add_subdirectory   with -DRINGSWEEP_SOURCE_DIR=<checkout>
#   -DMODE=find_package       cmake --install RINGSWEEP_BINARY_DIR into a fresh PREFIX, then
#                             configure with -DCMAKE_PREFIX_PATH=PREFIX
#
# Other inputs: CONSUMER_SOURCE_DIR, CONSUMER_BINARY_DIR, GENERATOR, MAKE_PROGRAM, CXX_COMPILER,
# CONFIG (the build's configuration; empty for a single-config build without CMAKE_BUILD_TYPE,
# which is then installed as it is and the consumer built as Release).

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
  # --config only when the build has one: installing an unnamed configuration as "Release" would
  # skip its exported targets file.
  set(config_arg)
  if(CONFIG)
    set(config_arg --config "${CONFIG}")
  endif()
  file(REMOVE_RECURSE "${PREFIX}")
  run_step("${CMAKE_COMMAND}" --install "${RINGSWEEP_BINARY_DIR}" --prefix "${PREFIX}" ${config_arg})
  set(how "-DCMAKE_PREFIX_PATH=${PREFIX}")
else()
  message(FATAL_ERROR "example consumer: unknown MODE '${MODE}'")
endif()

set(configure_args -S "${CONSUMER_SOURCE_DIR}" -B "${CONSUMER_BINARY_DIR}" -G "${GENERATOR}" ${how}
    -DCONSUMER_CPU=ON)
if(CONFIG)
  list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${CONFIG}")
else()
  list(APPEND configure_args -DCMAKE_BUILD_TYPE=Release)
endif()
if(MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(CXX_COMPILER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()

file(REMOVE_RECURSE "${CONSUMER_BINARY_DIR}")
run_step("${CMAKE_COMMAND}" ${configure_args})
run_step("${CMAKE_COMMAND}" --build "${CONSUMER_BINARY_DIR}")
foreach(candidate "${CONSUMER_BINARY_DIR}/sort_floats" "${CONSUMER_BINARY_DIR}/${CONFIG}/sort_floats"
                  "${CONSUMER_BINARY_DIR}/Release/sort_floats")
  if(EXISTS "${candidate}" AND NOT IS_DIRECTORY "${candidate}")
    run_step("${candidate}")
    return()
  endif()
endforeach()
message(FATAL_ERROR "example consumer: sort_floats was not built")

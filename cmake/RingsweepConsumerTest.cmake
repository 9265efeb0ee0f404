# Script (cmake -P) behind the `consumer` ctest tests. It checks that an outside project can use
# ringsweep, the way a user would.
#
#   -DMODE=install         cmake --install RINGSWEEP_BINARY_DIR into a fresh PREFIX
#   -DMODE=add_subdirectory configure, build and run tests/consumer with -DRINGSWEEP_SOURCE_DIR
#   -DMODE=find_package     configure, build and run tests/consumer with -DCMAKE_PREFIX_PATH=PREFIX
#
# Other inputs: CONSUMER_SOURCE_DIR, CONSUMER_BINARY_DIR, RINGSWEEP_SOURCE_DIR, RINGSWEEP_BINARY_DIR,
# PREFIX, GENERATOR, MAKE_PROGRAM, CXX_COMPILER, CONFIG (may be empty: Release is used).

cmake_minimum_required(VERSION 3.25)

function(run_step)
  execute_process(COMMAND ${ARGN} COMMAND_ECHO STDOUT RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer test: step failed (${rc})")
  endif()
endfunction()

set(config "${CONFIG}")
if(NOT config)
  set(config Release)
endif()

if(MODE STREQUAL "install")
  file(REMOVE_RECURSE "${PREFIX}")
  # Pass --config only when the build has one: a single-config build without CMAKE_BUILD_TYPE
  # exports its targets for the empty configuration, which `--config Release` would skip.
  set(install_config)
  if(CONFIG)
    set(install_config --config "${CONFIG}")
  endif()
  run_step("${CMAKE_COMMAND}" --install "${RINGSWEEP_BINARY_DIR}" --prefix "${PREFIX}" ${install_config})
  if(NOT EXISTS "${PREFIX}/include/ringsweep/version.hpp")
    message(FATAL_ERROR "consumer test: install did not produce include/ringsweep/version.hpp")
  endif()
  return()
endif()

if(MODE STREQUAL "add_subdirectory")
  # The consumer builds ringsweep itself: keep that quick, no nvcc.
  set(how "-DRINGSWEEP_SOURCE_DIR=${RINGSWEEP_SOURCE_DIR}" -DRINGSWEEP_ENABLE_CUDA=OFF)
elseif(MODE STREQUAL "find_package")
  set(how "-DCMAKE_PREFIX_PATH=${PREFIX}")
else()
  message(FATAL_ERROR "consumer test: unknown MODE '${MODE}'")
endif()

set(configure_args -S "${CONSUMER_SOURCE_DIR}" -B "${CONSUMER_BINARY_DIR}" -G "${GENERATOR}"
    ${how} "-DCMAKE_BUILD_TYPE=${config}")
if(MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(CXX_COMPILER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()

file(REMOVE_RECURSE "${CONSUMER_BINARY_DIR}")
run_step("${CMAKE_COMMAND}" ${configure_args})
run_step("${CMAKE_COMMAND}" --build "${CONSUMER_BINARY_DIR}" --config "${config}")

foreach(candidate "${CONSUMER_BINARY_DIR}/ringsweep_consumer" "${CONSUMER_BINARY_DIR}/${config}/ringsweep_consumer")
  if(EXISTS "${candidate}")
    run_step("${candidate}")
    return()
  endif()
endforeach()
message(FATAL_ERROR "consumer test: ringsweep_consumer was not built")

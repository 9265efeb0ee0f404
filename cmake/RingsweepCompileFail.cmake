# ctest script behind ringsweep_add_compile_fail_test() (RingsweepTesting.cmake): compiles SOURCE
# with COMPILER (-fsyntax-only) and passes when the compilation fails with exactly one error whose
# text matches EXPECT.
#
#   cmake -DCOMPILER=<c++> -DSOURCE=<file> -DINCLUDES=<dir|dir...> -DDEFINES=<NAME=v|...>
#         -DEXPECT=<regex> -P RingsweepCompileFail.cmake
string(REPLACE "|" ";" includes "${INCLUDES}")
string(REPLACE "|" ";" defines "${DEFINES}")
set(args -std=c++17 -fsyntax-only -x c++)
foreach(dir IN LISTS includes)
  if(dir)
    list(APPEND args "-I${dir}")
  endif()
endforeach()
foreach(def IN LISTS defines)
  if(def)
    list(APPEND args "-D${def}")
  endif()
endforeach()
execute_process(COMMAND "${COMPILER}" ${args} "${SOURCE}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(rc EQUAL 0)
  message(FATAL_ERROR "compile_fail: ${SOURCE} compiled, but it must not")
endif()
string(REGEX MATCHALL "error:" errors "${out}")
list(LENGTH errors n_errors)
if(NOT n_errors EQUAL 1)
  message(FATAL_ERROR "compile_fail: expected exactly one error, got ${n_errors}")
endif()
if(NOT out MATCHES "${EXPECT}")
  message(FATAL_ERROR "compile_fail: the error does not match '${EXPECT}'")
endif()
message("compile_fail: one error, as expected")

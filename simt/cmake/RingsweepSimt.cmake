# Building one CUDA source twice: for the CPU SIMT backend (host C++ compiler) and for a GPU (nvcc).
#
# A source file has one LANGUAGE per directory, so the SIMT build never compiles `a.cu` itself:
# it compiles a generated `a.cu.cpp`, written at build time by the wrap step
# (ringsweep_simt_chevrons.py, Python 3): `#include "/abs/path/a.cu"` when a.cu has nothing to
# rewrite; otherwise `#line 1 "/abs/path/a.cu"` and a.cu's text, line for line, with each
# `kernel<<<grid, block, smem, stream>>>(args)` made a backend launch, each `extern __shared__ T a[];`
# a reference to the block's dynamic shared memory (ringsweep_simt_shared.py) and a `(void*)` cast
# dropped from cudaLaunchKernel's first argument (what is rewritten and what is refused: the script's
# docstring). Either way diagnostics and __FILE__ name a.cu, and quoted includes resolve next to
# it (-iquote its directory). A refused launch fails the build with `a.cu:LINE: error: ...`.
#
#   ringsweep_simt_wrap_sources(<out-var> <target> <source>...)
#       Generate the wrappers for one target; sources ending in .cpp/.cc/.cxx pass through.
#
#   ringsweep_add_simt_executable(NAME <target> SOURCES <src>... [LIBRARIES <lib>...])
#       Executable built by the host compiler against ringsweep::simt, sanitised when
#       RINGSWEEP_SANITIZE asks; defines RINGSWEEP_VARIANT_SIMT=1.
#
#   ringsweep_add_gpu_executable(NAME <target> SOURCES <src>... [LIBRARIES <lib>...])
#       Executable built by nvcc (CUDA must be enabled); defines RINGSWEEP_VARIANT_GPU=1.
#
# The functions work from any directory of any project that has ringsweep: after add_subdirectory
# or FetchContent of a checkout, and after find_package(ringsweep COMPONENTS simt) of an install (in
# a checkout this file and the wrap-step scripts live with the backend, in simt/cmake/; they are
# installed beside ringsweepConfig.cmake, which includes this file). They find the scripts next to
# this file (CMAKE_CURRENT_FUNCTION_LIST_DIR) and the Python interpreter through a global property,
# set here or by the first call that has to look for it: nothing depends on variables of the
# directory that included this file.

include_guard(GLOBAL)
# The sanitizer flags (ringsweep_apply_sanitizers): beside this file in an install, in the
# checkout's cmake/ when this file is read from simt/cmake/ (add_subdirectory, FetchContent).
if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/RingsweepCompileOptions.cmake")
  include("${CMAKE_CURRENT_LIST_DIR}/RingsweepCompileOptions.cmake")
else()
  include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/RingsweepCompileOptions.cmake")
endif()
find_package(Python3 3.6 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  set_property(GLOBAL PROPERTY RINGSWEEP_SIMT_PYTHON "${Python3_EXECUTABLE}")
endif()

# The Python 3 interpreter of the wrap step, in <out-var> (empty when there is none).
function(ringsweep_simt_python out_var)
  get_property(python GLOBAL PROPERTY RINGSWEEP_SIMT_PYTHON)
  if(NOT python)
    find_package(Python3 3.6 COMPONENTS Interpreter QUIET)
    if(Python3_Interpreter_FOUND)
      set(python "${Python3_EXECUTABLE}")
      set_property(GLOBAL PROPERTY RINGSWEEP_SIMT_PYTHON "${python}")
    endif()
  endif()
  set(${out_var} "${python}" PARENT_SCOPE)
endfunction()

function(ringsweep_simt_wrap_sources out_var target)
  set(script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ringsweep_simt_chevrons.py")
  set(modules "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ringsweep_simt_shared.py")
  set(result)
  set(seen)
  foreach(src IN LISTS ARGN)
    cmake_path(ABSOLUTE_PATH src BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE
               OUTPUT_VARIABLE abs)
    cmake_path(GET abs EXTENSION LAST_ONLY ext)
    if(ext MATCHES "^\\.(cpp|cc|cxx)$")
      list(APPEND result "${abs}")
      continue()
    endif()
    cmake_path(GET abs FILENAME name)
    if(name IN_LIST seen)
      message(FATAL_ERROR "ringsweep_simt_wrap_sources(${target}): two sources are named ${name}")
    endif()
    list(APPEND seen "${name}")
    set(wrapper "${CMAKE_CURRENT_BINARY_DIR}/simt_sources/${target}/${name}.cpp")
    ringsweep_simt_python(python)
    if(NOT python)
      message(FATAL_ERROR "ringsweep_simt_wrap_sources(${target}): the SIMT wrap step needs Python 3 (3.6 or newer)")
    endif()
    cmake_path(GET abs PARENT_PATH dir)
    add_custom_command(OUTPUT "${wrapper}"
      COMMAND "${python}" "${script}" "${abs}" "${wrapper}"
      DEPENDS "${abs}" "${script}" "${modules}"
      COMMENT "SIMT wrap step: ${name} for ${target}" VERBATIM)
    set_source_files_properties("${wrapper}" PROPERTIES COMPILE_OPTIONS "-iquote;${dir}")
    list(APPEND result "${wrapper}")
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

function(ringsweep_add_simt_executable)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME" "SOURCES;LIBRARIES")
  if(NOT arg_NAME OR NOT arg_SOURCES)
    message(FATAL_ERROR "ringsweep_add_simt_executable: NAME and SOURCES are required")
  endif()
  if(NOT TARGET ringsweep::simt)
    message(FATAL_ERROR "ringsweep_add_simt_executable(${arg_NAME}): ringsweep::simt is not defined")
  endif()
  ringsweep_simt_wrap_sources(sources ${arg_NAME} ${arg_SOURCES})
  add_executable(${arg_NAME} ${sources})
  target_link_libraries(${arg_NAME} PRIVATE ringsweep::ringsweep ringsweep::simt ${arg_LIBRARIES})
  target_compile_definitions(${arg_NAME} PRIVATE RINGSWEEP_VARIANT_SIMT=1)
  set_target_properties(${arg_NAME} PROPERTIES RINGSWEEP_BACKEND simt)  # read by ringsweep_add_test_command
  ringsweep_apply_sanitizers(${arg_NAME})
endfunction()

function(ringsweep_add_gpu_executable)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME" "SOURCES;LIBRARIES")
  if(NOT arg_NAME OR NOT arg_SOURCES)
    message(FATAL_ERROR "ringsweep_add_gpu_executable: NAME and SOURCES are required")
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST languages)
    message(FATAL_ERROR "ringsweep_add_gpu_executable(${arg_NAME}): the CUDA language is not enabled")
  endif()
  add_executable(${arg_NAME} ${arg_SOURCES})
  target_link_libraries(${arg_NAME} PRIVATE ringsweep::ringsweep ${arg_LIBRARIES})
  target_compile_definitions(${arg_NAME} PRIVATE RINGSWEEP_VARIANT_GPU=1)
  set_target_properties(${arg_NAME} PROPERTIES RINGSWEEP_BACKEND gpu)
  target_compile_options(${arg_NAME} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>)
endfunction()

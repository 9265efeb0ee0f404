# Compile options shared by the SIMT backend, the tests and the examples.
#
#   ringsweep_target_warnings(<target>)
#       -Wall -Wextra for C++ sources; the same through -Xcompiler for CUDA sources.
#       With RINGSWEEP_WERROR=ON warnings become errors (nvcc's own warnings included).
#
#   ringsweep_apply_sanitizers(<target>)
#       When RINGSWEEP_SANITIZE is address_undefined: compile the target's C++ (host-compiled)
#       sources with ASan + UBSan. Executables link the runtime themselves; a static library
#       passes the link flag on to whatever links it (also after install), so the runtime is
#       always there. CUDA sources are left alone. Calling it twice on one target is harmless.
#       The SIMT backend (ringsweep_simt) is the exception: it is compiled uninstrumented, only
#       announcing its fiber switches and stacks to AddressSanitizer (RINGSWEEP_SIMT_ASAN), as in
#       the race-detection build below. The kernels and tests compiled into an executable are
#       checked as before; the backend's scheduler and warp collectives, about half of a sanitized
#       sort test's CPU time when instrumented, run at full speed. The backend's own tests link an
#       instrumented copy of it instead (ringsweep_simt_checked, simt/CMakeLists.txt).
#       When RINGSWEEP_SANITIZE is thread (race detection): executables are compiled and linked
#       with -fsanitize=thread, so kernels compiled into them are instrumented; the SIMT backend
#       itself stays uninstrumented and only announces its fibers, barriers and warp rendezvous to
#       ThreadSanitizer (RINGSWEEP_SIMT_TSAN), so that its own bookkeeping is never reported.

include_guard(GLOBAL)

function(ringsweep_target_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
  if(RINGSWEEP_WERROR)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-Werror>
      $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>)
  endif()
endfunction()

function(ringsweep_apply_sanitizers target)
  # Set here, not beside the function: it is also called from other projects' directories
  # (ringsweep_add_simt_executable), which do not see this file's variables.
  set(RINGSWEEP_SANITIZE_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  set(RINGSWEEP_TSAN_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
  if(RINGSWEEP_SANITIZE STREQUAL "thread")
    get_target_property(done ${target} RINGSWEEP_SANITIZE_APPLIED)
    if(done)
      return()
    endif()
    set_property(TARGET ${target} PROPERTY RINGSWEEP_SANITIZE_APPLIED ON)
    get_target_property(type ${target} TYPE)
    if(target STREQUAL "ringsweep_simt")
      target_compile_definitions(${target} PRIVATE RINGSWEEP_SIMT_TSAN=1)
      target_link_options(${target} INTERFACE ${RINGSWEEP_TSAN_FLAGS})
    elseif(type STREQUAL "EXECUTABLE")
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${RINGSWEEP_TSAN_FLAGS}>)
      target_link_options(${target} PRIVATE ${RINGSWEEP_TSAN_FLAGS})
    endif()
    return()
  endif()
  if(NOT RINGSWEEP_SANITIZE STREQUAL "address_undefined")
    return()
  endif()
  get_target_property(done ${target} RINGSWEEP_SANITIZE_APPLIED)
  if(done)
    return()
  endif()
  set_property(TARGET ${target} PROPERTY RINGSWEEP_SANITIZE_APPLIED ON)

  if(target STREQUAL "ringsweep_simt")
    target_compile_definitions(${target} PRIVATE RINGSWEEP_SIMT_ASAN=1)
  else()
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${RINGSWEEP_SANITIZE_FLAGS}>)
  endif()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "EXECUTABLE" OR type STREQUAL "SHARED_LIBRARY" OR type STREQUAL "MODULE_LIBRARY")
    target_link_options(${target} PRIVATE ${RINGSWEEP_SANITIZE_FLAGS})
  elseif(type STREQUAL "STATIC_LIBRARY" OR type STREQUAL "OBJECT_LIBRARY")
    target_link_options(${target} INTERFACE ${RINGSWEEP_SANITIZE_FLAGS})
  endif()
endfunction()

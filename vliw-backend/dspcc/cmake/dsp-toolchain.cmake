# dsp-toolchain.cmake: CMake toolchain file for dspcc (print its path with
# `dspcc -print-cmake-toolchain`):
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=$(dspcc -print-cmake-toolchain) [-DDSP_ISA=ftm8] SRC
#   make && ctest        # tests run on the simulator (dsp-sim --strict)
#
# The tools are taken from DSP_TOOLCHAIN_BIN (default: the directory of the
# dspcc on PATH, else this checkout's target/release). DSP_ISA picks the
# machine (default ftm). Executables run through CMAKE_CROSSCOMPILING_EMULATOR
# (dsp-sim --strict, files confined to the test's working directory), so
# ctest and try_run work.

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR dsp)

if(NOT DSP_TOOLCHAIN_BIN)
  find_program(_dsp_dspcc dspcc)
  if(_dsp_dspcc)
    get_filename_component(DSP_TOOLCHAIN_BIN "${_dsp_dspcc}" DIRECTORY)
  else()
    get_filename_component(DSP_TOOLCHAIN_BIN "${CMAKE_CURRENT_LIST_DIR}/../../../target/release" ABSOLUTE)
  endif()
endif()
set(DSP_TOOLCHAIN_BIN "${DSP_TOOLCHAIN_BIN}" CACHE PATH "Directory of dspcc, dsp-ar, dsp-ld and dsp-sim")
if(NOT DSP_ISA)
  set(DSP_ISA ftm)
endif()
set(DSP_ISA "${DSP_ISA}" CACHE STRING "Target machine (shipped name or .isa file)")
# try_compile projects see these too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES DSP_TOOLCHAIN_BIN DSP_ISA)

set(CMAKE_C_COMPILER "${DSP_TOOLCHAIN_BIN}/dspcc")
set(CMAKE_AR "${DSP_TOOLCHAIN_BIN}/dsp-ar" CACHE FILEPATH "archiver")
set(CMAKE_RANLIB "${DSP_TOOLCHAIN_BIN}/dsp-ranlib" CACHE FILEPATH "ranlib")
set(CMAKE_LINKER "${DSP_TOOLCHAIN_BIN}/dsp-ld" CACHE FILEPATH "linker")
set(CMAKE_C_FLAGS_INIT "--isa=${DSP_ISA}")
set(CMAKE_CROSSCOMPILING_EMULATOR "${DSP_TOOLCHAIN_BIN}/dsp-sim;--strict")

# Everything is static: no shared libraries, no PIC.
set_property(GLOBAL PROPERTY TARGET_SUPPORTS_SHARED_LIBS FALSE)
set(CMAKE_POSITION_INDEPENDENT_CODE OFF)

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The third-party libraries every component may link, found once here. Native builds take Debian
# 12's packages through find_package. The WebAssembly build (Emscripten) cannot link Debian's
# x86-64 libraries, nor put /usr/include on its search path (glibc's headers would shadow its own
# C library's), so it uses the header-only ones through a folder that holds only their headers:
# fmt and spdlog in their header-only modes, nlohmann-json, CLI11 and Boost (docs/web.md).
if(NOT EMSCRIPTEN)
  find_package(fmt REQUIRED)
  find_package(nlohmann_json 3.10 REQUIRED)
  find_package(CLI11 REQUIRED)
  find_package(spdlog REQUIRED)
  find_package(Boost 1.74 REQUIRED)  # headers only: Boost.Container, Boost.CRC
  return()
endif()

set(AINB_WASM_HEADERS ${PROJECT_BINARY_DIR}/wasm-headers)
set(AINB_SYSTEM_INCLUDE /usr/include CACHE PATH "Where Debian's header-only libraries are")
foreach(folder fmt spdlog nlohmann CLI boost)
  if(NOT EXISTS ${AINB_SYSTEM_INCLUDE}/${folder})
    message(FATAL_ERROR "ainb (wasm): ${AINB_SYSTEM_INCLUDE}/${folder} is missing "
                        "(scripts/install-deps.sh wasm)")
  endif()
  file(MAKE_DIRECTORY ${AINB_WASM_HEADERS})
  file(CREATE_LINK ${AINB_SYSTEM_INCLUDE}/${folder} ${AINB_WASM_HEADERS}/${folder} SYMBOLIC)
endforeach()

# ainb_header_library(TARGET [DEFINITIONS...]): an imported target of the staged headers.
function(ainb_header_library target)
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${AINB_WASM_HEADERS}
                                             INTERFACE_COMPILE_DEFINITIONS "${ARGN}")
endfunction()
ainb_header_library(fmt::fmt FMT_HEADER_ONLY=1)
ainb_header_library(spdlog::spdlog SPDLOG_HEADER_ONLY SPDLOG_FMT_EXTERNAL FMT_HEADER_ONLY=1)
ainb_header_library(nlohmann_json::nlohmann_json)
ainb_header_library(CLI11::CLI11)
ainb_header_library(Boost::headers)

# Emscripten's JavaScript optimiser needs Debian's node-acorn, under /usr/share/nodejs: Debian's
# own node looks there, another (NodeSource's) does not unless told.
set(CMAKE_CXX_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)

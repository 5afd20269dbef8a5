cmake_minimum_required(VERSION 3.16)
# The layer diagram of docs/architecture.md names every source file:
#   cmake -DSOURCE_DIR=<repo> -P check_architecture_files.cmake
# The diagram is the first fenced block after "## Layers". In it, a word
# ending in "/" that starts with one of the roots below (host/src/queue/)
# makes that folder the current one; a word ending in .c .h .S .cpp .hpp
# after it names a file of that folder. Any other folder word (boards/x/,
# abi/rvhal/*.h) ends the current folder. Fails, listing them, when a
# source file under a root is not named, or a named file does not exist.
# Generic on purpose: files are renamed and added often; the diagram, not
# this script, is what changes.
set(roots host/src host/tools host/opencl firmware sdk)
set(exts c h S cpp hpp)

file(READ "${SOURCE_DIR}/docs/architecture.md" doc)
string(FIND "${doc}" "\n## Layers" at)
if(at EQUAL -1)
  message(FATAL_ERROR "docs/architecture.md has no \"## Layers\" section")
endif()
string(SUBSTRING "${doc}" ${at} -1 doc)
string(FIND "${doc}" "\n```" open)
if(open EQUAL -1)
  message(FATAL_ERROR "docs/architecture.md: no fenced block after \"## Layers\"")
endif()
math(EXPR open "${open} + 4")
string(SUBSTRING "${doc}" ${open} -1 doc)
string(FIND "${doc}" "\n```" close)
if(close EQUAL -1)
  message(FATAL_ERROR "docs/architecture.md: the layer diagram's block is not closed")
endif()
string(SUBSTRING "${doc}" 0 ${close} diagram)

# Words of the diagram, in order (box-drawing characters and punctuation
# around names are separators).
string(REGEX REPLACE "[][ \t\r\n│┌┐└┘├┤┬┴┼─▼`(),;:=*<>\"']+" ";" words "${diagram}")
set(folder "")
set(named "")
foreach(w IN LISTS words)
  if(w MATCHES "/$")
    set(folder "")
    foreach(r IN LISTS roots)
      if(w STREQUAL "${r}/" OR w MATCHES "^${r}/")
        set(folder "${w}")
      endif()
    endforeach()
  elseif(w MATCHES "^[A-Za-z0-9_.-]+\\.(c|h|S|cpp|hpp)$" AND NOT folder STREQUAL "")
    list(APPEND named "${folder}${w}")
  endif()
endforeach()

set(sources "")
foreach(r IN LISTS roots)
  if(IS_DIRECTORY "${SOURCE_DIR}/${r}")
    foreach(e IN LISTS exts)
      file(GLOB_RECURSE found RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${r}/*.${e}")
      list(APPEND sources ${found})
    endforeach()
  endif()
endforeach()
list(FILTER sources EXCLUDE REGEX "/tests/")  # a layer's own tests are not layers
list(REMOVE_DUPLICATES sources)
list(SORT sources)

set(missing "")
foreach(f IN LISTS sources)
  if(NOT f IN_LIST named)
    list(APPEND missing "${f}")
  endif()
endforeach()
set(stale "")
foreach(f IN LISTS named)
  if(NOT EXISTS "${SOURCE_DIR}/${f}")
    list(APPEND stale "${f}")
  endif()
endforeach()
list(LENGTH sources nsources)
list(LENGTH named nnamed)
if(missing OR stale)
  string(REPLACE ";" "\n  " missing_text "${missing}")
  string(REPLACE ";" "\n  " stale_text "${stale}")
  message(FATAL_ERROR "docs/architecture.md's layer diagram is out of date.\n"
          "Source files it does not name (add each under its folder's line):\n  ${missing_text}\n"
          "Files it names that do not exist:\n  ${stale_text}")
endif()
message(STATUS "docs/architecture.md names all ${nsources} source files (${nnamed} names)")

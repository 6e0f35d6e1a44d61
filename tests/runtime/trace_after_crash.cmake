# trace_after_crash.cmake: a DSP that crashes leaves a trace that is valid JSON and
# holds what was traced before the crash (issue 37, 10: the file was empty, its events
# in a stdio buffer the signal's end of the process never wrote).
#   cmake -DRUN=mpirio-run -DPROGRAM=mpi_misuse.so -DCASE=segv|abort -DREGEX=...
#         -DOUT=dir -P trace_after_crash.cmake
# The program's DSP 2 crashes after an MPI_Barrier of 4 DSPs: the run must end by the
# crash (not exit status 0), print what matches REGEX, and the trace must have the
# DSPs' tracks and the barrier's spans, DSP 2's among them.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(trace ${OUT}/t.json)
execute_process(COMMAND ${RUN} -n 4 --trace ${trace} ${PROGRAM} ${CASE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc STREQUAL "0")
  message(FATAL_ERROR "the run of ${CASE} ended with exit status 0\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "the run of ${CASE} (${rc}) does not match ${REGEX}\n${out}${err}")
endif()
if(NOT EXISTS ${trace})
  message(FATAL_ERROR "no trace written")
endif()
file(READ ${trace} text)
string(LENGTH "${text}" bytes)
string(JSON n ERROR_VARIABLE jerr LENGTH "${text}" traceEvents)
if(jerr)
  message(FATAL_ERROR "the trace (${bytes} bytes) is not JSON: ${jerr}\n${text}")
endif()
set(tracks 0)
set(spans2 0)
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON ph GET "${text}" traceEvents ${i} ph)
  string(JSON tid GET "${text}" traceEvents ${i} tid)
  string(JSON pid GET "${text}" traceEvents ${i} pid)
  if(ph STREQUAL "M" AND pid EQUAL 0)
    math(EXPR tracks "${tracks} + 1")
  elseif(ph STREQUAL "X" AND pid EQUAL 0 AND tid EQUAL 2)
    string(JSON name GET "${text}" traceEvents ${i} name)
    if(name STREQUAL "MPI_Barrier")
      math(EXPR spans2 "${spans2} + 1")
    endif()
  endif()
endforeach()
# the DSPs' process and its 4 threads
if(NOT tracks EQUAL 5 OR spans2 LESS 1)
  message(FATAL_ERROR "${n} events: ${tracks} names of the DSPs' tracks (want 5), "
                      "${spans2} MPI_Barrier spans of DSP 2 (want some)\n${text}")
endif()
message(STATUS "${CASE}: ${rc}; the trace: ${n} events, ${spans2} MPI_Barrier spans of DSP 2")

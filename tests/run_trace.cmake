# run_trace.cmake: `tgc run GRAPH --trace FILE` writes a Chrome trace that is valid JSON
# and names each compute span by its task (the ids of the fir4 graph), not "compute";
# tests/check_trace.py checks its flow arrows, span args and iterations.
#   cmake -DTGC=tgc -DGRAPH=fir4.json -DOUT=dir -P run_trace.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${TGC} run ${GRAPH} --trace ${OUT}/t.json RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tgc run: exit status ${rc}\n${out}${err}")
endif()
file(READ ${OUT}/t.json trace)
string(JSON n ERROR_VARIABLE jerr LENGTH "${trace}" traceEvents)
if(jerr)
  message(FATAL_ERROR "the trace is not JSON: ${jerr}")
endif()
foreach(task tap0 tap1 tap2 tap3)
  string(FIND "${trace}" "\"name\":\"${task}\",\"cat\":\"busy\"" at)
  if(at LESS 0)
    message(FATAL_ERROR "no compute span named ${task} in the ${n} events")
  endif()
endforeach()
# the name is the task's id, not its quoted label ("\"tap0\"")
string(FIND "${trace}" "\"name\":\"\\\"" at)
if(NOT at LESS 0)
  message(FATAL_ERROR "a span's name has quotes in it")
endif()
string(FIND "${trace}" "\"name\":\"compute\"" at)
if(NOT at LESS 0)
  message(FATAL_ERROR "a compute span is still named \"compute\"")
endif()
# the flow arrows from each send to its receive, the args of the spans, the iterations
execute_process(COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/check_trace.py ${OUT}/t.json 256
                        src tap0 tap1 tap2 tap3 sum
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tests/check_trace.py: exit status ${rc}\n${out}${err}")
endif()
message(STATUS "${n} events, compute spans named by task; ${out}")

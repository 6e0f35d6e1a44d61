# run_expect.cmake: run CMD (a ;-list) REPEAT times (default 1); every run must exit
# with RC (default 0), print output matching REGEX (if given), and, with REPEAT > 1,
# print exactly the same thing each time.
#   cmake -DCMD=... [-DRC=2] [-DREGEX=...] [-DREPEAT=5] -P run_expect.cmake
if(NOT DEFINED RC)
  set(RC 0)
endif()
if(NOT DEFINED REPEAT)
  set(REPEAT 1)
endif()
string(REPLACE "|" ";" cmd "${CMD}")
set(first "")
foreach(i RANGE 1 ${REPEAT})
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  set(all "${out}${err}")
  if(NOT rc STREQUAL RC)
    message(FATAL_ERROR "run ${i}: exit status ${rc}, want ${RC}\n${all}")
  endif()
  if(DEFINED REGEX AND NOT all MATCHES "${REGEX}")
    message(FATAL_ERROR "run ${i}: output does not match ${REGEX}\n${all}")
  endif()
  if(i EQUAL 1)
    set(first "${all}")
  elseif(NOT all STREQUAL first)
    message(FATAL_ERROR "run ${i} differs from run 1:\n${first}\n----\n${all}")
  endif()
endforeach()
message(STATUS "${first}")

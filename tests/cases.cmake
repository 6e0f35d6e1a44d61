# Golden-case tests of `tgc check` (included from tests/CMakeLists.txt):
#   invalid/<name>  one per folder of testcases/invalid (tests/run_invalid.sh)
#   import-sdf3/invalid/<name>  one per folder of testcases/import/sdf3/invalid: the exact
#                   errors of tgc import sdf3, nothing written (tests/run_import_sdf3.sh)
#   valid/<name>    the example graphs (tests/run_valid.sh)
#   cli             the command-line conventions (tests/run_cli.sh)
#   harden          hostile names, kernel files and outputs (tests/run_harden.sh)
#   harden_tools    limits, XML outputs, escaping, interrupted runs (tests/run_harden_tools.sh)
#   terminal_escapes  names with terminal escapes through every command: escaped on the
#                   terminal by one rule (tests/run_terminal_escapes.sh)
#   valgrind/check  tgc check under valgrind on a handful of cases (label valgrind)
#   check_cli       the unit test of tools/cli.c

# The driver's shared option parsing and output files (tools/cli.c, tools/output.c),
# unit-tested alone.
tgc_check_test(cli tgc_frontend tgc_ir PkgConfig::JANSSON)
target_sources(check_cli PRIVATE ${PROJECT_SOURCE_DIR}/tools/cli.c
                                 ${PROJECT_SOURCE_DIR}/tools/output.c
                                 ${PROJECT_SOURCE_DIR}/tools/progress.c)
target_include_directories(check_cli PRIVATE ${PROJECT_SOURCE_DIR}/tools)

if(NOT TARGET tgc)
  return()
endif()
set(tgc_cases ${PROJECT_SOURCE_DIR}/testcases)
file(GLOB tgc_invalid_cases LIST_DIRECTORIES true CONFIGURE_DEPENDS ${tgc_cases}/invalid/*)
foreach(dir ${tgc_invalid_cases})
  if(IS_DIRECTORY ${dir})
    get_filename_component(case ${dir} NAME)
    add_test(NAME invalid/${case}
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_invalid.sh $<TARGET_FILE:tgc> ${dir})
  endif()
endforeach()
file(GLOB tgc_sdf3_invalid LIST_DIRECTORIES true CONFIGURE_DEPENDS
     ${tgc_cases}/import/sdf3/invalid/*)
foreach(dir ${tgc_sdf3_invalid})
  if(IS_DIRECTORY ${dir})
    get_filename_component(case ${dir} NAME)
    add_test(NAME import-sdf3/invalid/${case}
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_import_sdf3.sh $<TARGET_FILE:tgc>
                     ${dir})
  endif()
endforeach()
foreach(case fir4 chain4 worked topcuoglu peft)
  add_test(NAME valid/${case}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_valid.sh $<TARGET_FILE:tgc>
                   ${tgc_cases}/${case})
endforeach()
add_test(NAME cli COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_cli.sh $<TARGET_FILE:tgc>
                          ${tgc_cases})
add_test(NAME harden COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_harden.sh $<TARGET_FILE:tgc>
                             ${tgc_cases})
add_test(NAME harden_tools COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_harden_tools.sh
                                   $<TARGET_FILE:tgc> ${tgc_cases})
add_test(NAME terminal_escapes COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_terminal_escapes.sh
                                       $<TARGET_FILE:tgc>)
find_program(VALGRIND valgrind)
if(VALGRIND AND NOT TGC_SANITIZE) # valgrind cannot run a sanitized program
  add_test(NAME valgrind/check
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_valgrind.sh ${VALGRIND} $<TARGET_FILE:tgc>
                   ${tgc_cases})
  set_tests_properties(valgrind/check PROPERTIES LABELS valgrind)
endif()

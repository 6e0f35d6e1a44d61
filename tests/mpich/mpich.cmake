# The CTest suite "mpich": MPICH's own C tests (basic, pt2pt, coll, comm, group,
# datatype, attr of ../shared/mpich-tests) built with mpirio-cc against their real
# harness and run under mpirio-run in both collective families, judged by MPICH's
# runtests rules (docs/runtime.md, "MPICH's tests").
#   mpich_build    builds the harness and every program (the fixture of the two below)
#   mpich_switch   runs them with the in-switch collectives
#   mpich_mpich    runs them with MPICH's algorithms
#   mpich_harness  run_mpich.sh itself on fake programs (tests/mpich/harness.sh)
# Each prints the table (built, passed, failed, skipped with the reason) and fails if
# a run of tests/mpich/expected.txt does not pass. Where the folder is absent each
# says so and is skipped. Included from tests/runtime/CMakeLists.txt.
get_filename_component(MPICH_TESTS ${CMAKE_CURRENT_LIST_DIR}/../../../shared/mpich-tests/test/mpi
                       ABSOLUTE)
set(MPICH_RUNNER ${CMAKE_CURRENT_LIST_DIR}/run_mpich.sh)
set(MPICH_OUT ${CMAKE_CURRENT_BINARY_DIR}/mpich)
# the runner itself, on fake programs: every run judged as MPICH's runtests does
add_test(NAME mpich_harness COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/harness.sh)
set_tests_properties(mpich_harness PROPERTIES LABELS mpich TIMEOUT 120)
if(TGC_SANITIZE)
  # 325 programs rebuilt and 460 runs under the sanitizers would take most of CI's
  # time; the sanitizer build runs the API through the mpirio_mpi_* tests instead
  message(STATUS "mpich suite: not in the sanitizer build")
  return()
endif()
add_test(NAME mpich_build
  COMMAND sh ${MPICH_RUNNER} build ${MPICH_TESTS} ${MPICH_OUT} ${MPIRIO_CC_SCRIPT}
          --jobs 2 --defs $<TARGET_FILE:mpirio-run>)
set_tests_properties(mpich_build PROPERTIES FIXTURES_SETUP mpich SKIP_RETURN_CODE 77
  LABELS mpich TIMEOUT 600)
# every run of the testlists: the largest, ic2 at 33 and darray_pack at 72, take a
# fraction of a second as DSPs of the simulator (the runner's default of 16 is for
# the native MPIs of compare.sh on a small machine)
foreach(coll switch mpich)
  add_test(NAME mpich_${coll}
    COMMAND ${CMAKE_COMMAND} -E env MPIRIO_COLL=${coll}
            sh ${MPICH_RUNNER} run ${MPICH_TESTS} ${MPICH_OUT} $<TARGET_FILE:mpirio-run>
            ${coll} --jobs 2 --timeout 60 --max-np 72
            --skip ${CMAKE_CURRENT_LIST_DIR}/skip.txt
            --expect ${CMAKE_CURRENT_LIST_DIR}/expected.txt)
  set_tests_properties(mpich_${coll} PROPERTIES FIXTURES_REQUIRED mpich
    SKIP_RETURN_CODE 77 LABELS mpich TIMEOUT 900 RUN_SERIAL ON)
endforeach()

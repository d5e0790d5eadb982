# ThreadSanitizer (HPCDB_SANITIZE=thread): the unit tests of threaded code
# (worker teams, node-shared task lists, parallel kernels, the buffer pool),
# the serialized MPI suite's tests of the same on 1 and 2 ranks, and the whole
# threaded MPI suite (the message layer's network threads beside the callers'
# threads, MPI_THREAD_MULTIPLE) on 2 and 3 ranks.
#
# Open MPI and UCX are not instrumented: their internals are suppressed
# (tsan.supp beside this file), our code is not. UCX's memory hooks (libucm)
# intercept madvise, which glibc calls as a thread exits, after
# ThreadSanitizer has torn the thread's state down: a crash in UCX, not in our
# code; the hooks serve registration caches for RDMA NICs, unused here. Open
# MPI's own hooks (its memory patcher) call into UCX's the same way: off too.
# A message a rank sends to itself is copied out of the sender's buffer by
# Open MPI's loopback transport (mca_btl_self.so) in the receiving thread, and
# the send's completion reaches the sending thread through Open MPI's own
# atomics: ThreadSanitizer would see the copy, not the ordering. The copies
# made by that component are suppressed; Open MPI unloads its components at
# MPI_Finalize, and a suppressed library must stay loaded, so it is preloaded
# into every MPI process.
# A race report names both accesses; a suppression of Open MPI or UCX can
# only match the earlier access if its stack can still be restored. With the
# default history (128K accesses a thread) a network thread that spins
# through progress calls loses it within milliseconds, and a copy inside MPI
# out of a caller's stack frame was reported against our later write to the
# same frame, with the earlier stack "failed to restore": history_size=7
# keeps 4M accesses a thread.
set(hpcdb_tsan_names WorkerTeam RunOnThreads NodeTask Threads threads Parallel NodeSharing Skew BufferPool MergeLevel)
list(TRANSFORM hpcdb_tsan_names PREPEND "*")
list(TRANSFORM hpcdb_tsan_names APPEND "*")
list(JOIN hpcdb_tsan_names ":" hpcdb_tsan_filter)

# Only the test files that hold a test the filter selects are compiled into
# the unit and serialized MPI suites of this build (a test whose name matches
# on its TEST line): the others would be built to be skipped.
list(JOIN hpcdb_tsan_names "|" hpcdb_tsan_name_regex)
string(REPLACE "*" "" hpcdb_tsan_name_regex "${hpcdb_tsan_name_regex}")
function(hpcdb_keep_tsan_test_files sources_var)
  set(kept "")
  foreach(source ${${sources_var}})
    file(STRINGS ${source} selected REGEX "^ *TEST(_F|_P)?\\(.*(${hpcdb_tsan_name_regex})")
    if(selected)
      list(APPEND kept ${source})
    endif()
  endforeach()
  set(${sources_var} ${kept} PARENT_SCOPE)
endfunction()

find_program(HPCDB_OMPI_INFO ompi_info REQUIRED)
execute_process(COMMAND ${HPCDB_OMPI_INFO} --path pkglibdir --parsable OUTPUT_VARIABLE pkglibdir OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX REPLACE "^path:pkglibdir:" "" pkglibdir "${pkglibdir}")
set(hpcdb_tsan_self_btl ${pkglibdir}/mca_btl_self.so)

set(mpi_launch_options -x LD_PRELOAD=${hpcdb_tsan_self_btl})
set(sanitizer_environment
    "TSAN_OPTIONS=halt_on_error=1 second_deadlock_stack=1 history_size=7 suppressions=${CMAKE_CURRENT_LIST_DIR}/tsan.supp"
    UCX_MEM_EVENTS=no UCX_MEM_MMAP_HOOK_MODE=none OMPI_MCA_memory=^patcher)

function(hpcdb_thread_sanitizer_tests)
  add_test(NAME tsan_unit_tests COMMAND hpcdb_unit_tests --gtest_brief=1 --gtest_filter=${hpcdb_tsan_filter})
  set_tests_properties(tsan_unit_tests PROPERTIES TIMEOUT 900 COST 1000 LABELS unit ENVIRONMENT "${sanitizer_environment}")
  foreach(ranks 1 2)
    mpi_test(tsan_mpi_tests_${ranks}_ranks ${ranks} hpcdb_mpi_tests --gtest_brief=1 --gtest_filter=${hpcdb_tsan_filter})
  endforeach()
  foreach(ranks 2 3)
    mpi_test(tsan_threaded_mpi_tests_${ranks}_ranks ${ranks} hpcdb_threaded_mpi_tests --gtest_brief=1)
  endforeach()
endfunction()

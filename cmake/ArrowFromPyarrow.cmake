# Arrow C++ and Parquet from the pyarrow wheel in the project's Python
# environment (.venv, made by scripts/python_env.sh): the wheel ships
# libarrow and libparquet with their headers. Defines the imported targets
# hpcdb::arrow and hpcdb::parquet (headers as SYSTEM, so that the project's
# -Wall -Wextra -Wpedantic -Werror do not apply to Arrow's own code).
# `pip install .` (scikit-build-core) builds with the interpreter that runs it.
if(SKBUILD)
  set(HPCDB_PYTHON "${Python_EXECUTABLE}" CACHE FILEPATH "Python interpreter whose pyarrow provides Arrow C++ and Parquet")
else()
  set(HPCDB_PYTHON "${CMAKE_SOURCE_DIR}/.venv/bin/python" CACHE FILEPATH
      "Python interpreter whose pyarrow provides Arrow C++ and Parquet (scripts/python_env.sh makes .venv)")
endif()
if(NOT EXISTS "${HPCDB_PYTHON}")
  message(FATAL_ERROR "Arrow and Parquet come from pyarrow in ${HPCDB_PYTHON}, which does not exist: run "
                      "'scripts/python_env.sh build' (or 'make build', which does), or pass -DHPCDB_PYTHON=...")
endif()
execute_process(
  COMMAND "${HPCDB_PYTHON}" -c
          "import pyarrow as pa; pa.create_library_symlinks(); print(pa.__version__); print(pa.get_include()); print(pa.get_library_dirs()[0])"
  OUTPUT_VARIABLE pyarrow_facts RESULT_VARIABLE pyarrow_status ERROR_VARIABLE pyarrow_error
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT pyarrow_status EQUAL 0)
  message(FATAL_ERROR "pyarrow in ${HPCDB_PYTHON} does not load: ${pyarrow_error}Run 'scripts/python_env.sh build'.")
endif()
string(REPLACE "\n" ";" pyarrow_facts "${pyarrow_facts}")
list(GET pyarrow_facts 0 HPCDB_ARROW_VERSION)
list(GET pyarrow_facts 1 HPCDB_ARROW_INCLUDE_DIR)
list(GET pyarrow_facts 2 HPCDB_ARROW_LIBRARY_DIR)
# create_library_symlinks() made libarrow.so -> libarrow.so.NNNN beside the versioned files.
find_library(HPCDB_ARROW_LIBRARY arrow PATHS "${HPCDB_ARROW_LIBRARY_DIR}" NO_DEFAULT_PATH REQUIRED)
find_library(HPCDB_PARQUET_LIBRARY parquet PATHS "${HPCDB_ARROW_LIBRARY_DIR}" NO_DEFAULT_PATH REQUIRED)
find_library(HPCDB_ARROW_COMPUTE_LIBRARY arrow_compute PATHS "${HPCDB_ARROW_LIBRARY_DIR}" NO_DEFAULT_PATH REQUIRED)
message(STATUS "Arrow ${HPCDB_ARROW_VERSION} and Parquet from pyarrow: ${HPCDB_ARROW_LIBRARY_DIR}")

add_library(hpcdb::arrow SHARED IMPORTED)
set_target_properties(hpcdb::arrow PROPERTIES IMPORTED_LOCATION "${HPCDB_ARROW_LIBRARY}"
                      INTERFACE_INCLUDE_DIRECTORIES "${HPCDB_ARROW_INCLUDE_DIR}"
                      INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${HPCDB_ARROW_INCLUDE_DIR}")
add_library(hpcdb::arrow_compute SHARED IMPORTED)
set_target_properties(hpcdb::arrow_compute PROPERTIES IMPORTED_LOCATION "${HPCDB_ARROW_COMPUTE_LIBRARY}"
                      INTERFACE_LINK_LIBRARIES hpcdb::arrow)
add_library(hpcdb::parquet SHARED IMPORTED)
set_target_properties(hpcdb::parquet PROPERTIES IMPORTED_LOCATION "${HPCDB_PARQUET_LIBRARY}"
                      INTERFACE_LINK_LIBRARIES "hpcdb::arrow;hpcdb::arrow_compute")

# Programs find the libraries where they were built against (no LD_LIBRARY_PATH).
list(APPEND CMAKE_BUILD_RPATH "${HPCDB_ARROW_LIBRARY_DIR}")
list(APPEND CMAKE_INSTALL_RPATH "${HPCDB_ARROW_LIBRARY_DIR}")

# The wheel's C++ interfaces pass std::string: its libstdc++ ABI
# (_GLIBCXX_USE_CXX11_ABI) must be this compiler's, or every such call fails
# to link (or worse). A function returning std::string links only if both agree.
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_INCLUDES "${HPCDB_ARROW_INCLUDE_DIR}")
set(CMAKE_REQUIRED_LIBRARIES "${HPCDB_ARROW_LIBRARY}")
set(CMAKE_REQUIRED_LINK_OPTIONS "-Wl,-rpath,${HPCDB_ARROW_LIBRARY_DIR}")
check_cxx_source_compiles([[
#include <arrow/status.h>
#include <string>
int main() { std::string text = arrow::Status::Invalid("x").ToString(); return text.empty() ? 1 : 0; }
]] HPCDB_ARROW_ABI_MATCHES)
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_LIBRARIES)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(NOT HPCDB_ARROW_ABI_MATCHES)
  message(FATAL_ERROR "Arrow from pyarrow ${HPCDB_ARROW_VERSION} (${HPCDB_ARROW_LIBRARY}) does not link with "
                      "${CMAKE_CXX_COMPILER} ${CMAKE_CXX_COMPILER_VERSION}: their C++ ABIs (_GLIBCXX_USE_CXX11_ABI) differ")
endif()

# The Python package: the extension module hpcdb._core (src/hpcdb/python,
# pybind11 from the project's Python environment) beside the package's
# Python files (python/hpcdb), assembled in BUILD/python/hpcdb. 'make build'
# points .venv at that directory (a .pth file); 'pip install .' builds the
# same through scikit-build-core (pyproject.toml) and installs it.
set(Python_EXECUTABLE "${HPCDB_PYTHON}")
find_package(Python 3.9 REQUIRED COMPONENTS Interpreter Development.Module)
execute_process(COMMAND "${Python_EXECUTABLE}" -c "import pybind11; print(pybind11.get_cmake_dir())"
                OUTPUT_VARIABLE pybind11_DIR RESULT_VARIABLE pybind11_status OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT pybind11_status EQUAL 0)
  message(FATAL_ERROR "pybind11 is missing from ${Python_EXECUTABLE}: run 'scripts/python_env.sh build'")
endif()
find_package(pybind11 CONFIG REQUIRED)

file(GLOB python_module_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/hpcdb/python/*.cpp)
pybind11_add_module(hpcdb_python MODULE ${python_module_sources})
target_link_libraries(hpcdb_python PRIVATE hpcdb_api)
set(HPCDB_PYTHON_PACKAGE_DIR ${CMAKE_BINARY_DIR}/python/hpcdb)
set_target_properties(hpcdb_python PROPERTIES OUTPUT_NAME _core LIBRARY_OUTPUT_DIRECTORY ${HPCDB_PYTHON_PACKAGE_DIR})

file(GLOB python_package_files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/python/hpcdb/*.py)
foreach(file ${python_package_files})
  get_filename_component(name ${file} NAME)
  configure_file(${file} ${HPCDB_PYTHON_PACKAGE_DIR}/${name} COPYONLY)
endforeach()

# pip install . : the module beside the package's files (pyproject.toml's wheel.packages).
if(SKBUILD)
  install(TARGETS hpcdb_python LIBRARY DESTINATION hpcdb)
endif()

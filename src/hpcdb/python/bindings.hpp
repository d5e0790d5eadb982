#pragma once
// The extension module hpcdb._core, in parts: each adds its functions. The
// Python package (python/hpcdb) wraps them in the public interface.
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "hpcdb/core/phase_time.hpp"

namespace hpcdb::python {

void bind_communicator(pybind11::module_& module);
void bind_errors(pybind11::module_& module);  // translates the engine's exceptions
void bind_join(pybind11::module_& module);
void bind_tables(pybind11::module_& module);

// [{"name", "seconds" (slowest rank), "mean_seconds"}, ...]
pybind11::list phases_list(const std::vector<PhaseTime>& phases);

}  // namespace hpcdb::python

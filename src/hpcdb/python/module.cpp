#include <pybind11/stl.h>

#include <optional>

#include "hpcdb/core/error.hpp"
#include "hpcdb/net/agreement.hpp"
#include "hpcdb/python/bindings.hpp"
#include "hpcdb/python/communicator.hpp"

namespace py = pybind11;

namespace hpcdb::python {

void bind_communicator(py::module_& m) {
  m.def("initialize_mpi", &initialize_mpi, "Initializes MPI unless it is; True when this call did.");
  m.def("finalize_mpi", &finalize_mpi, "Finalizes MPI unless it is finalized.");
  py::class_<Communicator>(m, "Communicator")
      .def(py::init<std::optional<long long>>(), py::arg("fortran_handle") = py::none(),
           "Collective: the ranks of a communicator (its Fortran handle) or of MPI_COMM_WORLD (None).")
      .def_property_readonly("rank", &Communicator::rank)
      .def_property_readonly("size", &Communicator::size)
      .def("close", &Communicator::close, "Collective: frees the engine's duplicate of the communicator.")
      .def(
          "first_complaint",
          [](const Communicator& comm, const std::string& mine) {
            py::gil_scoped_release unlocked;
            const WatchedCall call(comm, "hpcdb arguments check");
            return first_complaint(comm.cluster().world(), mine);
          },
          "Collective: the non-empty text of the lowest rank that has one, at every rank; '' when none has.");
}

void bind_errors(py::module_& /*module*/) {
  // The package's exception classes (hpcdb._errors) for the engine's errors,
  // which every rank raises alike.
  py::register_exception_translator([](std::exception_ptr failure) {
    if (!failure) return;
    const py::module_ errors = py::module_::import("hpcdb._errors");
    try {
      std::rethrow_exception(failure);
    } catch (const UsageError& e) {
      PyErr_SetString(errors.attr("UsageError").ptr(), e.what());
    } catch (const AgreedFailure& e) {
      PyErr_SetString(errors.attr(e.exit_code() == 2 ? "UsageError" : "Error").ptr(), e.what());
    } catch (const Error& e) {
      PyErr_SetString(errors.attr("Error").ptr(), e.what());
    }
  });
}

py::list phases_list(const std::vector<PhaseTime>& phases) {
  py::list list;
  for (const PhaseTime& phase : phases) {
    py::dict entry;
    entry["name"] = phase.name;
    entry["seconds"] = phase.max;
    entry["mean_seconds"] = phase.mean;
    list.append(entry);
  }
  return list;
}

}  // namespace hpcdb::python

PYBIND11_MODULE(_core, m) {
  m.doc() = "hpcdb's engine: distributed joins and shuffles of Arrow tables over MPI (use the hpcdb package).";
  hpcdb::python::bind_errors(m);
  hpcdb::python::bind_communicator(m);
  hpcdb::python::bind_join(m);
  hpcdb::python::bind_tables(m);
}

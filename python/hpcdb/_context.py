"""Which ranks a call runs on. Without ``comm`` a call runs on every rank of
the job (MPI_COMM_WORLD); with an mpi4py communicator, on its ranks. MPI is
initialized at the first call when no one has done it (a program without
mpi4py) and finalized at the interpreter's exit by whoever initialized it."""
import atexit
import contextlib

from . import _core

_world_communicator = None
_initialized_here = False


def _handle_of(comm):
    if comm is None:
        return None
    py2f = getattr(comm, "py2f", None)
    if py2f is None:
        raise TypeError(f"comm must be an mpi4py communicator (or None for all ranks), not {type(comm).__name__}")
    return int(py2f())


def _world():
    global _world_communicator, _initialized_here
    if _world_communicator is None:
        _initialized_here = _core.initialize_mpi()
        _world_communicator = _core.Communicator(None)
    return _world_communicator


@contextlib.contextmanager
def communicator(comm=None):
    """The engine's communicator for ``comm`` during a call (collective): the
    job's, kept for every call, or a duplicate of the caller's, freed after
    the call (the caller may free and reuse its handle afterwards)."""
    handle = _handle_of(comm)
    if handle is None:
        yield _world()
        return
    made = _core.Communicator(handle)
    try:
        yield made
    finally:
        made.close()


def agree(comm, complaint):
    """Collective: raises, on every rank, the first rank's complaint (an
    exception or None), as the same class with the same message."""
    text = ""
    if complaint is not None:
        text = type(complaint).__name__ + "\n" + str(complaint)
    first = comm.first_complaint(text)
    if not first:
        return
    kind, _, message = first.partition("\n")
    from ._errors import Error, UsageError
    classes = {"TypeError": TypeError, "KeyError": UsageError, "UsageError": UsageError, "ValueError": UsageError}
    raise classes.get(kind, Error)(message)


@atexit.register
def _close():
    # Before MPI_Finalize (mpi4py's, which runs after atexit's functions, or ours).
    global _world_communicator
    if _world_communicator is not None:
        _world_communicator.close()
        _world_communicator = None
    if _initialized_here:
        _core.finalize_mpi()

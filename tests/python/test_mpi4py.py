"""The package inside a program that runs MPI itself through mpi4py: its
COMM_WORLD, and a sub-communicator of some ranks."""
import pyarrow as pa
import pytest

import hpcdb
from conftest import share_of

MPI = pytest.importorskip("mpi4py.MPI")


def test_comm_world_of_mpi4py(tables):
    left, right = tables
    comm = MPI.COMM_WORLD
    result = hpcdb.join(share_of(left), share_of(right), on="id", comm=comm)
    total = comm.allreduce(result.num_rows)
    assert total == 9  # keys 2: 2x1, 3: 1x2, 5: 1x1, 7: 2x1, 13: 1x2 (the fixture)
    assert hpcdb.rank(comm) == comm.Get_rank()


def test_a_sub_communicator_runs_only_its_ranks():
    world = MPI.COMM_WORLD
    evens = world.Split(world.Get_rank() % 2, world.Get_rank())
    if world.Get_rank() % 2 == 0:
        table = pa.table({"k": [world.Get_rank(), 100 + world.Get_rank()]})
        whole = hpcdb.gather(table, comm=evens)
        if evens.Get_rank() == 0:
            assert whole.num_rows == 2 * evens.Get_size()
        assert hpcdb.size(evens) == evens.Get_size()
    world.Barrier()
    evens.Free()

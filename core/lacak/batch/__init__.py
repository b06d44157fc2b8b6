"""Many jobs: running generate or solve jobs through any ``concurrent.futures.Executor``,
and the datasets of ``lacak batch``.

The modules, a concern each: :mod:`~lacak.batch.seeds` (job seeds),
:mod:`~lacak.batch.jobs` (a job's :class:`Outcome`), :mod:`~lacak.batch.pool` (the
executors and the process pool lacak owns), :mod:`~lacak.batch.many` (the facade's
:func:`generate_many` and :func:`solve_many`), :mod:`~lacak.batch.processes` (workers
end with their parent), :mod:`~lacak.batch.cluster` (Dask); and the datasets:
:mod:`~lacak.batch.specs` (what a job makes), :mod:`~lacak.batch.records` (records
and their digests), :mod:`~lacak.batch.dataset` (the records of a batch, its summary,
writing them) and :mod:`~lacak.batch.files` (the file formats).

By default jobs run in a local process pool. For more than one machine, pass
a Dask executor::

    from distributed import Client
    client = Client("scheduler:8786")
    lacak.batch.generate_many("maze", "wilson", (100, 100), count=10_000, seed=1,
                              executor=client.get_executor())

Job seeds are derived from the batch seed with :class:`numpy.random.SeedSequence`,
so job ``i`` gets the same seed (and the same instance) whatever executor runs it.

A batch gives back one :class:`Outcome` per job, in job order
(:func:`run_many`) or as the jobs finish (:func:`iter_many`): the job's value,
or the error it ended with. One job's failure never costs another its result:

- an exception in a job is caught where the job runs and comes back as data:
  the exception itself when it pickles (every :class:`~lacak.LacakError`
  does), else a :class:`~lacak.JobError` naming its type and message; the
  traceback text comes with it (:attr:`Outcome.traceback`);
- a worker process that dies (a signal, ``os._exit``, a crash) breaks a
  process pool. When lacak owns the pool, the jobs the dead pool's workers
  were running are run again after the others, each alone in a fresh
  one-process pool (so a second death is that job's own), and reported as a
  :class:`~lacak.WorkerDiedError` if it dies again; jobs that were waiting
  go on in a fresh pool. A caller's executor is never replaced: when it
  breaks, its unfinished jobs are reported, not retried.

Worker processes note the job they are running in a small file (one per
worker, in a temporary folder), which is how lacak tells the job a dead
worker was running from those it had not started. They end when the process
that started them ends, whatever ends it: on Linux the kernel kills them
(``PR_SET_PDEATHSIG``, asked for by each worker as it starts); elsewhere a
thread in each worker looks twice a second whether its parent is still there
(:mod:`lacak.batch.processes`).

The shape is modelled on :func:`concurrent.futures.as_completed` (records as
jobs finish) and :meth:`~concurrent.futures.Executor.map` (in order), with
per-job results as in Rust's ``Result`` (:meth:`Outcome.unwrap`) rather than
``asyncio.gather(return_exceptions=True)``'s mixed list; the retry of a dead
worker's jobs follows pytest-xdist (a crashed worker is replaced and its test
reported) and Dask's ``allowed_failures`` (a task whose workers keep dying is
given up as ``KilledWorker``).
"""

from __future__ import annotations

# the sub-modules are attributes of the package, as before the split (lacak.batch.dataset)
from . import dataset, files, jobs, many, pool, processes, records, seeds, specs  # noqa: F401
from .jobs import Outcome
from .many import generate_many, solve_many
from .pool import WAITING_PER_WINDOW, WINDOW_PER_WORKER, iter_many, run_many
from .seeds import derive_seeds, job_seed

__all__ = [
    "WAITING_PER_WINDOW",
    "WINDOW_PER_WORKER",
    "Outcome",
    "dataset",
    "derive_seeds",
    "generate_many",
    "iter_many",
    "job_seed",
    "run_many",
    "solve_many",
]

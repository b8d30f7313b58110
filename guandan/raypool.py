"""Deal sets on a Ray cluster: an executor whose workers are a cluster's CPUs.

``guandan arena --ray [ADDRESS]`` and ``guandan simulate --ray [ADDRESS]`` hand their deal sets
(the arena's seatings, simulate's matches) to :class:`RayPool` instead of a local process
pool; the driver merges the results in order exactly as with ``--workers``, so the figures
and records are the same as one process's (for players that do not play by the clock).

- ``ADDRESS`` is what ``ray.init`` takes: ``HEAD:6379`` on a machine of the cluster (the
  address ``ray start --head`` prints), ``ray://HEAD:10001`` from outside it (Ray Client),
  or nothing: the cluster ``RAY_ADDRESS`` names or the one started on this machine, else a
  new one-machine Ray. Every node needs this package installed (the same version), as the
  driver imports the work by name.
- A task whose worker process dies, or whose node is lost, is run again by Ray
  (``max_retries``): its deal set is played again from its seed, and the driver takes each
  deal set's result once.

Ray is optional: ``pip install 'guandan-lab[ray]'``. :func:`ray_pool` gives the pool or the
message that says how to install it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

RAY_MISSING = ("--ray needs Ray, an optional extra: pip install 'guandan-lab[ray]' "
               "(or pip install ray==2.60.0)")

#: How often Ray runs a deal set again whose worker or node was lost (never for an error
#: raised by the game itself: that is the run's error).
RETRIES = 5


def _ray() -> Any:
    """The ``ray`` module, or ``RuntimeError`` with how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise RuntimeError(RAY_MISSING) from None


def connect(address: str | None = None) -> tuple[Any, bool]:
    """The ``ray`` module, connected to the cluster at ``address`` (a local one if None) unless
    this process is connected already; and whether this call connected it (so the caller
    disconnects at its end only then)."""
    ray = _ray()
    if ray.is_initialized():
        return ray, False
    ray.init(address=address, logging_level="ERROR", log_to_driver=False,
             configure_logging=False)
    return ray, True


class RayPool(Executor):
    """``submit(fn, *args)`` runs ``fn`` as a Ray task on the cluster at ``address`` and gives a
    ``concurrent.futures.Future`` of its result; ``workers`` is the cluster's CPUs.

    ``fn`` must be importable by name on every node (a module-level function of this
    package). The pool connects on creation and disconnects at ``shutdown`` if it connected.
    """

    def __init__(self, address: str | None = None) -> None:
        ray, self._connected = connect(address)
        self._ray = ray
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote: dict[Callable[..., Any], Any] = {}
        self._pending: list[tuple[Any, Future[Any]]] = []  # (ref, its future) not done yet

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(
                max_retries=RETRIES, retry_exceptions=False)(fn)
        ref = remote.remote(*args, **kwargs)
        future: Future[Any] = ref.future()
        self._pending = [(r, f) for r, f in self._pending if not f.done()]
        self._pending.append((ref, future))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            for ref, future in self._pending:
                if not future.done():
                    self._ray.cancel(ref, force=True)
        self._pending = []
        if self._connected:
            self._ray.shutdown()
            self._connected = False


def ray_pool(address: str | None) -> RayPool | str:
    """The pool on the cluster at ``address`` (see the module docstring), or what is wrong
    (Ray not installed, no cluster there) as a message for the command line."""
    try:
        return RayPool(address)
    except RuntimeError as e:
        return str(e)
    except ConnectionError as e:
        return f"--ray cannot reach a Ray cluster at {address or 'the default address'}: {e}"

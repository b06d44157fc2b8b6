"""The plugin host: how lacak finds, loads, guards and catalogues its plugins.

- :mod:`lacak.plugin.hookspecs`: the hooks a plugin implements (``register_searchers``,
  ``register_puzzle_types``, ...);
- :mod:`lacak.plugin.loader`: the ``lacak`` entry points, loaded one by one with a time
  limit, what failed and what was overridden (``LACAK_DISABLE_PLUGINS``, ...);
- :mod:`lacak.plugin.isolation`: plugin code runs guarded, its output away from lacak's,
  its time bounded;
- :mod:`lacak.plugin.registry`: the catalogues of the registered components, and the
  process-wide :func:`~lacak.default_registry`.

The host stands on the kernel (:mod:`lacak.interfaces`, the errors and limits) and never
imports a plugin: the built-in plugins come through the entry points like any other.
"""

from __future__ import annotations

from . import hookspecs, isolation, loader, registry

__all__ = ["hookspecs", "isolation", "loader", "registry"]

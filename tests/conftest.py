"""Shared test configuration: hypothesis profiles.

Choose one with ``pytest --hypothesis-profile=NAME``:

``default``   what CI runs;
``quick``     fewer examples, for a fast local loop;
``thorough``  many more examples, for a nightly run.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "quick", max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")

"""Settings for the whole suite.

Hypothesis's per-example deadline (200 ms) measures the machine, not the code: on a loaded 2-core machine a
parse example took 300 ms once and failed the run. Linear time is checked by counting work (tests/test_parse_linear.py
and bench/parse_worst.py), so the deadline is off everywhere."""

from hypothesis import HealthCheck, settings

settings.register_profile("forumbot", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("forumbot")

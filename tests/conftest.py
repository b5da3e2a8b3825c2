import os

from hypothesis import HealthCheck, settings

# Property tests are deterministic in CI (derandomized) and thorough on request.
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=1000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

"""Private utilities shared by the core and the wings: nothing here is public API.

``concurrency`` (the run's judge limiter), ``gc_pause`` (fewer collections while a run is in flight),
``json_text`` (the hot path's JSON writer), ``lazy`` (lazy public names of a package face),
``loop`` (coroutines from synchronous code), ``safe_text`` (data-derived text made safe to show),
``scrub`` (masking secrets), ``import_path`` (``"package.module:name"`` to the object).
"""

"""The automatic shard size (no Ray needed): enough shards for every worker, never tiny ones."""

import json

from agent_evaluators.ray_engine.shards import auto_shard_size, estimate_rows, jsonl_ranges


def test_twelve_workers_get_about_four_shards_each():
    size = auto_shard_size(6000, 12)
    assert size == 125
    assert -(-6000 // size) >= 4 * 12  # before: 6 shards of 1,000 rows for 12 workers


def test_bounds_and_unknown_row_count():
    assert auto_shard_size(None, 8) == 1000
    assert auto_shard_size(10, 8) == 20
    assert auto_shard_size(10_000_000, 2) == 1000


def test_row_estimate_is_exact_for_small_files_and_close_for_large(tmp_path):
    small = tmp_path / "small.jsonl"
    small.write_text("".join(json.dumps({"i": i}) + "\n" + ("\n" if i % 5 == 0 else "") for i in range(300)))
    assert estimate_rows(small) == 300 == sum(n for *_, n in jsonl_ranges(small, 1000))
    big = tmp_path / "big.jsonl"
    big.write_text("".join(json.dumps({"i": i, "text": "x" * (i % 50)}) + "\n" for i in range(60_000)))
    assert abs(estimate_rows(big, sample_bytes=64 * 1024) - 60_000) < 60_000 * 0.1

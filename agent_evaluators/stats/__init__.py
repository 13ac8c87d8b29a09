"""Statistics as pure functions: intervals, paired tests, pass@k, power, agreement (DESIGN.md §9)."""

"""Evaluator classes, one module per metric family."""

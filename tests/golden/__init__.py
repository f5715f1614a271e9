"""Golden playthroughs: recorded games every rules change is checked against (test_golden.py)."""
